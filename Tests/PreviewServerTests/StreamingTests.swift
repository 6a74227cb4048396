import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

import Support

@testable import PreviewServer

/// A page of `size` bytes (about), ending with `</body></html>`.
private func largePage(size: Int) -> String {
    let paragraph = "<p>" + String(repeating: "waterfall ", count: 100) + "</p>\n"
    return "<!doctype html>\n<html><head><title>Large</title></head><body>\n"
        + String(repeating: paragraph, count: size / paragraph.utf8.count) + "</body></html>\n"
}

/// Whether each of `sockets` has something to read, waiting up to `timeout` seconds for all.
private func waitUntilReadable(_ sockets: [Int32], timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var pending = Set(sockets)
    while !pending.isEmpty, Date() < deadline {
        var entries = pending.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&entries, nfds_t(entries.count), 100)
        for entry in entries where entry.revents & Int16(POLLIN) != 0 { pending.remove(entry.fd) }
    }
    return pending.isEmpty
}

/// Reads what `socket` has within `timeout` seconds (up to `limit` bytes).
private func readSome(_ socket: Int32, limit: Int = 4096, timeout: Double = 10) -> String {
    guard waitUntilReadable([socket], timeout: timeout) else { return "" }
    var buffer = [UInt8](repeating: 0, count: limit)
    let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
}

@Suite(.serialized) struct PreviewServerStreamingTests {
    /// 200 clients ask for a 7.9 MB page and never read it: pages are sent from the file like
    /// any other (the reload script spliced in on the way), so the server holds a chunk per
    /// connection, not copies of the page (which took 3.4 GB for 200 such clients). (1,024 of
    /// them against the real `cascade serve`: Tests/hostile/test_serve_clients.py.)
    @Test func slowReadersOfALargePageKeepMemoryBounded() async throws {
        let (folder, root) = try makeSite()
        try folder.write("site/large/index.html", largePage(size: 7_900_000))
        raiseDescriptorLimit(to: 8192)
        let clients = 200
        let baseline = residentBytes()
        let (peak, answered, first) = try await withServer(root: root) { _, client in
            let port = client.port
            return try await onThread { () throws -> (Int, Bool, String) in
                var sockets: [Int32] = []
                defer { sockets.forEach { close($0) } }
                for _ in 0..<clients {
                    let fd = try connectLoopback(port: port)
                    sockets.append(fd)
                    try sendAll(fd, "GET /large/ HTTP/1.1\r\nHost: x\r\n\r\n")
                }
                // Every connection has its answer under way (the server blocked on each).
                let answered = waitUntilReadable(sockets, timeout: 120)
                var peak = 0
                for _ in 0..<10 {
                    peak = max(peak, residentBytes())
                    usleep(50_000)  // how often to sample, once every answer is under way (waited for above)
                }
                return (peak, answered, readSome(sockets[0], limit: 512))
            }
        }
        print("\(clients) readers that do not read a 7.9 MB page: process at \(baseline >> 20) MB before, peak \(peak >> 20) MB")
        #expect(answered, "not every client got an answer")
        #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(80))")
        // Tests running beside this one share the process, so the bound is on its growth.
        #expect(peak - baseline < 300 << 20, "the process grew by \((peak - baseline) >> 20) MB")
        withExtendedLifetime(folder) {}
    }

    /// The page as served is the file with the script before its last `</body>`, whole and in
    /// byte ranges, and its length says so.
    @Test func aLargePageGetsTheScriptWhileStreamed() async throws {
        let (folder, root) = try makeSite()
        let page = largePage(size: 300_000)
        try folder.write("site/large.html", page)
        let (whole, part, version) = try await withServer(root: root) { server, client in
            (try await client.get("/large.html"), try await client.get("/large.html", headers: [.range: "bytes=-150"]),
             server.liveReload.version)
        }
        let tag = #"<script src="/.cascade/live-reload.js" data-version="\#(version)" defer></script>"# + "\n"
        let expected = Array(page.replacingOccurrences(of: "</body></html>", with: tag + "</body></html>").utf8)
        #expect(whole.status == .ok)
        #expect(whole.body == expected)
        #expect(whole.headers[.contentLength] == String(expected.count))
        #expect(part.status == .partialContent)
        // (The last 150 bytes: some of the file, the script, the file's end.)
        #expect(part.body == Array(expected.suffix(150)))
        withExtendedLifetime(folder) {}
    }

