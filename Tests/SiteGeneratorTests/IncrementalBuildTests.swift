import Foundation
import Imaging
import Synchronization
import Testing
import TestSupport

@testable import SiteGenerator

/// The events of a build.
final class Events: Sendable {
    let list = Mutex<[BuildEvent]>([])
}

/// Rebuilds redo exactly what they must: the manifest in the output folder says what was made
/// from what; stale files the tool made are deleted, the user's own files never are.
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
        var after = try times(output)
        after[BuildManifest.fileName] = before[BuildManifest.fileName]
        #expect(after == before, "files were rewritten")
        #expect(try snapshot(output.path) == contents)
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
            var manifest = BuildManifest.load(outputDirectory: output.path) { Issue.record("\($0)") }
            var record = try #require(manifest.photos[key])
            #expect(record.probeVersion == ImageProbe.version)
            change(&record)
            manifest.photos[key] = record
            try output.write(BuildManifest.fileName, Array(manifest.encoded()))
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
        #expect(BuildManifest.load(outputDirectory: output.path) { _ in }.photos[key]?.probeVersion == ImageProbe.version)
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

    @Test("an unreadable manifest makes everything anew and deletes nothing")
    func brokenManifest() async throws {
        let source = try makeSource(2)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        try output.write(BuildManifest.fileName, Array("{not json".utf8))
        try output.write("a/thumbs/old-400.jpg", [1])
        let events = Events()
        let report = try await build(source, output, events: events)
        #expect(report.photosMade == 2 && report.filesRemoved == 0)
        #expect(FileManager.default.fileExists(atPath: output.path + "/a/thumbs/old-400.jpg"))
        let warnings = events.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
        #expect(warnings.count == 1 && warnings[0].contains(BuildManifest.fileName))
        // The manifest is whole again.
        let third = try await build(source, output)
        #expect(third.photosReused == 2)
    }

    @Test("the manifest never lists a path outside the output folder, and removal refuses such paths")
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
        // A caption for one photo: its page changes, and nothing else of album A.
        try source.write("A/photo 2.jpg.txt", Array("Fresh caption".utf8))
        let captioned = try await build(source, output)
        #expect(captioned.pagesWritten == 2, "the photo's page, and album A's (the caption is its tile's alt text)")
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

    /// A manifest with every field used, and text that needs escapes.
    static func fullManifest() -> BuildManifest {
        var manifest = BuildManifest()
        manifest.files = ["a/index.html", "caf\u{E9}/\u{6771} \"q\" \\ \n\t\u{1}/x.jpg", "a/thumbs/photo-0-400.jpg"]
        manifest.pages = ["a/index.html": "71873addf7f5b5f1-a04100f35fdcdce2", "caf\u{E9}/p\u{1F600}.html": "x"]
        let metadata = PhotoMetadata(dateTaken: "2024:05:06 07:08:09", description: "A \"quoted\" <caption>\n", artist: "\u{C9}mile", hasGPS: true)
        let info = ImageInfo(format: .heif, pixelWidth: 4032, pixelHeight: 3024, orientation: .right,
                             displayWidth: 3024, displayHeight: 4032, metadata: metadata)
        manifest.photos["A/photo 0.jpg"] = .init(
            size: 123_456, modificationTime: 1_795_444_435.296_730_8, contentHash: "4253810b0367cf0e", settings: "imaging=2;format=jpeg82",
            width: 3024, height: 4032, color: "#50318d",
            renditions: [.init(width: 400, height: 533, path: "a/thumbs/photo-0-400.jpg"), .init(width: 800, height: 1067, path: "a/thumbs/photo-0-800.jpg")],
            sources: [.init(type: "image/avif", settings: "imaging=2;format=avif82", paths: ["a/thumbs/photo-0-400.avif", "a/thumbs/photo-0-800.avif"]),
                      .init(type: "image/webp", settings: "imaging=2;format=webp82", paths: ["a/thumbs/photo-0-400.webp", "a/thumbs/photo-0-800.webp"])],
            info: info, probeVersion: 2)
        manifest.photos["B/no info.png"] = .init(
            size: 1, modificationTime: 0, contentHash: "0", settings: "", width: 1, height: 1, color: "#000000",
            renditions: [], info: nil)
        manifest.photos["C/bare.gif"] = .init(
            size: 2, modificationTime: -1.5e-7, contentHash: "1", settings: "s", width: 2, height: 3, color: "#ffffff",
            renditions: [.init(width: 2, height: 3, path: "c/thumbs/bare-2.jpg")],
            info: ImageInfo(format: .gif, pixelWidth: 2, pixelHeight: 3, orientation: .up, displayWidth: 2, displayHeight: 3,
                            metadata: PhotoMetadata()))
        return manifest
    }

    @Test("the manifest's JSON is what JSONEncoder writes, and each of them reads what the other wrote")
    func manifestJSON() throws {
        let manifest = Self.fullManifest()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let standard = try encoder.encode(manifest)
        let ours = manifest.encoded()
        // The same JSON: a field added to a record but not to the hand-written JSON fails here.
        let standardTree = try JSONSerialization.jsonObject(with: standard) as? NSDictionary
        let oursTree = try JSONSerialization.jsonObject(with: ours) as? NSDictionary
        #expect(standardTree != nil && standardTree == oursTree)
        #expect(try JSONDecoder().decode(BuildManifest.self, from: ours) == manifest)
        // Read back, from either text.
        for data in [ours, standard] {
            let output = try TemporaryFolder()
            try output.write(BuildManifest.fileName, Array(data))
            var warnings: [String] = []
            #expect(BuildManifest.load(outputDirectory: output.path) { warnings.append($0) } == manifest)
            #expect(warnings.isEmpty)
        }
    }

    @Test("a manifest of another version keeps only its files; a damaged one is reported and empty",
          arguments: [
            ("{\"files\":[\"a.html\",\"b\\/c.jpg\"],\"version\":1,\"photos\":{\"x\":{\"old\":true}}}", ["a.html", "b/c.jpg"], "another version"),
            ("{\"version\":2,\"files\":[\"a.html\"],\"pages\":{},\"photos\":{\"x\":{\"size\":1}}}", [], "cannot be read"),
            ("{\"version\":2,\"files\":[\"a.html\"],\"pages\":{}}", [], "cannot be read"),
            ("{\"version\":2,\"files\":[\"a.html\"],\"pages\":{},\"photos\":{}} x", [], "cannot be read"),
            ("{\"version\":\"2\",\"files\":[],\"pages\":{},\"photos\":{}}", [], "cannot be read"),
            ("{\"files\":[\"a.html\"],\"pages\":{},\"photos\":{}}", [], "cannot be read"),
            ("[1, 2]", [], "cannot be read"),
            ("{\"files\":[\"a\\u00e9\\ud83d\\ude00.html\"], \"pages\" : {\"a\":\"k\"},\"photos\":{},\"extra\":[null,1.5e3,{\"t\":false}],\"version\":2}",
             ["a\u{E9}\u{1F600}.html"], ""),
          ])
    func manifestVersions(text: String, files: [String], warning: String) throws {
        let output = try TemporaryFolder()
        try output.write(BuildManifest.fileName, Array(text.utf8))
        var warnings: [String] = []
        let manifest = BuildManifest.load(outputDirectory: output.path) { warnings.append($0) }
        #expect(manifest.files == files)
        #expect(manifest.photos.isEmpty)
        if warning.isEmpty {
            #expect(warnings.isEmpty)
            #expect(manifest.pages == ["a": "k"])
        } else {
            #expect(warnings.count == 1 && warnings[0].contains(warning), "\(warnings)")
        }
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

    @Test("a caption changed on one photo renders that photo's page and its album's page, and no other page")
    func captionRendersOnePage() async throws {
        let source = try makeSource(6)
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let pagesBefore = BuildManifest.load(outputDirectory: output.path) { Issue.record("\($0)") }.pages
        let timesBefore = try times(output)
        try await Task.sleep(for: .milliseconds(20))
        try source.write("B/photo 3.jpg.txt", Array("A new caption".utf8))
        let report = try await build(source, output)
        let pagesAfter = BuildManifest.load(outputDirectory: output.path) { Issue.record("\($0)") }.pages
        #expect(Set(pagesAfter.keys) == Set(pagesBefore.keys))
        let changedKeys = pagesAfter.keys.filter { pagesAfter[$0] != pagesBefore[$0] }.sorted()
        #expect(changedKeys == ["b/index.html", "b/photo-3.html"])
        let timesAfter = try times(output)
        let rewritten = timesAfter.keys.filter { $0.hasSuffix(".html") && timesAfter[$0] != timesBefore[$0] }.sorted()
        #expect(rewritten == ["b/index.html", "b/photo-3.html"])
        #expect(report.pagesWritten == 2)
        #expect(try output.read("b/photo-3.html").contains("A new caption"))
        // Another caption of the same length: the same two pages again.
        try source.write("B/photo 3.jpg.txt", Array("A NEW caption".utf8))
        let again = try await build(source, output)
        let pagesAgain = BuildManifest.load(outputDirectory: output.path) { Issue.record("\($0)") }.pages
        #expect(pagesAgain.keys.filter { pagesAgain[$0] != pagesAfter[$0] }.sorted() == ["b/index.html", "b/photo-3.html"])
        #expect(again.pagesWritten == 2)
    }

    @Test("content hashes are FNV-1a 64", arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func hash(text: String, expected: String) {
        #expect(contentHash(Array(text.utf8)) == expected)
    }
}
