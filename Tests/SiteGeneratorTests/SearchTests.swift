import Foundation
import Gallery
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import Catalog
@testable import SiteGenerator

/// The search index's place in the build (``SearchStage``): where it goes, when it is made
/// again, what becomes of its earlier files. (Its format: SearchIndexTests.)
@Suite("Search index")
struct SearchTests {
    /// A photo folder of three photos in two albums, one with a caption, and a hidden album.
    func makeSource() throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        for index in 0..<4 {
            var image = try Image(width: 200 + 10 * index, height: 150)
            image.fill(x: 0, y: 0, width: 200 + 10 * index, height: 150, red: UInt8(60 * index), green: 90, blue: 160)
            try source.write(["A/", "A/", "B/", "C/"][index] + "photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at dawn")
        try source.write("C/photo 3.jpg.txt", "Secret cove")
        try source.write("C/index.md", "---\nhidden: true\n---\n")
        return source
    }

    func options(_ source: TemporaryFolder, _ output: TemporaryFolder) -> SiteOptions {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  imageFormat: .jpeg(quality: 82), jobs: 2)
        options.tileWidths = [100, 200]
        options.photoWidths = [300]
        options.catalogPath = output.path + "-catalog.sqlite"
        options.search = true
        return options
    }

    /// Builds; returns the warnings.
    @discardableResult
    func build(_ options: SiteOptions) async throws -> [String] {
        try await buildEvents(options).warnings
    }

    /// Builds; returns the warnings, whether the step made the index (it has a time of its own
    /// then; kept, it has none) and the step's line for `--verbose` (made whole, or updated in
    /// place; nil when the index was kept).
    func buildEvents(_ options: SiteOptions) async throws -> (warnings: [String], madeIndex: Bool, indexLine: String?) {
        let events = Events()
        _ = try await SiteBuilder(options: options).build { event in events.list.withLock { $0.append(event) } }
        return events.list.withLock { list in
            (list.compactMap { event -> String? in if case .warning(let text) = event { text } else { nil } },
             list.contains { event in if case .stage(SearchStage.name, _, _) = event { true } else { false } },
             list.lazy.compactMap { event -> String? in
                 if case .log(let text) = event, text.hasPrefix("search index: ") { text } else { nil }
             }.first)
        }
    }

    /// The files of the search folder `folder` with their modification times.
    func index(_ output: TemporaryFolder, _ folder: String = "search") -> [String: Date] {
        let root = output.path + "/" + folder
        var files: [String: Date] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? []
        where FileStatus(path: root + "/" + name)?.kind == .regular {
            files[name] = (try? FileManager.default.attributesOfItem(atPath: root + "/" + name))?[.modificationDate] as? Date
        }
        return files
    }

    /// A file of the index, decompressed and parsed.
    func json(_ output: TemporaryFolder, _ path: String) throws -> Any {
        let bytes = try #require(FileManager.default.contents(atPath: output.path + "/" + path), "\(path) is there")
        return try JSONSerialization.jsonObject(with: Data(try #require(Gzip.decompress(Array(bytes)))), options: [.fragmentsAllowed])
    }

    @Test("`search` in cascade.yml: on by default, false turns it off")
    func setting() throws {
        #expect(SiteOptions(configuration: SiteConfiguration(), sourceDirectory: "/s", outputDirectory: "/o", title: "t").search)
        let off = try SiteConfiguration.parse("search: false\n")
        #expect(!SiteOptions(configuration: off, sourceDirectory: "/s", outputDirectory: "/o", title: "t").search)
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("search: maybe\n") }
    }

    @Test("the index is written, kept while no page changes, written again when one does; its stale files go")
    func incremental() async throws {
        let (source, output) = (try makeSource(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let options = options(source, output)
        let made = try await buildEvents(options)
        #expect(made.warnings.isEmpty && made.madeIndex)
        let first = index(output)
        #expect(first.keys.contains("index.gz") && first.keys.contains("f.gz") && first.keys.contains("p/0.gz"))
        #expect(first.keys.contains("t/6672.gz") && first.keys.contains("t/6461.gz"))  // "frehel", "dawn"
        // The hidden album's photo is not in it: two albums, three photos, none in c/.
        let entry = try #require(try json(output, "search/index.gz") as? [String: Any])
        #expect(entry["photos"] as? Int == 3 && entry["albums"] as? [String] == ["A", "B"])
        let records = try #require(try json(output, "search/p/0.gz") as? [[Any]])
        #expect(records.map { $0[0] as? String } == ["a/index.html#photo=photo-0", "a/index.html#photo=photo-1", "b/index.html#photo=photo-2"])
        #expect(first.keys.allSatisfy { !$0.hasPrefix("t/7365") })  // "secret"
        #expect(try output.read("index.html").contains("data-index=\"search/index.gz\""))
        #expect(try output.read("a/index.html").contains("data-index=\"../search/index.gz\""))
        #expect(!(try output.read("a/photo-0.html")).contains("pagefind"))

        // Nothing changed: every file as it was, its time too.
        #expect(try await buildEvents(options).madeIndex == false)
        #expect(index(output) == first)
        // A photo touched: a full rebuild, but no page changed, so the index is not made again.
        let touched = source.path + "/B/photo 2.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: touched)
        #expect(try await buildEvents(options).madeIndex == false)
        #expect(index(output) == first)
        // A caption changed: made again; "dawn"'s shard is gone, "dusk"'s is there, and the files
        // whose bytes did not change kept their times.
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at dusk")
        #expect(try await buildEvents(options).madeIndex)
        let second = index(output)
        #expect(second["t/6461.gz"] == nil && second["t/6475.gz"] != nil)
        #expect(second["index.gz"] != nil && second["index.gz"] != first["index.gz"])
        #expect(second["t/6361.gz"] == first["t/6361.gz"])  // "cap": the same bytes, not written
        // A file of the index deleted, or changed by hand: made again, though no page changed.
        try output.remove("search/f.gz")
        #expect(try await buildEvents(options).madeIndex)
        #expect(index(output).keys.sorted() == second.keys.sorted())
        try output.write("search/t/6672.gz", "spoiled")
        #expect(try await buildEvents(options).madeIndex)
        #expect(try json(output, "search/t/6672.gz") is [String: Any])
        // Search turned off: the index goes, the box too.
        var off = options
        off.search = false
        #expect(try await build(off).isEmpty)
        #expect(index(output).isEmpty && !FileManager.default.fileExists(atPath: output.path + "/search"))
        #expect(!(try output.read("index.html")).contains("site-search"))
    }

    @Test("an unchanged album's photos are taken from the catalog, a changed album's made again; the catalog keeps only the site's albums")
    func keptPerAlbum() async throws {
        let (source, output) = (try makeSource(), try TemporaryFolder())
        let catalogPath = output.path + "-catalog.sqlite"
        defer { try? FileManager.default.removeItem(atPath: catalogPath) }
        let options = options(source, output)
        try await build(options)
        // Each indexed album's photos are kept under its input key (the hidden album's are not).
        let (keyA, keyB) = try {
            let catalog = try Catalog(path: catalogPath) { Issue.record("\($0)") }
            let pages = try catalog.snapshot().pages
            let (keyA, keyB) = (try #require(pages["a/frames.json"]), try #require(pages["b/frames.json"]))
            #expect(catalog.searchDocuments(album: keyA)?.map(\.document.open) == ["a/index.html#photo=photo-0", "a/index.html#photo=photo-1"])
            #expect(catalog.searchDocuments(album: keyA)?.first?.words.contains("frehel") == true)
            #expect(catalog.searchDocuments(album: try #require(pages["c/frames.json"])) == nil)
            // B's photo changed behind the build's back, to see where the next index takes it from.
            var kept = try #require(catalog.searchDocuments(album: keyB))
            #expect(kept.count == 1 && kept[0].document.filters.contains(SearchFilter(name: "album", value: "B")))
            kept[0].document.title = "Kept by the catalog"
            try catalog.saveSearchDocuments([SearchDocumentRun(album: keyB, first: 0, entries: kept)])
            return (keyA, keyB)
        }()

        // A's caption changed: A's photos are made again, B's taken from the catalog.
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at dusk")
        #expect(try await buildEvents(options).madeIndex)
        let records = try #require(try json(output, "search/p/0.gz") as? [[Any]])
        #expect(records.map { $0[4] as? String }.last == "Kept by the catalog")
        #expect(records.map { $0[5] as? Int } == [0, 0, 1])
        #expect(index(output)["t/6475.gz"] != nil)  // "dusk", made from A's new caption
        let catalog = try Catalog(path: catalogPath) { Issue.record("\($0)") }
        let newA = try #require(try catalog.snapshot().pages["a/frames.json"])
        #expect(newA != keyA && catalog.searchDocuments(album: keyA) == nil)
        #expect(catalog.searchDocuments(album: newA)?.first?.words.contains("dusk") == true)
        #expect(catalog.searchDocuments(album: keyB)?.first?.document.title == "Kept by the catalog")
    }

    /// The bytes of every file of the search folder of `output`.
    func indexBytes(_ output: TemporaryFolder) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in index(output).keys { files[name] = FileManager.default.contents(atPath: output.path + "/search/" + name) }
        return files
    }

    /// A photo of `width` × 20 pixels in a colour of `shade`.
    func smallPhoto(width: Int, shade: Int) throws -> [UInt8] {
        var image = try Image(width: width, height: 20)
        image.fill(x: 0, y: 0, width: width, height: 20, red: UInt8(shade % 256), green: 90, blue: 160)
        return try image.encoded(as: .jpeg(quality: 85))
    }

    @Test("a photo edited with its words as they were: only the record chunks of its album and the entry file are made again, as a clean build makes them")
    func updatedInPlace() async throws {
        // 40 photos in A and 30 in B: ids 0-39 and 40-69, record chunks 0-31, 32-63 and 64-69.
        let source = try TemporaryFolder()
        for index in 0..<70 {
            try source.write((index < 40 ? "A" : "B") + "/photo \(index).jpg", try smallPhoto(width: 30, shade: index))
        }
        let output = try TemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let settings = options(source, output)
        #expect(try await buildEvents(settings).indexLine == "search index: made whole")
        let first = index(output)
        #expect(first.keys.filter { $0.hasPrefix("p/") }.sorted() == ["p/0.gz", "p/1.gz", "p/2.gz"])

        // A's photo 10 edited: wider, so its tile's size changes, its words do not. (The chunk of
        // ids 32-63 is made again with B's photos.)
        try source.write("A/photo 10.jpg", try smallPhoto(width: 44, shade: 7))
        #expect(try await buildEvents(settings).indexLine == "search index: updated in place, 3 of \(first.count) files made again")
        let updated = index(output)
        #expect(updated.keys.sorted() == first.keys.sorted())
        #expect(updated["p/2.gz"] == first["p/2.gz"] && updated["f.gz"] == first["f.gz"])
        #expect(updated.filter { $0.key.hasPrefix("t/") } == first.filter { $0.key.hasPrefix("t/") })
        #expect(updated["p/0.gz"] != first["p/0.gz"] && updated["index.gz"] != first["index.gz"])
        let records = try #require(try json(output, "search/p/0.gz") as? [[Any]])
        let edited = try #require(records.first { $0[0] as? String == "a/index.html#photo=photo-10" })
        #expect(edited[2] as? Int == 44)
        // Byte for byte the index of a clean build of the same folder.
        let clean = try TemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: clean.path + "-catalog.sqlite") }
        #expect(try await buildEvents(options(source, clean)).indexLine == "search index: made whole")
        #expect(indexBytes(output) == indexBytes(clean))

        // A photo renamed: its words changed, so the index is made whole.
        try FileManager.default.moveItem(atPath: source.path + "/A/photo 3.jpg", toPath: source.path + "/A/renamed 3.jpg")
        #expect(try await buildEvents(settings).indexLine == "search index: made whole")
        // Without the albums the catalog records once every file of the index is written (as
        // after a build stopped while it wrote them), an edit makes it whole too.
        try Catalog(path: settings.catalogPath!) { Issue.record("\($0)") }.recordSearchIndexAlbums(nil)
        try source.write("B/photo 50.jpg", try smallPhoto(width: 30, shade: 9))
        #expect(try await buildEvents(settings).indexLine == "search index: made whole")
        try source.write("B/photo 50.jpg", try smallPhoto(width: 50, shade: 9))
        #expect(try await buildEvents(settings).indexLine?.hasPrefix("search index: updated in place") == true)
        let again = try TemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: again.path + "-catalog.sqlite") }
        _ = try await buildEvents(options(source, again))
        #expect(indexBytes(output) == indexBytes(again))
    }

    @Test("an album's documents kept in runs read back whole and in order; a run from its first photo replaces them; a part is not taken")
    func keptInRuns() throws {
        let folder = try TemporaryFolder()
        let catalog = try Catalog(path: folder.path + "/catalog.sqlite") { Issue.record("\($0)") }
        func entry(_ title: String, _ filters: [SearchFilter] = []) -> SearchDocumentRun.Entry {
            (SearchDocument(open: "a/index.html#photo=" + title, image: "a/\(title).jpg", width: 4, height: 3, title: title,
                            album: 0, date: "", texts: [], filters: filters), [title.lowercased(), "shared"])
        }
        let year = SearchFilter(name: "year", value: "2021")
        try catalog.saveSearchDocuments([SearchDocumentRun(album: "album-1", first: 0, entries: [entry("One", [year]), entry("Two")])])
        try catalog.saveSearchDocuments([SearchDocumentRun(album: "album-1", first: 2, entries: [entry("Three", [year, SearchFilter(name: "person", value: "Maëlle")])])])
        let read = try #require(catalog.searchDocuments(album: "album-1"))
        #expect(read.map(\.document.title) == ["One", "Two", "Three"])
        #expect(read.map(\.words) == [["one", "shared"], ["two", "shared"], ["three", "shared"]])
        #expect(read[2].document.filters == [year, SearchFilter(name: "person", value: "Maëlle")] && read[1].document.filters.isEmpty)
        #expect(read[0].document == entry("One", [year]).document)
        // A run from the first photo replaces what was kept.
        try catalog.saveSearchDocuments([SearchDocumentRun(album: "album-1", first: 0, entries: [entry("Only")])])
        #expect(catalog.searchDocuments(album: "album-1")?.map(\.document.title) == ["Only"])
        // Runs without the first photo (a build stopped between runs, the first forgotten since): none taken.
        try catalog.forgetSearchDocuments(keeping: [])
        try catalog.saveSearchDocuments([SearchDocumentRun(album: "album-1", first: 1, entries: [entry("Late")])])
        #expect(catalog.searchDocuments(album: "album-1") == nil)
        #expect(catalog.searchDocuments(album: "album-2") == nil)
    }

    @Test("a file of the user's in search/ stays; the index goes to search-2/")
    func usersFolder() async throws {
        let (source, output) = (try makeSource(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        try output.write("search/mine.txt", "mine")
        let warnings = try await build(options(source, output))
        #expect(warnings == ["search/mine.txt in the output folder is not Cascade's and stays as it is; the search index is published in search-2/ instead"])
        #expect(try output.read("search/mine.txt") == "mine" && Array(index(output).keys) == ["mine.txt"])
        #expect(index(output, "search-2")["index.gz"] != nil)
        #expect(try output.read("index.html").contains("data-index=\"search-2/index.gz\""))
    }

    @Test("with the catalog lost, the index is still known for the tool's: it stays in search/, its stale files go")
    func catalogLost() async throws {
        let (source, output) = (try makeSource(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let settings = options(source, output)
        try await build(settings)
        #expect(index(output)["t/6461.gz"] != nil)
        try FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite")
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at dusk")
        let warnings = try await build(settings)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/search-2"))
        #expect(try output.read("index.html").contains("data-index=\"search/index.gz\""))
        // "dawn" is gone from the captions, so its shard is gone as the tool's own.
        #expect(index(output)["t/6461.gz"] == nil && index(output)["t/6475.gz"] != nil)
    }

    @Test("a site built with Pagefind: its pagefind/ folder, listed as the tool's, goes")
    func pagefindFolderGoes() async throws {
        let (source, output) = (try makeSource(), try TemporaryFolder())
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        let settings = options(source, output)
        try await build(settings)
        // As the earlier build left it: Pagefind's files, listed in the catalog before they were moved in.
        do {
            let catalog = try Catalog(path: settings.catalogPath!) { Issue.record("\($0)") }
            try catalog.prepare(addingFiles: ["pagefind/pagefind.js", "pagefind/pagefind-entry.json"], forgettingPhotos: [String]())
        }
        try output.write("pagefind/pagefind.js", "export {}")
        try output.write("pagefind/pagefind-entry.json", "{}")
        try source.write("A/photo 0.jpg.txt", "Cap Fréhel at noon")
        try await build(settings)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/pagefind"))
        #expect(index(output)["index.gz"] != nil)
    }
}
