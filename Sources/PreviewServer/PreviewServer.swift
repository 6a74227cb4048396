import Foundation
import Hummingbird
import ServiceLifecycle
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
/// of ``LiveReload``; the files on disk are never changed.
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

        /// Creates a configuration; by default on 127.0.0.1:8000 with live reload.
        public init(
            root: String, host: String = "127.0.0.1", port: Int = 8000, liveReload: Bool = true,
            pollTimeout: Duration = .seconds(25)
        ) {
            self.root = root
            self.host = host
            self.port = port
            self.liveReload = liveReload
            self.pollTimeout = pollTimeout
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
    /// answered at once) and returns normally.
    ///
    /// - Parameter onListening: called once the server accepts connections, with the port
    ///   actually used.
    /// - Throws: ``PreviewServerError/portInUse(host:port:)`` and the other listening errors
    ///   when the server cannot start.
    public func run(onListening: @escaping @Sendable (Listening) async -> Void = { _ in }) async throws(PreviewServerError) {
        let host = configuration.host
        let port = configuration.port
        if let problem = Self.probe(host: host, port: port) { throw problem }

        let responder = StaticSiteResponder(
            root: root, liveReload: configuration.liveReload ? liveReload : nil,
            pollTimeout: configuration.pollTimeout)
        let started = Flag()
        var app = Application(
            responder: responder,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                started.set()
                await onListening(Listening(host: host, port: channel.localAddress?.port ?? port))
            }
        )
        // Hummingbird logs every start at `info` and a cancelled connection as an `error`; the
        // command line prints its own lines, and errors that matter are thrown from here.
        app.logger.logLevel = .critical
        // Cancelling stops the server gracefully: it stops accepting, answers what it is
        // answering, then closes. (Cancelling Hummingbird's own task instead can drop a
        // connection accepted at that moment, which NIO treats as a fatal error.) The group
        // runs in a task of its own so that the cancellation does not reach it.
        let group = ServiceGroup(services: [app], logger: app.logger)
        let running = Task { try await group.run() }
        let reload = liveReload
        do {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                // Answer the held reload polls, so that shutting down never waits for them.
                reload.close()
                Task { await group.triggerGracefulShutdown() }
            }
            return
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            if started.isSet { throw .stopped(reason: String(describing: error)) }
            throw Self.probe(host: host, port: port) ?? .cannotListen(host: host, port: port, reason: String(describing: error))
        }
    }

    /// Tries to bind the address the way the server will, to report a busy or forbidden port
    /// with a clear message (the server's own error is NIO's `IOError`).
    static func probe(host: String, port: Int) -> PreviewServerError? {
        guard port != 0 else { return nil }
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }  // not IPv4: let NIO report
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

/// A flag set once, readable from any thread.
private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
