import HTTPCore

/// Why the preview server cannot start or keep running.
public enum PreviewServerError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The folder to serve does not exist.
    case rootNotFound(String)
    /// The path to serve exists but is not a folder.
    case rootNotADirectory(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Another program already listens on the port.
    case portInUse(host: String, port: Int)
    /// The system refuses to let this user listen on the port (ports below 1024 usually need root).
    case permissionDenied(host: String, port: Int)
    /// Listening failed for another reason.
    case cannotListen(host: String, port: Int, reason: String)

    /// A sentence naming the folder or the address and the reason.
    public var description: String {
        switch self {
        case .rootNotFound(let path): "cannot serve \(path): the folder does not exist"
        case .rootNotADirectory(let path): "cannot serve \(path): it is not a folder"
        case .invalidPort(let port): "invalid port \(port): a port is a number from 0 to 65535"
        case .portInUse(let host, let port):
            "cannot listen on \(host):\(port): the port is in use by another program (choose another one with --port)"
        case .permissionDenied(let host, let port):
            "cannot listen on \(host):\(port): permission denied (ports below 1024 need special rights; choose another one with --port)"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        }
    }
}

extension PreviewServerError {
    /// The preview server's error for the HTTP server's (the same cases, with the `--port` hint).
    init(_ error: HTTPServerError) {
        switch error {
        case .invalidPort(let port): self = .invalidPort(port)
        case .portInUse(let host, let port): self = .portInUse(host: host, port: port)
        case .permissionDenied(let host, let port): self = .permissionDenied(host: host, port: port)
        case .cannotListen(let host, let port, let reason): self = .cannotListen(host: host, port: port, reason: reason)
        }
    }
}
