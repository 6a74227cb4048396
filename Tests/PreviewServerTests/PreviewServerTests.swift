import Foundation
import Testing
import TestSupport

@testable import PreviewServer

/// The server over real HTTP on a loopback port.
@Suite struct PreviewServerHTTPTests {
    @Test(arguments: [
        ("/", TestClient.Status.ok),
        ("/index.html", .ok),
        ("/album/", .ok),
        ("/album/index.html", .ok),
        ("/caf%C3%A9/", .ok),
        ("/digits.txt", .ok),
        ("/a..b.txt", .ok),
        ("/inside-link.txt", .ok),
        ("//album//index.html", .ok),
        ("/album", .movedPermanently),
        ("/caf%C3%A9", .movedPermanently),
        ("/missing.jpg", .notFound),
        ("/album/missing/", .notFound),
        ("/empty/", .notFound),
        ("/digits.txt/", .notFound),
        ("/__cascade/unknown", .notFound),
        ("/.cascade/unknown", .notFound),
        ("/caf%C3", .badRequest),
    ])
    func statusCodes(path: String, status: TestClient.Status) async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in try await client.get(path) }
        #expect(response.status == status, "\(path)")
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: [
        ("/album", "/album/"),
        ("/caf%C3%A9", "/caf%C3%A9/"),
        ("/album?x=1", "/album/?x=1"),
        ("//album", "/album/"),
    ])
    func folderWithoutSlashRedirects(path: String, location: String) async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in try await client.get(path) }
        #expect(response.status == .movedPermanently)
        #expect(response.headers[.location] == location)
        withExtendedLifetime(folder) {}
    }

    @Test func folderServesItsIndex() async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in try await client.get("/album/") }
        #expect(response.text.contains("<p>Album</p>"))
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: [
        "/../secret.txt",
        "/..",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/.%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/..%2fsecret.txt",
        "/..%2Fsecret.txt",
        "/..%5csecret.txt",
        "/..%5Csecret.txt",
        "/album/../../secret.txt",
        "/album/%2e%2e/%2e%2e/secret.txt",
        "/./../secret.txt",
        "//../secret.txt",
        "/%252e%252e/secret.txt",
        "/%c0%ae%c0%ae/secret.txt",
        "/secret.txt%00.html",
        "/secret-link.txt",
        "/link-out/secret.txt",
        "/link-out/",
        "/absolute-link/passwd",
        "/absolute-link/hostname",
        "../secret.txt",
    ])
    func traversalIsRefused(path: String) async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in try await client.get(path) }
        #expect([.badRequest, .notFound].contains(response.status), "\(path) answered \(response.status)")
        #expect(!response.text.contains(secret), "\(path) leaked the secret")
        #expect(!response.text.contains("root:"), "\(path) leaked /etc")
        withExtendedLifetime(folder) {}
    }

    /// Raw backslashes, which the test client refuses to send, over a plain socket.
    @Test(arguments: ["/..\\secret.txt", "/album\\..\\..\\secret.txt", "/link-out\\secret.txt", "/..\\..\\etc\\hostname"])
    func rawBackslashesAreRefused(path: String) async throws {
        let (folder, root) = try makeSite()
        let answer = try await withServer(root: root) { _, client in
            let port = client.port
            return try await rawRequest(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        }
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path) answered \(answer.prefix(40))")
        #expect(!answer.contains(secret))
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: [
        ("/", "text/html; charset=utf-8"),
        ("/upper.html", "text/html; charset=utf-8"),
        ("/assets/cascade.css", "text/css; charset=utf-8"),
        ("/assets/viewer.js", "text/javascript; charset=utf-8"),
        ("/frames.json", "application/json"),
        ("/feed.xml", "application/xml"),
        ("/icon.svg", "image/svg+xml"),
        ("/thumbs/photo.jpg", "image/jpeg"),
        ("/thumbs/photo.JPEG", "image/jpeg"),
        ("/thumbs/photo.webp", "image/webp"),
        ("/thumbs/photo.avif", "image/avif"),
        ("/thumbs/photo.png", "image/png"),
        ("/thumbs/data.bin", "application/octet-stream"),
        ("/__cascade/live-reload.js", "text/javascript; charset=utf-8"),
        ("/.cascade/live-reload.js", "text/javascript; charset=utf-8"),
    ])
    func mediaTypes(path: String, type: String) async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in try await client.get(path) }
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == type, "\(path)")
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: ["/digits.txt", "/thumbs/photo.jpg", "/", "/album/"])
    func headHasTheHeadersOfGetAndNoBody(path: String) async throws {
        let (folder, root) = try makeSite()
        let (head, get) = try await withServer(root: root) { _, client in
            (try await client.head(path), try await client.get(path))
        }
        #expect(head.status == .ok)
        #expect(head.bodyCount == 0)
        #expect(head.headers[.contentLength] == String(get.bodyCount))
        #expect(head.headers[.contentType] == get.headers[.contentType])
        #expect(get.bodyCount > 0)
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: ["/digits.txt", "/"])
    func otherMethodsAreNotAllowed(path: String) async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in
            try await client.post(path, body: "x")
        }
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET, HEAD")
        withExtendedLifetime(folder) {}
    }

    struct RangeCase: Sendable, CustomTestStringConvertible {
        var header: String
        var status: TestClient.Status
        var body: String
        var contentRange: String?
        var testDescription: String { header }
    }

    @Test(arguments: [
        RangeCase(header: "bytes=0-3", status: .partialContent, body: "0123", contentRange: "bytes 0-3/10"),
        RangeCase(header: "bytes=5-", status: .partialContent, body: "56789", contentRange: "bytes 5-9/10"),
        RangeCase(header: "bytes=-3", status: .partialContent, body: "789", contentRange: "bytes 7-9/10"),
        RangeCase(header: "bytes=8-100", status: .partialContent, body: "89", contentRange: "bytes 8-9/10"),
        RangeCase(header: "bytes=9-9", status: .partialContent, body: "9", contentRange: "bytes 9-9/10"),
        RangeCase(header: "bytes=-20", status: .partialContent, body: "0123456789", contentRange: "bytes 0-9/10"),
        RangeCase(header: "bytes=10-", status: .rangeNotSatisfiable, body: "", contentRange: "bytes */10"),
        RangeCase(header: "bytes=10-20", status: .rangeNotSatisfiable, body: "", contentRange: "bytes */10"),
        RangeCase(header: "bytes=99999999999999999999999-", status: .rangeNotSatisfiable, body: "", contentRange: "bytes */10"),
        RangeCase(header: "bytes=-0", status: .rangeNotSatisfiable, body: "", contentRange: "bytes */10"),
        RangeCase(header: "bytes=5-2", status: .ok, body: "0123456789", contentRange: nil),
        RangeCase(header: "bytes=a-b", status: .ok, body: "0123456789", contentRange: nil),
        RangeCase(header: "items=0-1", status: .ok, body: "0123456789", contentRange: nil),
        RangeCase(header: "bytes=0-1,4-5", status: .ok, body: "0123456789", contentRange: nil),
    ])
    func ranges(_ range: RangeCase) async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in
            try await client.get("/digits.txt", headers: [.range: range.header])
        }
        #expect(response.status == range.status)
        #expect(response.text == range.body)
        #expect(response.headers[.contentRange] == range.contentRange)
        #expect(response.headers[.contentLength] == String(range.body.utf8.count))
        withExtendedLifetime(folder) {}
    }

    @Test func ifRangeAndIfNoneMatchUseTheETag() async throws {
        let (folder, root) = try makeSite()
        try await withServer(root: root) { _, client in
            let first = try await client.get("/digits.txt")
            let etag = try #require(first.headers[.eTag])
            let current = try await client.get("/digits.txt", headers: [.range: "bytes=0-1", .ifRange: etag])
            #expect(current.status == .partialContent)
            #expect(current.text == "01")
            let stale = try await client.get("/digits.txt", headers: [.range: "bytes=0-1", .ifRange: "\"old\""])
            #expect(stale.status == .ok)
            #expect(stale.text == "0123456789")
            let cached = try await client.get("/digits.txt", headers: [.ifNoneMatch: etag])
            #expect(cached.status == .notModified)
            #expect(cached.bodyCount == 0)
        }
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: ["/", "/index.html", "/album/", "/caf%C3%A9/", "/upper.html", "/fragment.html"])
    func pagesGetTheReloadScript(path: String) async throws {
        let (folder, root) = try makeSite()
        let (response, version) = try await withServer(root: root) { server, client in
            (try await client.get(path), server.liveReload.version)
        }
        let page = response.text
        let tag = #"<script src="/.cascade/live-reload.js" data-version="\#(version)" defer></script>"#
        #expect(page.contains(tag))
        #expect(response.headers[.contentLength] == String(response.bodyCount))
        #expect(response.headers[.cacheControl] == "no-store")
        if let end = page.range(of: "</body>", options: [.caseInsensitive, .backwards]) {
            #expect(page[..<end.lowerBound].contains(tag), "the script goes before </body>")
        } else {
            #expect(page.hasSuffix(tag + "\n"), "without </body> the script goes at the end")
        }
        withExtendedLifetime(folder) {}
    }

    @Test func onlyPagesGetTheScriptAndFilesOnDiskStayAsTheyAre() async throws {
        let (folder, root) = try makeSite()
        let before = try folder.data("site/index.html")
        let responses = try await withServer(root: root) { _, client in
            var responses: [String: TestClient.Response] = [:]
            for path in ["/assets/cascade.css", "/assets/viewer.js", "/frames.json", "/feed.xml", "/icon.svg", "/digits.txt", "/"] {
                responses[path] = try await client.get(path)
            }
            return responses
        }
        #expect(responses["/assets/cascade.css"]?.text == "body { margin: 0 }\n")
        #expect(responses["/frames.json"]?.text == #"{"version":1}"#)
        for (path, response) in responses where path != "/" {
            #expect(!response.text.contains(LiveReload.scriptPath), "\(path) must not get the script")
        }
        #expect(responses["/"]?.text.contains(LiveReload.scriptPath) == true)
        #expect(try folder.data("site/index.html") == before)
        withExtendedLifetime(folder) {}
    }

    @Test func aMissingPageCarriesTheReloadScriptOnlyWithLiveReload() async throws {
        let (folder, root) = try makeSite()
        let live = try await withServer(root: root) { _, client in try await client.get("/album/not-yet.html") }
        #expect(live.status == .notFound)
        #expect(live.headers[.contentType] == "text/html; charset=utf-8")
        #expect(live.text.contains(LiveReload.scriptPath))
        let plain = try await withServer(root: root, liveReload: false) { _, client in try await client.get("/album/not-yet.html") }
        #expect(plain.status == .notFound)
        #expect(!plain.text.contains(LiveReload.scriptPath))
        withExtendedLifetime(folder) {}
    }

    @Test func withoutLiveReloadPagesAreServedAsTheyAre() async throws {
        let (folder, root) = try makeSite()
        let (page, script) = try await withServer(root: root, liveReload: false) { _, client in
            (try await client.get("/"), try await client.get(LiveReload.scriptPath))
        }
        #expect(page.text == String(decoding: try folder.data("site/index.html"), as: UTF8.self))
        #expect(script.status == .notFound)
        withExtendedLifetime(folder) {}
    }

    @Test func theScriptPollsTheReloadEndpoint() async throws {
        let (folder, root) = try makeSite()
        let response = try await withServer(root: root) { _, client in try await client.get(LiveReload.scriptPath) }
        #expect(response.text.contains("/.cascade/reload?version="))
        #expect(response.text.contains("location.reload()"))
        withExtendedLifetime(folder) {}
    }

    @Test func aPollIsAnsweredWhenTheSiteIsRebuilt() async throws {
        let (folder, root) = try makeSite()
        try await withServer(root: root) { server, client in
            let old = server.liveReload.version
            // A poll with an outdated version is answered at once.
            let stale = try await client.get("/.cascade/reload?version=outdated")
            #expect(stale.text == #"{"version":"\#(old)"}"#)
            // A poll with the current version waits for the signal.
            let port = client.port
            let poll = Task {
                try await PreviewServerTests.client(port: port) { try await $0.get("/.cascade/reload?version=\(old)") }
            }
            // The poll is held before the signal, so the signal really answers a held poll.
            try await waitUntil("the poll to be held") { server.liveReload.waitingCount == 1 }
            server.liveReload.signal()
            let answer = try await poll.value
            let new = server.liveReload.version
            #expect(new != old)
            #expect(answer.text == #"{"version":"\#(new)"}"#)
        }
        withExtendedLifetime(folder) {}
    }

    @Test func aPollIsAnsweredAfterItsTimeoutWithTheSameVersion() async throws {
        let (folder, root) = try makeSite()
        try await withServer(root: root, pollTimeout: .milliseconds(200)) { server, client in
            let version = server.liveReload.version
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try await client.get("/.cascade/reload?version=\(version)")
            #expect(answer.text == #"{"version":"\#(version)"}"#)
            #expect(clock.now - start >= .milliseconds(150))
        }
        withExtendedLifetime(folder) {}
    }

    @Test func aBusyPortIsReportedWithItsNumber() async throws {
        let (folder, root) = try makeSite()
        try await withServer(root: root) { _, client in
            let port = client.port
            let second = try PreviewServer(configuration: .init(root: root, port: port))
            await #expect(throws: PreviewServerError.portInUse(host: "127.0.0.1", port: port)) {
                try await second.run()
            }
            #expect(throws: PreviewServerError.portInUse(host: "127.0.0.1", port: port)) {
                try PreviewServer.probeAddress(host: "127.0.0.1", port: port)
            }
            #expect(PreviewServerError.portInUse(host: "127.0.0.1", port: port).description.contains("127.0.0.1:\(port)"))
        }
        withExtendedLifetime(folder) {}
    }

    @Test func aMissingOrWrongRootIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("file.txt", "x")
        #expect(throws: PreviewServerError.rootNotFound(folder.path + "/missing")) {
            try PreviewServer(configuration: .init(root: folder.path + "/missing"))
        }
        #expect(throws: PreviewServerError.rootNotADirectory(folder.path + "/file.txt")) {
            try PreviewServer(configuration: .init(root: folder.path + "/file.txt"))
        }
        #expect(throws: PreviewServerError.invalidPort(70000)) {
            try PreviewServer(configuration: .init(root: folder.path, port: 70000))
        }
    }
}
