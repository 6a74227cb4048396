import Foundation
import Imaging
import Synchronization
import Testing
import TestSupport

@testable import Catalog
@testable import SiteGenerator

/// The events of a build.
final class Events: Sendable {
    let list = Mutex<[BuildEvent]>([])

    /// The texts of the log lines (`-v`'s) that start with `prefix`, in order.
    func logs(startingWith prefix: String) -> [String] {
        list.withLock { list in
            list.compactMap { event in
                if case .log(let text) = event, text.hasPrefix(prefix) { return text }
                return nil
            }
        }
    }
}

/// Rebuilds redo exactly what they must: the catalog says what was made from what; stale files
/// the tool made are deleted, the user's own files never are.
@Suite("Incremental builds")
struct IncrementalBuildTests {
    /// A source with two albums and `count` photos, each a different colour.
    func makeSource(_ count: Int = 4) throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        for index in 0..<count {
            var image = try Image(width: 500 + 10 * index, height: 400)
            image.fill(x: 0, y: 0, width: 500 + 10 * index, height: 400, red: UInt8(40 * index), green: 90, blue: 160)
            try source.write((index % 2 == 0 ? "A/" : "B/") + "photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        return source
    }

    func build(_ source: TemporaryFolder, _ output: TemporaryFolder, quality: Int = 82, tileWidths: [Int] = [400, 800, 1600], photoWidths: [Int] = [800, 1600, 2400],
               events: Events? = nil) async throws -> BuildReport {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  imageFormat: .jpeg(quality: quality), jobs: 2)
        options.photoWidths = photoWidths
        options.tileWidths = tileWidths
        return try await SiteBuilder(options: options).build { event in events?.list.withLock { $0.append(event) } }
    }

    /// The catalog of `output`, where builds keep it by default.
    func catalog(_ output: TemporaryFolder) throws -> Catalog {
        try Catalog(path: Catalog.defaultPath(output: OutputSafety.realPath(output.path))) { Issue.record("\($0)") }
    }

