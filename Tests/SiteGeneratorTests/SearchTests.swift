import Foundation
import Gallery
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// The search index's place in the build (``SearchStage``), with a stand-in for Pagefind: a
/// shell script that writes a bundle named by the photo pages' content and counts its runs.
/// (Tests/browser/test_search.py runs the real Pagefind.)
@Suite("Search index")
struct SearchTests {
    /// A photo folder of three photos in two albums, one with a caption.
    func makeSource() throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        for index in 0..<3 {
            var image = try Image(width: 200 + 10 * index, height: 150)
            image.fill(x: 0, y: 0, width: 200 + 10 * index, height: 150, red: UInt8(60 * index), green: 90, blue: 160)
            try source.write((index == 2 ? "B/" : "A/") + "photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at dawn")
        return source
    }

    /// A stand-in for Pagefind in `folder`: logs each run to `folder/runs`, and writes
    /// `pagefind-entry.json`, `pagefind.js` and a fragment named by the checksum of the pages
    /// that carry `data-pagefind-body`; with `failing`, says so and exits 3.
    func fakeIndexer(in folder: TemporaryFolder, failing: Bool = false) throws -> SearchIndexer {
        let script = failing ? "#!/bin/sh\necho 'boom: cannot index' >&2\nexit 3\n" : """
            #!/bin/sh
            out=""; site=""
            while [ $# -gt 0 ]; do case "$1" in --output-path) out="$2"; shift;; --site) site="$2"; shift;; esac; shift; done
            echo run >> '\(folder.path)/runs'
            mkdir -p "$out/fragment"
            sum=$(grep -rl --include='*.html' 'data-pagefind-body' "$site" | sort | xargs cat | cksum | cut -d' ' -f1)
            echo "$sum" > "$out/fragment/en_$sum.pf_fragment"
            echo 'export {}' > "$out/pagefind.js"
            echo '{"version":"test"}' > "$out/pagefind-entry.json"

            """
        try folder.write("pagefind", script)
        chmod(folder.path + "/pagefind", 0o755)
        return SearchIndexer(command: [folder.path + "/pagefind"])
    }

