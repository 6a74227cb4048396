import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local HTTP server for previewing a static site while it is being worked on.
///
/// It serves one folder and nothing outside it: request paths with `.` or `..` segments in any
/// spelling, backslashes or NUL are refused with 400, and files reached through symbolic links
/// that point outside the folder are 404. Folders answer with their `index.html` (a folder
/// without one is 404; a folder asked for without its trailing `/` is redirected), `HEAD` and
/// single byte ranges are supported (206, 416), and every HTML page gets the live-reload script
/// of ``LiveReload``; the files on disk are never changed. Files are opened name by name
/// without following links (see ``SiteFileOpener``), so a link swapped in during a request
/// cannot lead out either, and the build's temporary files and bookkeeping are never served.
///
/// It is a small HTTP/1.1 server of its own (one thread per connection, plain POSIX sockets),
/// so that building Cascade needs no networking framework. It is as careful as a real static
/// server with slow or idle clients: see ``Limits``.
///
/// It is meant for previewing only, and listens on 127.0.0.1 by default.
public struct PreviewServer: Sendable {
    /// What to serve and where.
    public struct Configuration: Sendable {
        /// The folder to serve.
        public var root: String
        /// The address to listen on.
        public var host: String
        /// The port to listen on; 0 picks a free one (see ``Listening/port``).
        public var port: Int
        /// Whether pages get the live-reload script and the reload endpoint answers.
        public var liveReload: Bool
        /// How long a reload poll is held open before it is answered with an unchanged version.
        public var pollTimeout: Duration
        /// Time limits and connection limits.
        public var limits: Limits

        /// Creates a configuration; by default on 127.0.0.1:8000 with live reload.
        public init(
            root: String, host: String = "127.0.0.1", port: Int = 8000, liveReload: Bool = true,
            pollTimeout: Duration = .seconds(25), limits: Limits = Limits()
        ) {
            self.root = root
            self.host = host
            self.port = port
            self.liveReload = liveReload
            self.pollTimeout = pollTimeout
            self.limits = limits
        }
    }

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
        /// The most reload polls held at once (one per open page); more are answered 503 and
        /// the page's script retries a second later.
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
        /// The site's address, `http://host:port/`.
        public var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }
    }

    /// The configuration it was created with.
    public let configuration: Configuration
    /// The served folder with symbolic links resolved.
    public let root: String
    /// The channel that tells open pages to reload: call ``LiveReload/signal()`` after a rebuild.
    public let liveReload: LiveReload

    /// Checks the folder and the port; nothing listens until ``run(onListening:)``.
    public init(configuration: Configuration) throws(PreviewServerError) {
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.root, isDirectory: &isDirectory) else {
            throw .rootNotFound(configuration.root)
        }
        guard isDirectory.boolValue, let resolved = realpath(configuration.root, nil) else {
            throw .rootNotADirectory(configuration.root)
        }
        var root = String(cString: resolved)
        free(resolved)
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        self.configuration = configuration
        self.root = root
        self.liveReload = LiveReload()
    }

    /// Checks that a port is free (and allowed) before anything slow happens, such as the first
    /// build; ``run(onListening:)`` checks again. Only IPv4 addresses are checked.
    public static func probeAddress(host: String, port: Int) throws(PreviewServerError) {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        if let problem = probe(host: host, port: port) { throw problem }
    }

    /// Serves until the task is cancelled; then it stops gracefully (held reload polls are
    /// answered at once, idle connections closed, answers under way finished) and returns.
    ///
    /// - Parameter onListening: called once the server accepts connections, with the port
    ///   actually used.
    /// - Throws: ``PreviewServerError/portInUse(host:port:)`` and the other listening errors
    ///   when the server cannot start.
    public func run(onListening: @escaping @Sendable (Listening) async -> Void = { _ in }) async throws(PreviewServerError) {
        let listener = try Listener(host: configuration.host, port: configuration.port)
        let registry = ConnectionRegistry(
            maximumConnections: ConnectionRegistry.connectionLimit(requested: configuration.limits.maximumConnections),
            maximumPolls: configuration.limits.maximumPolls)
        let responder = StaticSiteResponder(
            files: SiteFileOpener(root: root), liveReload: configuration.liveReload ? liveReload : nil,
            pollTimeout: configuration.pollTimeout)
        let limits = configuration.limits
        let reload = liveReload
        let closer = LingeringCloser()
        let stop: @Sendable () -> Void = {
            listener.stop()
            reload.close()  // answer the held reload polls, so that stopping never waits for them
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
        let host = configuration.host
        await withTaskCancellationHandler {
            await onListening(Listening(host: host, port: listener.port))
            await done.wait()
        } onCancel: {
            stop()
        }
    }

    /// Tries to bind the address the way the server will, to report a busy or forbidden port
    /// before anything slow happens (the listener reports the same errors, but only once it starts).
    static func probe(host: String, port: Int) -> PreviewServerError? {
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
