import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import Testing

@testable import PreviewServer

/// The text outside the served folder that no request may ever return.
let secret = "TOP SECRET, NOT PART OF THE SITE"

/// A served folder `site/` with every kind of file, and secrets next to it:
///
/// ```
/// secret.txt, outside/secret.txt      never served
/// site/index.html, album/index.html   pages
/// site/digits.txt                     "0123456789", for ranges
/// site/secret-link.txt -> ../secret.txt, site/link-out -> ../outside, site/absolute-link -> /etc
/// site/inside-link.txt -> digits.txt  a link that stays inside: served
/// ```
func makeSite() throws -> (folder: TemporaryFolder, root: String) {
    let folder = try TemporaryFolder()
    try folder.write("secret.txt", secret)
    try folder.write("outside/secret.txt", secret)
    try folder.write("site/index.html", "<!doctype html>\n<html><head><title>Home</title></head><body><p>Home</p></body></html>\n")
    try folder.write("site/album/index.html", "<!doctype html>\n<html><body><p>Album</p></body></html>\n")
    try folder.write("site/café/index.html", "<!doctype html>\n<html><body><p>Café</p></body></html>\n")
    try folder.write("site/upper.html", "<HTML><BODY><P>Shouting</P></BODY></HTML>")
    try folder.write("site/fragment.html", "<p>no body element</p>")
    try folder.write("site/digits.txt", "0123456789")
    try folder.write("site/a..b.txt", "two dots inside a name")
    try folder.write("site/assets/cascade.css", "body { margin: 0 }\n")
    try folder.write("site/assets/viewer.js", "console.log('viewer')\n")
    try folder.write("site/frames.json", #"{"version":1}"#)
    try folder.write("site/feed.xml", "<?xml version=\"1.0\"?><feed/>")
    try folder.write("site/icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    for name in ["photo.jpg", "photo.JPEG", "photo.webp", "photo.avif", "photo.png", "data.bin"] {
        try folder.write("site/thumbs/\(name)", Data((0..<64).map { UInt8($0) }))
    }
    try folder.makeFolder("site/empty")
    try folder.link("site/secret-link.txt", to: "../secret.txt")
    try folder.link("site/link-out", to: "../outside")
    try folder.link("site/absolute-link", to: "/etc")
    try folder.link("site/inside-link.txt", to: "digits.txt")
    return (folder, folder.path + "/site")
}

struct ServerDidNotStart: Error {}

/// Runs a preview server of `root` on an ephemeral loopback port for the duration of `body`,
/// with a real HTTP client connected to it.
func withServer<Value: Sendable>(
    root: String, liveReload: Bool = true, pollTimeout: Duration = .seconds(10),
    limits: PreviewServer.Limits = PreviewServer.Limits(),
    _ body: @escaping @Sendable (PreviewServer, TestClient) async throws -> Value
) async throws -> Value {
    let server = try PreviewServer(
        configuration: .init(root: root, port: 0, liveReload: liveReload, pollTimeout: pollTimeout, limits: limits))
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task {
        defer { continuation.finish() }
        try await server.run { listening in continuation.yield(listening.port) }
    }
    guard let port = await ports.first(where: { _ in true }) else {
        try await task.value
        throw ServerDidNotStart()
    }
    do {
        let value = try await body(server, TestClient(port: port))
        task.cancel()
        try await task.value
        return value
    } catch {
        task.cancel()
        _ = try? await task.value
        throw error
    }
}

/// A client for the server on `port` (each request on a connection of its own).
func client<Value: Sendable>(port: Int, _ body: @escaping @Sendable (TestClient) async throws -> Value) async throws -> Value {
    try await body(TestClient(port: port))
}

/// A state a test waited for that did not come.
struct StateNotReached: Error, CustomStringConvertible {
    var description: String
}

/// Waits until `condition` holds, looking every 10 ms, and throws ``StateNotReached`` naming
/// `what` if it does not within `deadline`: the tests wait for a state, then assert, instead
/// of sleeping for a time and hoping the state has come. The deadline only ends a wait for a
/// state that never comes: it is far beyond any real wait, since a task (the waiter a test
/// started, this loop itself) may not run for tens of seconds while the other suites' builds
/// hold every thread of the test process's pool (two on a 2-core machine; seen: 30 s).
func waitUntil(
    _ what: @autoclosure () -> String, deadline: Duration = .seconds(600),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while try !condition() {
        guard clock.now < end else {
            throw StateNotReached(description: "\(sourceLocation): waited \(deadline) for \(what()), in vain")
        }
        try await Task.sleep(for: .milliseconds(10))  // (how often to look, not a wait for the state)
    }
}

/// Waits for the first value `body` produces, or `nil` after `timeout`.
func firstValue<Value: Sendable>(
    within timeout: Duration, _ body: @escaping @Sendable () async -> Value?
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: timeout)  // the deadline: `nil` tells the caller it passed
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

struct SocketError: Error, CustomStringConvertible {
    var description: String
}

/// Sends `request` as it is over a plain TCP connection to 127.0.0.1:`port` and returns
/// everything the server answers until it closes the connection. The socket blocks, so it
/// runs on a thread of its own, never on the tasks' threads that the server needs too.
func rawRequest(port: Int, _ request: String) async throws -> String {
    String(decoding: try await rawRequestBytes(port: port, request), as: UTF8.self)
}

/// ``rawRequest(port:_:)``'s bytes, as they came.
func rawRequestBytes(port: Int, _ request: String) async throws -> [UInt8] {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try blockingRequest(port: port, request) })
        }
    }
}

/// A blocking TCP connection to 127.0.0.1:`port` with a receive timeout.
func connectLoopback(port: Int, timeout: Int = 10) throws -> Int32 {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw SocketError(description: "socket: \(errno)") }
    var timeout = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let code = errno
        close(fd)
        throw SocketError(description: "connect: \(code)")
    }
    return fd
}

private func blockingRequest(port: Int, _ request: String) throws -> [UInt8] {
    let fd = try connectLoopback(port: port)
    defer { close(fd) }
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
        throw SocketError(description: "send: \(errno)")
    }
    return readAll(fd)
}

/// Reads until the peer closes (or the receive timeout).
func readAll(_ fd: Int32) -> [UInt8] {
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        answer += buffer[0..<count]
    }
    return answer
}
