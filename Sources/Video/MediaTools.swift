import Foundation

/// Where `ffmpeg` and `ffprobe` are: found on the `PATH`, or given (tests).
public struct MediaTools: Sendable, Hashable {
    /// Absolute path of `ffmpeg`.
    public var ffmpeg: String
    /// Absolute path of `ffprobe`.
    public var ffprobe: String

    /// Tools at the given paths.
    public init(ffmpeg: String, ffprobe: String) {
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
    }

    /// Both tools from the `PATH` of `environment`; nil unless both are there and executable.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> MediaTools? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ name: String) -> String? {
            folders.lazy.map { ($0.isEmpty ? "." : $0) + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard let ffmpeg = find("ffmpeg"), let ffprobe = find("ffprobe") else { return nil }
        return MediaTools(ffmpeg: ffmpeg, ffprobe: ffprobe)
    }

    /// What a user without the tools is told to do.
    public static let installHint = "install ffmpeg (Debian and Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg)"
}