    /// The last `</body>` is found however the file's windows cut it, and as ``LiveReload``
    /// places it in a page held in memory.
    @Test(arguments: [
        "<html><body><p>x</p></body></html>", "<BODY>x</BODY>", "<p>no body</p>", "<body><pre></body></pre></body>",
        "</body>", "", "</bo", String(repeating: "a", count: 37) + "</BoDy>" + String(repeating: "b", count: 23),
    ])
    func theLastBodyEndIsFoundAcrossWindows(page: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("page.html", page)
        let raw = open(folder.path + "/page.html", O_RDONLY)
        #expect(raw >= 0)
        let file = Descriptor(owning: raw)
        let reload = LiveReload()
        let expected = String(decoding: reload.inject(into: Data(page.utf8)), as: UTF8.self)
        for window in [7, 8, 9, 13, 64, 65536] {
            let at = try #require(StaticSiteResponder.lastBodyEnd(in: file, size: page.utf8.count, window: window))
            var bytes = Array(page.utf8)
            bytes.insert(contentsOf: Array((reload.scriptTag() + "\n").utf8), at: at)
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "window \(window)")
        }
    }

    /// Past the connection limit, with every connection busy, a new one is answered 503 with
    /// `Retry-After`, and the answer arrives although its request was never read.
    @Test func pastTheLimitTheAnswerIs503WithRetryAfter() async throws {
        let (folder, root) = try makeSite()
        try folder.write("site/large/index.html", largePage(size: 4_000_000))
        let answer = try await withServer(root: root, limits: PreviewServer.Limits(maximumConnections: 8)) { _, client in
            let port = client.port
            return try await onThread { () throws -> String in
                var busy: [Int32] = []
                defer { busy.forEach { close($0) } }
                for _ in 0..<8 {
                    let fd = try connectLoopback(port: port)
                    busy.append(fd)
                    try sendAll(fd, "GET /large/ HTTP/1.1\r\nHost: x\r\n\r\n")
                }
                guard waitUntilReadable(busy, timeout: 60) else { return "the busy connections got no answer" }
                let fd = try connectLoopback(port: port)
                defer { close(fd) }
                try sendAll(fd, "GET /digits.txt HTTP/1.1\r\nHost: x\r\n\r\n")
                return String(decoding: (0..<1).flatMap { _ in readAll(fd) }, as: UTF8.self)
            }
        }
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(80))")
        #expect(answer.contains("Retry-After: 1\r\n"))
        withExtendedLifetime(folder) {}
    }

    /// Silent connections past the limit do not lock others out, and the one closed to make
    /// room is told to come back (503, `Retry-After`) rather than closed unanswered.
    @Test func aSilentConnectionClosedToMakeRoomGetsA503() async throws {
        let (folder, root) = try makeSite()
        let (answer, evicted) = try await withServer(root: root, limits: PreviewServer.Limits(maximumConnections: 4)) { _, client in
            let port = client.port
            let silent = try await onThread { try (0..<4).map { _ in try connectLoopback(port: port) } }
            defer { silent.forEach { close($0) } }
            // The server has taken all four once a request on a fifth is answered.
            let answer = try await client.get("/digits.txt")
            let evicted = try await onThread { () -> [String] in
                var entries = silent.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                _ = poll(&entries, nfds_t(entries.count), 10_000)
                return entries.filter { $0.revents != 0 }.map { readAll($0.fd) }.map { String(decoding: $0, as: UTF8.self) }
            }
            return (answer, evicted)
        }
        #expect(answer.text == "0123456789")
        #expect(!evicted.isEmpty, "no silent connection was closed to make room")
        for text in evicted {
            #expect(text.hasPrefix("HTTP/1.1 503"), "\(text.prefix(80))")
            #expect(text.contains("Retry-After: 1\r\n"))
        }
        withExtendedLifetime(folder) {}
    }

    /// RFC 9112: conflicting lengths, two hosts and (in HTTP/1.1) none are refused; the absolute
    /// form is accepted.
    @Test(arguments: [
        ("GET /digits.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab", "400"),
        ("GET /digits.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 2\r\nConnection: close\r\n\r\nab", "400"),
        ("GET /digits.txt HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n", "400"),
        ("GET /digits.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab", "200"),
        ("GET /digits.txt HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n", "400"),
        ("GET /digits.txt HTTP/1.1\r\nHost: x\r\nhost: x\r\nConnection: close\r\n\r\n", "400"),
        ("GET http://127.0.0.1:8000/digits.txt HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nConnection: close\r\n\r\n", "200"),
        ("GET HTTP://example.com/album/?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "200"),
        ("GET http://example.com HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "200"),
        ("GET http:///digits.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"),
        ("GET /digits.txt HTTP/1.1\r\nConnection: close\r\n\r\n", "400"),
        ("GET /digits.txt HTTP/1.0\r\n\r\n", "200"),
    ])
    func requestHeadsFollowRFC9112(request: String, status: String) async throws {
        let (folder, root) = try makeSite()
        let answer = try await withServer(root: root) { _, client in try await rawRequest(port: client.port, request) }
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(answer.prefix(80))")
        if request.contains("digits.txt"), status == "200" { #expect(answer.hasSuffix("0123456789")) }
        withExtendedLifetime(folder) {}
    }

    /// An album named `__cascade` (the reload script's prefix of earlier releases) is served;
    /// the script and the polls live under `/.cascade/`, which no site file can take, and the
    /// old prefix still answers where the site has nothing.
    @Test func anAlbumNamedLikeTheOldReservedPrefixIsServed() async throws {
        let (folder, root) = try makeSite()
        try folder.write("site/__cascade/index.html", "<!doctype html>\n<html><body><p>The album</p></body></html>\n")
        let (album, script, legacy, page) = try await withServer(root: root) { _, client in
            (try await client.get("/__cascade/"), try await client.get(LiveReload.scriptPath),
             try await client.get("/__cascade/live-reload.js"), try await client.get("/"))
        }
        #expect(album.status == .ok)
        #expect(album.text.contains("The album"))
        #expect(album.text.contains(LiveReload.scriptPath))
        #expect(script.status == .ok && script.text.contains(LiveReload.pollPath))
        #expect(legacy.status == .ok && legacy.text.contains(LiveReload.pollPath))
        #expect(page.text.contains(#"src="/.cascade/live-reload.js""#))
        withExtendedLifetime(folder) {}
    }
}