    /// Every file of the site with its modification time.
    func times(_ output: TemporaryFolder) throws -> [String: Date] {
        var result: [String: Date] = [:]
        let enumerator = FileManager.default.enumerator(atPath: output.path)!
        while let path = enumerator.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: output.path + "/" + path)
            if attributes[.type] as? FileAttributeType == .typeRegular { result[path] = attributes[.modificationDate] as? Date }
        }
        return result
    }

    @Test("a rebuild with nothing changed reuses every image and rewrites no file")
    func noOpRebuild() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        let first = try await build(source, output)
        #expect(first.photosMade == 4 && first.photosReused == 0)
        let before = try times(output)
        let contents = try snapshot(output.path)
        try await Task.sleep(for: .milliseconds(20))
        let second = try await build(source, output)
        #expect(second.photosMade == 0 && second.photosReused == 4)
        #expect(second.imagesWritten == 0 && second.pagesWritten == 0 && second.filesRemoved == 0)
        #expect(second.pages == first.pages)
        let catalogPath = try catalog(output).path
        let catalogTime = try FileManager.default.attributesOfItem(atPath: catalogPath)[.modificationDate] as? Date
        let after = try times(output)
        #expect(after == before, "files were rewritten")
        #expect(try snapshot(output.path) == contents)
        // Nothing is written to the catalog either, and the output folder holds only the site.
        _ = try await build(source, output)
        #expect(try FileManager.default.attributesOfItem(atPath: catalogPath)[.modificationDate] as? Date == catalogTime)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/" + BuildManifest.legacyFileName))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/" + SiteWriter.temporaryFolder))
    }

    @Test("an edited photo is made again, a touched one is not; the rest are reused")
    func editAndTouch() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        // Edited: new pixels.
        var image = try Image(width: 520, height: 300)
        image.fill(x: 0, y: 0, width: 520, height: 300, red: 250, green: 10, blue: 10)
        try source.write("A/photo 2.jpg", try image.encoded(as: .jpeg(quality: 85)))
        // Touched: same bytes, new time.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)],
                                              ofItemAtPath: source.path + "/B/photo 1.jpg")
        let report = try await build(source, output)
        #expect(report.photosMade == 1 && report.photosReused == 3)
        #expect(report.imagesWritten == 2, "the edited photo's two images")  // 400 and its own 520
        let frames = try FrameData(folder: output.url.appendingPathComponent("a"))
        let edited = try #require(frames.items.first { $0.id == "photo-2" })
        #expect(edited.height == 300 && edited.color.hasPrefix("#f"))
    }

    @Test("a renamed photo's images are moved, not made again; the old names are removed")
    func rename() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        #expect(FileManager.default.fileExists(atPath: output.path + "/a/thumbs/photo-0-400.jpg"))
        try FileManager.default.moveItem(atPath: source.path + "/A/photo 0.jpg", toPath: source.path + "/B/renamed.jpg")
        let events = Events()
        let report = try await build(source, output, events: events)
        #expect(report.photosMade == 0 && report.photosReused == 4)
        #expect(FileManager.default.fileExists(atPath: output.path + "/b/thumbs/renamed-400.jpg"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/a/thumbs/photo-0-400.jpg"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/a/photo-0.html"))
        let removed = events.list.withLock { $0.compactMap { if case .removed(let path) = $0 { path } else { nil } } }
        #expect(removed.sorted() == ["a/photo-0.html", "a/thumbs/photo-0-400.jpg", "a/thumbs/photo-0-500.jpg"])
        #expect(report.filesRemoved == 3)
    }

    @Test("a deleted photo's files go; the user's own files in the output folder stay")
    func deleteKeepsUserFiles() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        try output.write("CNAME", Array("photos.example.org".utf8))
        try output.write("a/thumbs/mine.jpg", [1, 2, 3])
        try output.write("extra/notes.txt", Array("mine".utf8))
        try FileManager.default.removeItem(atPath: source.path + "/B/photo 1.jpg")
        try FileManager.default.removeItem(atPath: source.path + "/B/photo 3.jpg")
        let report = try await build(source, output)
        #expect(report.photos == 2)
        // Album B is gone with its photos, its frame data and its folder; the user's files stay.
        #expect(!FileManager.default.fileExists(atPath: output.path + "/b"))
        for mine in ["CNAME", "a/thumbs/mine.jpg", "extra/notes.txt"] {
            #expect(FileManager.default.fileExists(atPath: output.path + "/" + mine), "\(mine) was deleted")
        }
        #expect(report.filesRemoved > 6)
    }

    @Test("a photo's header is not read again while it is unchanged, unless an older reader read it")
    func headerKeptUntilTheReaderChanges() async throws {
        let source = try makeSource(1)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let key = "A/photo 0.jpg"
        func rewriteManifest(_ change: (inout BuildManifest.PhotoRecord) -> Void) throws {
            let catalog = try catalog(output)
            let old = try catalog.snapshot()
            var manifest = old
            var record = try #require(manifest.photos[key])
            #expect(record.probeVersion == ImageProbe.version)
            change(&record)
            manifest.photos[key] = record
            try catalog.save(manifest, replacing: old)
        }
        // What the manifest says the header holds is used as it is: the file is not read.
        try rewriteManifest { $0.info?.metadata.description = "Kept from the manifest" }
        _ = try await build(source, output)
        #expect(try output.read("a/photo-0.html").contains("Kept from the manifest"))
        // Read by an older reader: the header is read again (the photo has no description).
        try rewriteManifest {
            $0.info?.metadata.description = "Kept from the manifest"
            $0.probeVersion = ImageProbe.version - 1
        }
        _ = try await build(source, output)
        #expect(!(try output.read("a/photo-0.html")).contains("Kept from the manifest"))
        #expect(try catalog(output).snapshot().photos[key]?.probeVersion == ImageProbe.version)
    }

    @Test("a changed setting makes every image again and removes widths no longer made")
    func settingsChange() async throws {
        let source = try makeSource(2)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let quality = try await build(source, output, quality: 60)
        #expect(quality.photosMade == 2 && quality.photosReused == 0)
        // Widths 200 and 300 only: the 400 px images and the photos' own widths (500, 510) go.
        let widths = try await build(source, output, quality: 60, tileWidths: [200], photoWidths: [300])
        #expect(widths.photosMade == 2)
        #expect(FileManager.default.fileExists(atPath: output.path + "/a/thumbs/photo-0-300.jpg"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/a/thumbs/photo-0-500.jpg"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/a/thumbs/photo-0-400.jpg"))
        #expect(widths.filesRemoved == 4)
    }

    @Test("a damaged catalog is set aside: everything is made anew under the same names, nothing is deleted")
    func brokenCatalog() async throws {
        let source = try makeSource(2)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let path = try catalog(output).path
        try Data("not a database, not at all".utf8).write(to: URL(fileURLWithPath: path))
        try output.write("a/thumbs/old-400.jpg", [1])
        let before = Set(try snapshot(output.path).keys)
        let events = Events()
        let report = try await build(source, output, events: events)
        #expect(report.photosMade == 2 && report.filesRemoved == 0)
        #expect(FileManager.default.fileExists(atPath: output.path + "/a/thumbs/old-400.jpg"))
        // The earlier build's files are recognised as the tool's: no photo changes its name.
        #expect(Set(try snapshot(output.path).keys) == before)
        let warnings = events.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
        #expect(warnings.count == 1 && warnings[0].contains(path), "\(warnings)")
        #expect(FileManager.default.fileExists(atPath: path + ".damaged"))
        // The catalog is whole again.
        let third = try await build(source, output)
        #expect(third.photosReused == 2)
    }

    @Test("a site built by a release with a JSON manifest keeps every image, and the manifest goes")
    func upgradeFromManifest() async throws {
        let source = try makeSource(3)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        // What the last release left: its manifest in the output folder, no catalog.
        let catalog = try catalog(output)
        var manifest = try catalog.snapshot()
        try FileManager.default.removeItem(atPath: catalog.path)
        for key in manifest.photos.keys {
            manifest.photos[key]!.changeTime = nil
            manifest.photos[key]!.inode = nil
        }
        manifest.files.append("a/thumbs/gone-400.jpg")
        try output.write("a/thumbs/gone-400.jpg", [1])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try output.write(BuildManifest.legacyFileName, Array(try encoder.encode(manifest)))
        let before = try times(output)
        let report = try await build(source, output)
        #expect(report.photosReused == 3 && report.photosMade == 0 && report.imagesWritten == 0)
        #expect(report.filesRemoved == 2, "the stale image it listed, and the manifest itself")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/" + BuildManifest.legacyFileName))
        var after = try times(output)
        after["a/thumbs/gone-400.jpg"] = before["a/thumbs/gone-400.jpg"]
        after[BuildManifest.legacyFileName] = before[BuildManifest.legacyFileName]
        #expect(after == before, "files were rewritten")
        let again = try await build(source, output)
        #expect(again.photosReused == 3 && again.imagesWritten == 0 && again.pagesWritten == 0)
    }

    @Test("removal refuses paths outside the output folder")
    func removalStaysInside() throws {
        let output = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try outside.write("keep.txt", [1])
        let writer = SiteWriter(root: output.path)
        let escape = "../" + outside.url.lastPathComponent + "/keep.txt"
        #expect(!writer.removeMadeFile(escape))
        #expect(!writer.removeMadeFile(outside.path + "/keep.txt"))
        #expect(FileManager.default.fileExists(atPath: outside.path + "/keep.txt"))
    }

    @Test("a page is rendered again exactly when what it shows changed: a caption, a neighbour, the theme")
    func pagesFollowTheirInputs() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        // A caption for one photo: its page changes, its neighbour's (whose link to it is titled
        // by the caption's first line), and nothing else of album A.
        try source.write("A/photo 2.jpg.txt", Array("Fresh caption".utf8))
        let captioned = try await build(source, output)
        #expect(captioned.pagesWritten == 3, "the photo's page, its neighbour's, and album A's (the caption is its tile's alt text)")
        #expect(try output.read("a/photo-2.html").contains("Fresh caption"))
        // A photo removed from B: B's page and the remaining photo's page (its neighbours changed).
        try FileManager.default.removeItem(atPath: source.path + "/B/photo 3.jpg")
        let removed = try await build(source, output)
        #expect(removed.pagesWritten == 3, "the root (counts), album B and photo-1 (no next photo any more)")
        #expect(!(try output.read("b/photo-1.html")).contains("rel=\"next\""))
        // Another theme: every page is made again.
        let theme = try TemporaryFolder()
        try theme.write("partials/footer.mustache", Array("<footer>Mine</footer>".utf8))
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.templatesDirectory = theme.path
        let themed = try await SiteBuilder(options: options).build()
        #expect(themed.pagesWritten == themed.pages)
        #expect(try output.read("a/photo-0.html").contains("<footer>Mine</footer>"))
    }

    @Test("a page's fingerprint tells apart values that a joined text would not")
    func fingerprints() {
        func hex(_ value: Any) -> String {
            var hasher = FingerprintHasher()
            hasher.combine(context: value)
            return hasher.hex
        }
        let distinct: [Any] = [
            ["a": "bc"] as [String: Any], ["ab": "c"] as [String: Any], ["a": ["b", "c"]] as [String: Any],
            ["a": ["bc"]] as [String: Any], ["a": "1"] as [String: Any], ["a": 1] as [String: Any], ["a": 1.0] as [String: Any],
            ["a": true] as [String: Any], ["a": "true"] as [String: Any], ["a": [String: Any]()] as [String: Any],
            ["a": [Any]()] as [String: Any], ["a": ""] as [String: Any], [String: Any](),
            ["a": "x"] as [String: Any], ["a": "y"] as [String: Any], ["b": "x"] as [String: Any],
        ]
        #expect(Set(distinct.map(hex)).count == distinct.count)
        // Key order does not matter; 16 hex digits.
        #expect(hex(["x": 1, "y": "z"] as [String: Any]) == hex(["y": "z", "x": 1] as [String: Any]))
        #expect(hex([String: Any]()).count == 16)
    }

    @Test("a caption changed on one photo renders that photo's page, its neighbours' (their links carry its title) and its album's page, and no other page")
    func captionRendersOnePage() async throws {
        let source = try makeSource(6)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let pagesBefore = try catalog(output).snapshot().pages
        let timesBefore = try times(output)
        try await Task.sleep(for: .milliseconds(20))
        try source.write("B/photo 3.jpg.txt", Array("A new caption".utf8))
        let report = try await build(source, output)
        let pagesAfter = try catalog(output).snapshot().pages
        #expect(Set(pagesAfter.keys) == Set(pagesBefore.keys))
        // The album's input key (recorded for its frames.json) changed, and four page keys: the
        // album's, the photo's and its two neighbours' (their previous/next links are titled by
        // the caption's first line).
        let changedKeys = pagesAfter.keys.filter { pagesAfter[$0] != pagesBefore[$0] }.sorted()
        #expect(changedKeys == ["b/frames.json", "b/index.html", "b/photo-1.html", "b/photo-3.html", "b/photo-5.html"])
        let timesAfter = try times(output)
        let rewritten = timesAfter.keys.filter { $0.hasSuffix(".html") && timesAfter[$0] != timesBefore[$0] }.sorted()
        #expect(rewritten == ["b/index.html", "b/photo-1.html", "b/photo-3.html", "b/photo-5.html"])
        #expect(report.pagesWritten == 4)
        #expect(try output.read("b/photo-3.html").contains("A new caption"))
        // Another caption of the same length: the same pages again.
        try source.write("B/photo 3.jpg.txt", Array("A NEW caption".utf8))
        let again = try await build(source, output)
        let pagesAgain = try catalog(output).snapshot().pages
        #expect(pagesAgain.keys.filter { pagesAgain[$0] != pagesAfter[$0] }.sorted()
                == ["b/frames.json", "b/index.html", "b/photo-1.html", "b/photo-3.html", "b/photo-5.html"])
        #expect(again.pagesWritten == 4)
    }

    @Test("content hashes are FNV-1a 64", arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func hash(text: String, expected: String) {
        #expect(contentHash(Array(text.utf8)) == expected)
    }
}
