import Foundation
import HTTPCore

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
/// The site's answers are ``StaticSiteResponder``'s; the HTTP/1.1 server under it is
/// `HTTPCore`'s ``HTTPServer`` (its own, on POSIX sockets, careful with slow or idle clients:
/// see ``Limits``), which knows nothing of sites.
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

    /// How long the server waits for clients and how many it keeps (``HTTPServer/Limits``);
    /// `maximumPolls` limits the held reload polls.
    public typealias Limits = HTTPServer.Limits

    /// Where the server listens, once it does.
    public typealias Listening = HTTPServer.Listening

    /// The configuration it was created with.
    public let configuration: Configuration
    /// The served folder with symbolic links resolved.
    public let root: String
    /// The channel that tells open pages to reload: call ``LiveReload/signal()`` after a rebuild.
    public let liveReload: LiveReload
    /// What the running server holds (open connections, held polls), for tests that wait for
    /// a state instead of sleeping.
    let gauges = ServerGauges()

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
        do {
            try HTTPServer.probeAddress(host: host, port: port)
        } catch {
            throw PreviewServerError(error)
        }
    }

    /// Serves until the task is cancelled; then it stops gracefully (held reload polls are
    /// answered at once, idle connections closed, answers under way finished) and returns.
    ///
    /// - Parameter onListening: called once the server accepts connections, with the port
    ///   actually used.
    /// - Throws: ``PreviewServerError/portInUse(host:port:)`` and the other listening errors
    ///   when the server cannot start.
    public func run(onListening: @escaping @Sendable (Listening) async -> Void = { _ in }) async throws(PreviewServerError) {
        let responder = StaticSiteResponder(
            files: SiteFileOpener(root: root), liveReload: configuration.liveReload ? liveReload : nil,
            pollTimeout: configuration.pollTimeout)
        var server = HTTPServer(host: configuration.host, port: configuration.port, limits: configuration.limits, responder: responder)
        server.gauges = gauges
        do {
            try await server.run(onListening: onListening)
        } catch {
            throw PreviewServerError(error)
        }
    }
}
