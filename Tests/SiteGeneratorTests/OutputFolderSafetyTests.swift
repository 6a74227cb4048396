import Foundation
import Imaging
import Synchronization
import TestSupport
import Testing

@testable import Gallery
@testable import SiteGenerator

/// What a build may and may not do to the output folder: the user's files, other builds,
/// interrupted builds, and text that must not break out of the page.
@Suite("The output folder is the user's too")
struct OutputFolderSafetyTests {
    func options(_ source: TemporaryFolder, _ output: TemporaryFolder) -> SiteOptions {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.tileWidths = [100]
        options.photoWidths = [200]
        return options
    }

    @Test("a photo whose page would replace the user's file gets another name, with a warning; removing it keeps the file")
    func userPageIsNeverReplaced() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("about.jpg", width: 300, height: 200)
        try source.photo("other.jpg", width: 200, height: 300)
        try output.write("about.html", "<p>About me</p>")
        let events = Events()
        _ = try await SiteBuilder(options: options(source, output)).build { event in events.list.withLock { $0.append(event) } }
        #expect(try output.read("about.html") == "<p>About me</p>")
        #expect(FileManager.default.fileExists(atPath: output.path + "/about-2.html"))
        let warnings = events.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
        #expect(warnings.contains { $0.contains("about.html") && $0.contains("about-2") }, "\(warnings)")
        try FileManager.default.removeItem(atPath: source.path + "/about.jpg")
        _ = try await SiteBuilder(options: options(source, output)).build()
        #expect(try output.read("about.html") == "<p>About me</p>")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/about-2.html"))
    }

    @Test("in an album that a build already made, a user's file in the way of a photo's image or page is never replaced, and the others are untouched")
    func userFileInAlbumBuiltBefore() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("Trips/beach.jpg", width: 300, height: 200)
        try source.photo("Trips/dune.jpg", width: 200, height: 300)
        _ = try await SiteBuilder(options: options(source, output)).build()
        // Files of the user's, put in the built album's folders: one where a new photo's image
        // goes, one where another new photo's page goes, and two that are in nobody's way.
        try output.write("trips/thumbs/cliff-100.jpg", "mine")
        try output.write("trips/sea.html", "<p>mine</p>")
        try output.write("trips/notes", "mine")
        try output.write("trips/thumbs/readme.txt", "mine")
        try source.photo("Trips/cliff.jpg", width: 300, height: 200)
        try source.photo("Trips/sea.jpg", width: 300, height: 200)
        let events = Events()
        _ = try await SiteBuilder(options: options(source, output)).build { event in events.list.withLock { $0.append(event) } }
        for (file, contents) in [("trips/thumbs/cliff-100.jpg", "mine"), ("trips/sea.html", "<p>mine</p>"), ("trips/notes", "mine"),
                                 ("trips/thumbs/readme.txt", "mine")] {
            #expect(try output.read(file) == contents, "\(file)")
        }
        #expect(FileManager.default.fileExists(atPath: output.path + "/trips/cliff-2.html"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/trips/sea-2.html"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/trips/beach.html"))
        let warnings = events.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
        #expect(warnings.contains { $0.contains("trips/thumbs/cliff-100.jpg") && $0.contains("cliff-2") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("trips/sea.html") && $0.contains("sea-2") }, "\(warnings)")
    }

    @Test("a file of the site's own that is the user's (their index.html) is left as it is, with a warning")
    func userIndexStays() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("a.jpg", width: 300, height: 200)
        try output.write("index.html", "mine")
        let events = Events()
        _ = try await SiteBuilder(options: options(source, output)).build { event in events.list.withLock { $0.append(event) } }
        #expect(try output.read("index.html") == "mine")
        let warnings = events.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
        #expect(warnings.contains { $0.hasPrefix("index.html") }, "\(warnings)")
        _ = try await SiteBuilder(options: options(source, output)).build()
        #expect(try output.read("index.html") == "mine")
    }

    @Test("two builds of one output folder run one after the other; with waitForLock off the second fails at once")
    func oneBuildAtATime() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        for index in 0..<6 { try source.photo("p\(index).jpg", width: 300 + index, height: 200) }
        let first = options(source, output)
        // A lock held as a running build holds it.
        let held = try BuildLock(output: OutputSafety.realPath(output.path), wait: false) { _ in }
        var refused = first
        refused.waitForLock = false
        await #expect(throws: SiteError.self) { _ = try await SiteBuilder(options: refused).build() }
        let waited = Events()
        let started = Atomic<Bool>(false)
        let waiting = Task {
            started.store(true, ordering: .sequentiallyConsistent)
            return try await SiteBuilder(options: first).build { event in waited.list.withLock { $0.append(event) } }
        }
        func warnings() -> [String] { waited.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } } }
        // The lock is let go once the build says it waits for it. On a loaded machine the
        // build's task may start minutes after this one goes on (the other suites' builds
        // hold the cooperative threads): its start is waited for on its own, with a bound that
        // only keeps a hang from lasting; from its start the build reaches the lock with no
        // suspension point in between.
        let clock = ContinuousClock()
        let startDeadline = clock.now + .seconds(900)
        while !started.load(ordering: .sequentiallyConsistent), clock.now < startDeadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let didStart = started.load(ordering: .sequentiallyConsistent)
        #expect(didStart, "the waiting build's task never started")
        let deadline = clock.now + .seconds(120)
        while !warnings().contains(where: { $0.contains("waiting") && $0.contains("process") }), clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(warnings().contains { $0.contains("waiting") && $0.contains("process") }, "\(warnings())")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/index.html"), "the build did not wait")
        withExtendedLifetime(held) {}
        _ = consume held
        let report = try await waiting.value
        #expect(report.photos == 6)
        // Two builds started together end with the site a single build makes.
        async let a = SiteBuilder(options: first).build()
        async let b = SiteBuilder(options: first).build()
        _ = try await (a, b)
        let clean = try TemporaryFolder()
        var cleanOptions = options(source, clean)
        cleanOptions.jobs = 1
        _ = try await SiteBuilder(options: cleanOptions).build()
        #expect(try snapshot(output.path) == snapshot(clean.path))
    }

    @Test("a build refused the lock leaves the holder's lock and its note alone")
    func refusedLockLeavesTheHolderAlone() throws {
        let output = try TemporaryFolder()
        let path = OutputSafety.realPath(output.path)
        let held = try BuildLock(output: path, wait: false) { _ in }
        func refusal() -> String? {
            do {
                _ = try BuildLock(output: path, wait: false) { _ in }
                return nil
            } catch {
                guard case .busy(_, let holder) = error else { return "\(error)" }
                return holder
            }
        }
        // Each refusal names the holder by its note: a refused lock that deleted the note (or
        // closed a descriptor twice on its way out) would leave the next one "another process".
        for _ in 0..<3 {
            let holder = refusal()
            #expect(holder?.hasPrefix("process \(getpid()):") == true, "\(holder ?? "not refused")")
        }
        withExtendedLifetime(held) {}
    }

    @Test("a holder's note names the holder only when whole and alive: empty, torn, unreadable or a dead process's is no one")
    func holderNote() throws {
        let folder = try TemporaryFolder()
        let note = folder.path + "/site.holder"
        #expect(BuildLock.holder(notePath: note) == nil)  // (none yet)
        try folder.write("site.holder", "\(getpid()): cascade build photos\n")
        #expect(BuildLock.holder(notePath: note) == "\(getpid()): cascade build photos")
        // A note being written (emptied, then half there) and one that is not a note.
        for text in ["", "\n", "12", "x: cascade", "-3: cascade", "0: cascade"] {
            try folder.write("site.holder", text)
            #expect(BuildLock.holder(notePath: note) == nil, "\(text)")
        }
        // A build that was killed: its process is gone.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        try folder.write("site.holder", "\(child.processIdentifier): cascade build photos\n")
        #expect(BuildLock.holder(notePath: note) == nil)
    }

    @Test("what a killed build left in the temporary folder is removed by the next build")
    func leftoversRemoved() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("a.jpg", width: 300, height: 200)
        try output.write(SiteWriter.temporaryFolder + "/123-4", [1, 2, 3])
        _ = try await SiteBuilder(options: options(source, output)).build()
        #expect(!FileManager.default.fileExists(atPath: output.path + "/" + SiteWriter.temporaryFolder))
    }

    @Test("a Markdown link's URL cannot break out of its attribute; a NUL in a title never reaches a page")
    func escapes() async throws {
        let html = try #require(GalleryScanner.html(fromMarkdown: "[x](https://e.com/\"onmouseover=\"alert(1)) ![i](a\".png) [ok](https://e.com/?a=1&b=2)"))
        // cmark-gfm's renderer percent-encodes the quote in a URL (Ink's output was escaped to `&quot;`).
        #expect(html.contains("<a href=\"https://e.com/%22onmouseover=%22alert(1)\">x</a>"), "\(html)")
        #expect(html.contains("<img src=\"a%22.png\""), "\(html)")
        #expect(html.contains("<a href=\"https://e.com/?a=1&amp;b=2\">ok</a>"), "\(html)")
        #expect(!html.contains("\"onmouseover"))
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("a.jpg", width: 300, height: 200)
        var titled = options(source, output)
        titled.title = "Nul\u{0}here\u{1B}"
        _ = try await SiteBuilder(options: titled).build()
        for page in files(in: output.path, withExtension: "html") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output.path + "/" + page))
            #expect(!bytes.contains(0) && !bytes.contains(0x1B), "\(page)")
        }
        #expect(try output.read("index.html").contains("Nulhere"))
    }
}
