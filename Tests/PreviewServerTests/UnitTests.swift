import Foundation
import Testing

import HTTPCore

@testable import PreviewServer

@Suite struct SitePathTests {
    @Test(arguments: [
        ("/", [String](), true),
        ("/album/", ["album"], true),
        ("/album/dune.html", ["album", "dune.html"], false),
        ("/caf%C3%A9/", ["café"], true),
        ("//a///b", ["a", "b"], false),
        ("/a..b.txt", ["a..b.txt"], false),
        ("/%252e%252e", ["%2e%2e"], false),
    ])
    func plainPathsAreSplitAndDecoded(raw: String, segments: [String], isFolder: Bool) throws {
        let path = try SitePath.parse(raw)
        #expect(path.segments == segments)
        #expect(path.isFolderRequest == isFolder)
    }

    @Test(arguments: [
        ("relative", SitePath.Refusal.notAbsolute),
        ("/..", .dotSegment),
        ("/.", .dotSegment),
        ("/a/%2E%2e/b", .dotSegment),
        ("/a%2F..%2Fb", .forbiddenCharacter),
        ("/a%5Cb", .forbiddenCharacter),
        ("/a\\b", .forbiddenCharacter),
        ("/a%00b", .forbiddenCharacter),
        ("/%zz", .badEncoding),
        ("/%4", .badEncoding),
        ("/%c0%ae", .badEncoding),
    ])
    func dangerousPathsAreRefused(raw: String, refusal: SitePath.Refusal) {
        #expect(throws: refusal) { try SitePath.parse(raw) }
    }

    @Test func redirectsAreEncodedAgain() throws {
        #expect(try SitePath.parse("/caf%C3%A9").encoded == "/caf%C3%A9")
        #expect(try SitePath.parse("/a%20b/c%3Fd").encoded == "/a%20b/c%3Fd")
        #expect(try SitePath.parse("/").encoded == "/")
    }
}

@Suite struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-0", 10, ByteRange.partial(0...0)),
        (" bytes = 2 - 4 ", 10, .whole),  // spaces inside the unit are not allowed
        ("bytes=2- 4", 10, .partial(2...4)),
        ("BYTES=1-2", 10, .partial(1...2)),
        ("bytes=-1", 10, .partial(9...9)),
        ("bytes=0-", 0, .unsatisfiable),
        ("bytes=-5", 0, .unsatisfiable),
        ("bytes=-", 10, .whole),
        ("bytes=1-2-3", 10, .whole),
    ])
    func headers(header: String, size: Int, expected: ByteRange) {
        #expect(ByteRange(header: header, size: size) == expected)
    }

    @Test func noHeaderMeansTheWholeFile() {
        #expect(ByteRange(header: nil, size: 10) == .whole)
    }
}

@Suite struct LiveReloadTests {
    @Test(arguments: [
        ("<html><body><p>x</p></body></html>", "<html><body><p>x</p>TAG\n</body></html>"),
        ("<BODY>x</BODY>", "<BODY>xTAG\n</BODY>"),
        ("<p>no body</p>", "<p>no body</p>TAG\n"),
        ("<body><pre></body></pre></body>", "<body><pre></body></pre>TAG\n</body>"),
    ])
    func theScriptGoesBeforeTheLastBodyEnd(page: String, expected: String) {
        let reload = LiveReload()
        let result = String(decoding: reload.inject(into: Data(page.utf8)), as: UTF8.self)
        #expect(result == expected.replacingOccurrences(of: "TAG", with: reload.scriptTag()))
    }

    @Test func signalChangesTheVersionAndWakesWaiters() async throws {
        let reload = LiveReload()
        let first = reload.version
        async let next = reload.nextVersion(after: first, timeout: .seconds(1200))
        // The waiter is suspended before the signal, so the signal really wakes it (a wait
        // begun after the signal would return at once, and the test would pass untested).
        try await waitUntil("the waiter to be suspended") { reload.waitingCount == 1 }
        reload.signal()
        let clock = ContinuousClock()
        let start = clock.now
        let answered = await next
        #expect(answered != first)
        #expect(answered == reload.version)
        // Far below the timeout: the signal woke the waiter (the timeout would answer the new
        // version too). (Generous: the woken waiter may wait for a thread of the pool while
        // other suites' builds hold them all.)
        #expect(clock.now - start < .seconds(600))
    }

    @Test func closeAnswersWaitersAtOnce() async throws {
        let reload = LiveReload()
        let version = reload.version
        async let next = reload.nextVersion(after: version, timeout: .seconds(1200))
        // The waiter is suspended before the close, so the close really answers a waiter.
        try await waitUntil("the waiter to be suspended") { reload.waitingCount == 1 }
        reload.close()
        let clock = ContinuousClock()
        let start = clock.now
        #expect(await next == version)
        // Far below the timeout: close answered, not the timeout (generous: see above).
        #expect(clock.now - start < .seconds(600))
        #expect(await reload.nextVersion(after: version, timeout: .seconds(30)) == version)
    }

    @Test func twoRunsHaveDifferentVersions() {
        #expect(LiveReload().version != LiveReload().version)
    }
}