    func options(_ source: TemporaryFolder, _ output: TemporaryFolder, indexer: SearchIndexer?) -> SiteOptions {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  imageFormat: .jpeg(quality: 82), jobs: 2)
        options.tileWidths = [100, 200]
        options.photoWidths = [300]
        options.catalogPath = output.path + "-catalog.sqlite"
        options.search = true
        options.searchIndexer = indexer
        return options
    }

    /// Builds; returns the warnings.
    @discardableResult
    func build(_ options: SiteOptions) async throws -> [String] {
        let events = Events()
        _ = try await SiteBuilder(options: options).build { event in events.list.withLock { $0.append(event) } }
        return events.list.withLock { list in
            list.compactMap { event -> String? in if case .warning(let text) = event { text } else { nil } }
        }
    }

    func runs(_ tools: TemporaryFolder) -> Int {
        ((try? tools.read("runs")) ?? "").split(separator: "\n").count
    }

    func bundle(_ output: TemporaryFolder, _ folder: String = "pagefind") -> [String] {
        let root = output.path + "/" + folder
        return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
            FileStatus(path: root + "/" + $0)?.kind == .regular
        }.sorted()
    }

    @Test("Pagefind is found on the PATH first, else python3 with pagefind_bin; else there is none")
    func locate() throws {
        let tools = try TemporaryFolder()
        try tools.write("python3", "#!/bin/sh\nexit 0\n")  // "has the module"
        chmod(tools.path + "/python3", 0o755)
        #expect(SearchIndexer.locate(environment: ["PATH": tools.path])?.command == [tools.path + "/python3", "-m", "pagefind_bin"])
        try tools.write("pagefind", "#!/bin/sh\nexit 0\n")
        chmod(tools.path + "/pagefind", 0o755)
        #expect(SearchIndexer.locate(environment: ["PATH": tools.path])?.command == [tools.path + "/pagefind"])
        try tools.remove("pagefind")
        try tools.write("python3", "#!/bin/sh\nexit 1\n")  // "has no such module"
        #expect(SearchIndexer.locate(environment: ["PATH": tools.path]) == nil)
    }

    @Test("`search` in cascade.yml: on by default, false turns it off")
    func setting() throws {
        #expect(SiteOptions(configuration: SiteConfiguration(), sourceDirectory: "/s", outputDirectory: "/o", title: "t").search)
        let off = try SiteConfiguration.parse("search: false\n")
        #expect(!SiteOptions(configuration: off, sourceDirectory: "/s", outputDirectory: "/o", title: "t").search)
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("search: maybe\n") }
    }

    @Test("the index is made, kept while no page changes, made again when one does; its stale files go")
    func incremental() async throws {
        let (source, output, tools) = (try makeSource(), try TemporaryFolder(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let options = options(source, output, indexer: try fakeIndexer(in: tools))
        #expect(try await build(options).isEmpty)
        #expect(runs(tools) == 1)
        let first = bundle(output)
        #expect(first.count == 3 && first.contains("pagefind-entry.json") && first.contains("pagefind.js"))
        let page = try output.read("a/photo-0.html")
        #expect(page.contains("<main class=\"photo\" data-pagefind-body>"))
        #expect(page.contains("<data value=\"A\" data-pagefind-filter=\"album[value]\">"))
        #expect(page.contains("data-pagefind-meta=\"open[value]\"></data>") && page.contains("value=\"a/index.html#photo=photo-0\""))
        #expect(try output.read("index.html").contains("data-pagefind=\"pagefind/pagefind.js\""))
        #expect(try output.read("a/index.html").contains("data-pagefind=\"../pagefind/pagefind.js\""))
        #expect(!(try output.read("a/index.html")).contains("data-pagefind-body"))

        // Nothing changed: up to date, no run.
        try await build(options)
        #expect(runs(tools) == 1)
        // A photo touched: a full rebuild, but no page changed.
        let touched = source.path + "/B/photo 2.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: touched)
        try await build(options)
        #expect(runs(tools) == 1 && bundle(output) == first)
        // A caption changed: made again; the earlier fragment is gone.
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at dusk")
        try await build(options)
        #expect(runs(tools) == 2)
        let second = bundle(output)
        #expect(second.count == 3 && second != first)
        // A file of the bundle deleted: made again, though no page changed.
        try output.remove("pagefind/pagefind.js")
        try await build(options)
        #expect(runs(tools) == 3 && bundle(output) == second)
        // Search turned off: the bundle goes, the box too.
        var off = options
        off.search = false
        #expect(try await build(off).isEmpty)
        #expect(bundle(output).isEmpty && !FileManager.default.fileExists(atPath: output.path + "/pagefind"))
        #expect(!(try output.read("index.html")).contains("site-search"))
    }

    @Test("a file of the user's in pagefind/ stays; the index goes to pagefind-2/")
    func usersFolder() async throws {
        let (source, output, tools) = (try makeSource(), try TemporaryFolder(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        try output.write("pagefind/mine.txt", "mine")
        let warnings = try await build(options(source, output, indexer: try fakeIndexer(in: tools)))
        #expect(warnings == ["pagefind/mine.txt in the output folder is not Cascade's and stays as it is; the search index is published in pagefind-2/ instead"])
        #expect(try output.read("pagefind/mine.txt") == "mine" && bundle(output) == ["mine.txt"])
        #expect(bundle(output, "pagefind-2").contains("pagefind-entry.json"))
        #expect(try output.read("index.html").contains("data-pagefind=\"pagefind-2/pagefind.js\""))
    }

    @Test("with the catalog lost, the index is still known for the tool's: it stays in pagefind/, its stale files go")
    func catalogLost() async throws {
        let (source, output, tools) = (try makeSource(), try TemporaryFolder(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let settings = options(source, output, indexer: try fakeIndexer(in: tools))
        try await build(settings)
        let before = bundle(output)
        try FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite")
        try source.write("B/photo 2.jpg.txt", "A new caption")
        let warnings = try await build(settings)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/pagefind-2"))
        #expect(try output.read("index.html").contains("data-pagefind=\"pagefind/pagefind.js\""))
        // The page changed, so its fragment did: the earlier one is gone as the tool's own.
        let after = bundle(output)
        #expect(after.count == before.count && after != before, "\(before) → \(after)")
    }

    @Test("without Pagefind one warning and no box; a failing Pagefind is a warning, not a failed build")
    func missingOrFailing() async throws {
        let (source, output, tools) = (try makeSource(), try TemporaryFolder(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let warnings = try await build(options(source, output, indexer: nil))
        #expect(warnings.count == 1 && warnings[0].hasPrefix("the site has no search box: Pagefind is not installed"))
        #expect(!(try output.read("index.html")).contains("site-search") && bundle(output).isEmpty)
        let failing = try await build(options(source, output, indexer: try fakeIndexer(in: tools, failing: true)))
        #expect(failing.count == 1 && failing[0].contains("the search index was not made") && failing[0].contains("boom: cannot index"))
        #expect(try output.read("index.html").contains("site-search") && bundle(output).isEmpty)
    }
}
