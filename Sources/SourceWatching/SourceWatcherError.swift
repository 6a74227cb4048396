/// Why the source folder cannot be watched.
public enum SourceWatcherError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The folder to watch cannot be listed.
    case unreadable(path: String, reason: String)
    /// The polling interval or the quiet period is not positive.
    case invalidInterval(String)

    /// A sentence naming the folder and the reason.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot watch \(path): \(reason)"
        case .invalidInterval(let message): "invalid watch interval: \(message)"
        }
    }
}
