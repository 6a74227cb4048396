import Imaging
import Testing

@testable import Catalog
@testable import SiteGenerator

/// The reuse decision, a pure function of the catalog's records, the content hash, the wanted
/// paths and settings, and which files exist.
@Suite("Reuse decisions")
struct ReusePlannerTests {
    /// The settings of images at widths 100 and 200 in `format`.
    static func key(_ format: EncodeFormat) -> ImageSettingsKey {
        ImageSettingsKey(widths: [100, 200], format: format, keepGPS: false)
    }

    /// A record of images at widths 100 and 200 in JPEG (and WebP when `webp`) under `slug`.
    static func record(hash: String, slug: String, quality: Int = 80, webp: Bool = false) -> BuildManifest.PhotoRecord {
        BuildManifest.PhotoRecord(
            size: 1, modificationTime: 0, contentHash: hash, settings: key(.jpeg(quality: quality)).stored, width: 200, height: 100, color: "#000000",
            renditions: [.init(width: 100, height: 50, path: "a/thumbs/\(slug)-100.jpg"), .init(width: 200, height: 100, path: "a/thumbs/\(slug)-200.jpg")],
            sources: webp ? [.init(type: "image/webp", settings: key(.webp(quality: quality)).stored, paths: ["a/thumbs/\(slug)-100.webp", "a/thumbs/\(slug)-200.webp"])] : nil)
    }

    static func wanted(_ slug: String, webp: Bool = false) -> [[String]] {
        [["a/thumbs/\(slug)-100.jpg", "a/thumbs/\(slug)-200.jpg"]] + (webp ? [["a/thumbs/\(slug)-100.webp", "a/thumbs/\(slug)-200.webp"]] : [])
    }

    func planner(_ records: PhotoRecords, webp: Bool = false, missing: Set<String> = []) -> ReusePlanner {
        ReusePlanner(previous: records, settings: [Self.key(.jpeg(quality: 80))] + (webp ? [Self.key(.webp(quality: 80))] : []), exists: { !missing.contains($0) })
    }

    @Test("the same content at the same path and paths is kept")
    func keep() {
        let planner = planner(["A/x.jpg": Self.record(hash: "h1", slug: "x")])
        #expect(planner.decide(path: "A/x.jpg", hash: "h1", widths: [100, 200], wanted: Self.wanted("x")) == .keep(formats: [0]))
    }

    @Test("new content at a path is made; a missing image makes it too")
    func make() {
        let planner = planner(["A/x.jpg": Self.record(hash: "h1", slug: "x")], missing: ["a/thumbs/y-200.jpg"])
        #expect(planner.decide(path: "A/x.jpg", hash: "h2", widths: [100, 200], wanted: Self.wanted("x")) == .make)
        let gone = self.planner(["A/x.jpg": Self.record(hash: "h1", slug: "x")], missing: ["a/thumbs/x-200.jpg"])
        #expect(gone.decide(path: "A/x.jpg", hash: "h1", widths: [100, 200], wanted: Self.wanted("x")) == .make)
    }

    @Test("swapped names move each other's images; a rename moves them; other widths or settings make them")
    func moves() {
        let records: PhotoRecords = ["A/x.jpg": Self.record(hash: "hx", slug: "x"), "A/y.jpg": Self.record(hash: "hy", slug: "y")]
        let planner = planner(records)
        #expect(planner.decide(path: "A/x.jpg", hash: "hy", widths: [100, 200], wanted: Self.wanted("x")) == .move(from: "A/y.jpg"))
        #expect(planner.decide(path: "A/y.jpg", hash: "hx", widths: [100, 200], wanted: Self.wanted("y")) == .move(from: "A/x.jpg"))
        #expect(planner.decide(path: "B/z.jpg", hash: "hx", widths: [100, 200], wanted: Self.wanted("z")) == .move(from: "A/x.jpg"))
        #expect(planner.decide(path: "B/z.jpg", hash: "hx", widths: [100], wanted: [["a/thumbs/z-100.jpg"]]) == .make)
        let requality = ReusePlanner(previous: records, settings: [Self.key(.jpeg(quality: 70))], exists: { _ in true })
        #expect(requality.decide(path: "B/z.jpg", hash: "hx", widths: [100, 200], wanted: Self.wanted("z")) == .make)
        #expect(planner.sources(of: records["A/x.jpg"]!) == [["a/thumbs/x-100.jpg", "a/thumbs/x-200.jpg"]])
    }

