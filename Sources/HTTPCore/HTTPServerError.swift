/// Why the HTTP server cannot listen.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Another program already listens on the port.
    case portInUse(host: String, port: Int)
    /// The system refuses to let this user listen on the port (ports below 1024 usually need root).
    case permissionDenied(host: String, port: Int)
    /// Listening failed for another reason.
    case cannotListen(host: String, port: Int, reason: String)

    /// A sentence naming the address and the reason.
    public var description: String {
        switch self {
        case .invalidPort(let port): "invalid port \(port): a port is a number from 0 to 65535"
        case .portInUse(let host, let port):
            "cannot listen on \(host):\(port): the port is in use by another program"
        case .permissionDenied(let host, let port):
            "cannot listen on \(host):\(port): permission denied (ports below 1024 need special rights)"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        }
    }
}
