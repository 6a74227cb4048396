import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server: one thread per connection on plain POSIX sockets, so that building
/// Cascade needs no networking framework. It reads request heads (``RequestHead``) within time
/// limits, hands each to its ``HTTPResponder`` and sends the ``Response``, files in chunks with
/// back-pressure. It is as careful as a real static server with slow or idle clients: see
/// ``Limits``. It knows nothing of what it serves.
public struct HTTPServer: Sendable {
    /// How long the server waits for clients and how many it keeps; the defaults are nginx's
    /// (`client_header_timeout`, `keepalive_timeout`, `send_timeout`).
    public struct Limits: Sendable {
        /// The time a request's head may take to arrive (then 408 and the connection closes).
        public var headerTimeout: Duration
        /// How long a kept-alive connection may wait for its next request.
        public var idleTimeout: Duration
        /// How long a client may take nothing of an answer before the connection is closed.
        public var sendTimeout: Duration
        /// The most connections open at once (`nil`: as many as the descriptor limit allows,
        /// at most 1,024). At the limit, the connection idle the longest is closed to make room.
        public var maximumConnections: Int?
        /// The most long polls held at once (one per open page); more are answered 503 and
        /// the page's script retries a second later (see ``HTTPConnection/beginPoll``).
        public var maximumPolls: Int

        /// Creates limits; the defaults suit a preview server on one computer.
        public init(
            headerTimeout: Duration = .seconds(60), idleTimeout: Duration = .seconds(75),
            sendTimeout: Duration = .seconds(60), maximumConnections: Int? = nil, maximumPolls: Int = 64
        ) {
            self.headerTimeout = headerTimeout
            self.idleTimeout = idleTimeout
            self.sendTimeout = sendTimeout
            self.maximumConnections = maximumConnections
            self.maximumPolls = maximumPolls
        }
    }

    /// Where the server listens, once it does.
    public struct Listening: Sendable, Equatable {
        /// The address it listens on.
        public var host: String
        /// The port it listens on (the one the system picked when port 0 was asked for).
        public var port: Int
        /// The server's address, `http://host:port/`.
        public var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }
    }

    /// The address to listen on.
    public let host: String
    /// The port to listen on; 0 picks a free one (see ``Listening/port``).
    public let port: Int
    /// Time limits and connection limits.
    public let limits: Limits
    /// What answers the requests.
    public let responder: any HTTPResponder
    /// What the running server holds, for tests that wait for a state (see ``ServerGauges``).
    package var gauges = ServerGauges()

    /// A server of `responder` on `host:port`; nothing listens until ``run(onListening:)``.
    public init(host: String, port: Int, limits: Limits = Limits(), responder: any HTTPResponder) {
        self.host = host
        self.port = port
        self.limits = limits
        self.responder = responder
    }

    /// Serves until the task is cancelled; then it stops gracefully (``HTTPResponder/stop()``
    /// answers what it holds, idle connections are closed, answers under way finished) and
    /// returns.
    ///
    /// - Parameter onListening: called once the server accepts connections, with the port
    ///   actually used.
    /// - Throws: ``HTTPServerError/portInUse(host:port:)`` and the other listening errors
    ///   when the server cannot start.
    public func run(onListening: @escaping @Sendable (Listening) async -> Void = { _ in }) async throws(HTTPServerError) {
        let listener = try Listener(host: host, port: port)
        let registry = ConnectionRegistry(
            maximumConnections: ConnectionRegistry.connectionLimit(requested: limits.maximumConnections),
            maximumPolls: limits.maximumPolls)
        gauges.attach(registry)
        let limits = self.limits
        let responder = self.responder
        let closer = LingeringCloser()
        let stop: @Sendable () -> Void = {
            listener.stop()
            responder.stop()  // answer the held polls, so that stopping never waits for them
            registry.stop()
            closer.stop()
        }
        let done = Completion()
        let thread = Thread {
            listener.acceptLoop { socket in
                guard let id = registry.admit(socket) else {
                    // Every connection is busy answering: say so (come back in a second), and
                    // close so that the client gets it although its request is not read.
                    socket.sendAtOnce(Response.busy.bytes(closing: true))
                    closer.close(socket)
                    return
                }
                let handler = ConnectionHandler(socket: socket, id: id, registry: registry, responder: responder, limits: limits)
                let worker = Thread { handler.run() }
                worker.stackSize = 512 * 1024
                worker.start()
            }
            done.finish()
        }
        thread.start()
        let host = self.host
        await withTaskCancellationHandler {
            await onListening(Listening(host: host, port: listener.port))
            await done.wait()
        } onCancel: {
            stop()
        }
    }

    /// Checks that a port is free (and allowed) before anything slow happens, such as a first
    /// build; ``run(onListening:)`` checks again. Only IPv4 addresses are checked.
    public static func probeAddress(host: String, port: Int) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        if let problem = probe(host: host, port: port) { throw problem }
    }

    /// Tries to bind the address the way the server will, to report a busy or forbidden port
    /// before anything slow happens (the listener reports the same errors, but only once it starts).
    static func probe(host: String, port: Int) -> HTTPServerError? {
        guard port != 0 else { return nil }
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }  // not IPv4: the listener reports it
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result != 0 else { return nil }
        switch errno {
        case EADDRINUSE: return .portInUse(host: host, port: port)
        case EACCES: return .permissionDenied(host: host, port: port)
        case let code: return .cannotListen(host: host, port: port, reason: String(cString: strerror(code)))
        }
    }
}

/// What a server answers requests with: the program it serves.
public protocol HTTPResponder: Sendable {
    /// The answer to `request`, asked on the connection's own thread (it may block: a long
    /// poll waits there). For `HEAD` the server sends the answer's head only.
    func respond(to request: RequestHead, connection: HTTPConnection) -> Response

    /// The server is stopping: answer the requests held open (long polls) now, and every later
    /// one at once, so that stopping never waits for them.
    func stop()
}

/// What a responder may ask of the connection a request came on.
public struct HTTPConnection {
    /// Counts a held long poll in; `false` when ``HTTPServer/Limits/maximumPolls`` are held
    /// already (then answer 503 with `Retry-After`).
    public var beginPoll: () -> Bool
    /// Counts a held long poll out.
    public var endPoll: () -> Void
    /// Whether the client closed the connection (asked while a poll is held).
    public var clientHasGone: () -> Bool

    /// A connection made of these three questions (the tests make their own).
    public init(beginPoll: @escaping () -> Bool, endPoll: @escaping () -> Void, clientHasGone: @escaping () -> Bool) {
        self.beginPoll = beginPoll
        self.endPoll = endPoll
        self.clientHasGone = clientHasGone
    }
}

/// Something that happens once (the accept loop ending), awaited by one task.
private final class Completion: Sendable {
    private let state = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func finish() {
        state.withLock { state in
            state.done = true
            return state.waiter.take()
        }?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.done { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