    @Test("a format added keeps the other format's images; the same content under a changed slug is moved")
    func formats() {
        let planner = planner(["A/x.jpg": Self.record(hash: "h1", slug: "x")], webp: true)
        #expect(planner.decide(path: "A/x.jpg", hash: "h1", widths: [100, 200], wanted: Self.wanted("x", webp: true)) == .keep(formats: [0]))
        let both = self.planner(["A/x.jpg": Self.record(hash: "h1", slug: "x", webp: true)], webp: true)
        #expect(both.decide(path: "A/x.jpg", hash: "h1", widths: [100, 200], wanted: Self.wanted("x", webp: true)) == .keep(formats: [0, 1]))
        #expect(both.decide(path: "A/x.jpg", hash: "h1", widths: [100, 200], wanted: Self.wanted("x-2", webp: true)) == .move(from: "A/x.jpg"))
    }

    @Test("of two earlier photos with the same content, the first path in order is the one moved from")
    func duplicates() {
        let planner = planner(["B/b.jpg": Self.record(hash: "h", slug: "b"), "A/a.jpg": Self.record(hash: "h", slug: "a")])
        #expect(planner.decide(path: "C/c.jpg", hash: "h", widths: [100, 200], wanted: Self.wanted("c")) == .move(from: "A/a.jpg"))
    }

    @Test("of many earlier photos, each move comes from the least path with the content")
    func manyLookups() {
        // 40 hashes asked about, each held by up to three paths, and some by none.
        var records = PhotoRecords()
        var holders: [String: [String]] = [:]
        var random = SystemRandomNumberGenerator()
        for number in 0..<120 {
            let hash = "h\(Int.random(in: 0..<50, using: &random))"
            let path = "\(["B", "A", "C"].randomElement(using: &random)!)/p\(number).jpg"
            records[path] = Self.record(hash: hash, slug: "p\(number)")
            holders[hash, default: []].append(path)
        }
        let planner = planner(records)
        for hash in (0..<40).map({ "h\($0)" }).shuffled(using: &random) {
            let expected: ImageDecision = holders[hash].map { .move(from: $0.min()!) } ?? .make
            #expect(planner.decide(path: "D/new.jpg", hash: hash, widths: [100, 200], wanted: Self.wanted("new")) == expected, "\(hash)")
        }
    }

    @Test("a record's files by settings, asked one settings at a time, are those of the whole dictionary")
    func filesBySettings() {
        var record = Self.record(hash: "h", slug: "x", webp: true)
        // A further format whose settings repeat (the later one wins), and one with too few files (left out).
        let sources = record.sources ?? []
        record.sources = sources + [.init(type: "image/webp", settings: sources[0].settings, paths: ["p1", "p2"]),
                                    .init(type: "image/avif", settings: "avif", paths: ["only-one"])]
        let dictionary = record.filesBySettings
        for settings in Array(dictionary.keys) + ["avif", "nothing", record.settings] {
            #expect(record.files(madeWith: settings) == dictionary[settings], "\(settings)")
        }
        #expect(record.files(madeWith: sources[0].settings) == ["p1", "p2"])
    }

    @Test("a record's every path, listed without the dictionary, is the dictionary's files and the video's")
    func allPaths() {
        var random = SystemRandomNumberGenerator()
        let settingsChoices = ["jpeg80", "webp80", "avif60", "jpeg80;colour=wide"]
        for trial in 0..<2_000 {
            var record = Self.record(hash: "h", slug: "s\(trial)")
            record.settings = settingsChoices.randomElement(using: &random)!
            // 0 to 3 further formats, some with repeated settings (the main's too) or too few files.
            let further = Int.random(in: 0...3, using: &random)
            record.sources = further == 0 && Bool.random(using: &random) ? nil : (0..<further).map { index in
                let count = Int.random(in: 0...10, using: &random) == 0 ? 1 : 2
                return .init(type: "image/x", settings: settingsChoices.randomElement(using: &random)!,
                             paths: (0..<count).map { "f\(index)-\($0)" })
            }
            if Bool.random(using: &random) {
                record.video = .init(path: "v.mp4", settings: "v", sourceHash: nil, sourceIdentity: nil, probe: nil, sourcePath: nil)
            }
            let reference = record.filesBySettings.values.flatMap { $0 } + (record.video.map { [$0.path] } ?? [])
            #expect(record.allPaths.sorted() == reference.sorted(), "\(record)")
        }
    }
}
