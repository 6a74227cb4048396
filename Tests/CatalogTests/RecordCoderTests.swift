import Foundation
import GRDB
import Gallery
import Imaging
import Video
import Testing

@testable import Catalog

/// The coder of the photo records of catalogs before version 6, which the migration to tables reads.
@Suite("The catalog's old record coder")
struct RecordCoderTests {
    static func record(sources: Bool, info: Bool, inode: UInt64? = 12_345_678_901) -> BuildManifest.PhotoRecord {
        let metadata = PhotoMetadata(dateTaken: "2024:07:14 10:11:12", description: "Dune, \"late\" — 東京 🎉", artist: nil, hasGPS: true)
        return BuildManifest.PhotoRecord(
            size: 1_234_567, modificationTime: 1_700_000_000.123456, changeTime: -3.5e-9, inode: inode,
            contentHash: "0123456789abcdef", settings: "q82|srgb", width: 4032, height: 3024, color: "#a0b1c2",
            renditions: [.init(width: 400, height: 300, path: "nature/thumbs/dune-400.jpg"), .init(width: 800, height: 600, path: "n/t/d-800.jpg")],
            sources: sources ? [.init(type: "image/webp", settings: "webp|q80", paths: ["a.webp", "b.webp"])] : nil,
            info: info ? ImageInfo(format: .heif, pixelWidth: 4032, pixelHeight: 3024, orientation: .right, displayWidth: 3024, displayHeight: 4032, metadata: metadata) : nil,
            probeVersion: info ? 7 : nil)
    }

    @Test("a record comes back as it went in, with and without its optional parts", arguments: [false, true], [false, true])
    func roundTrip(sources: Bool, info: Bool) throws {
        for inode: UInt64? in [nil, 0, UInt64.max] {
            let record = Self.record(sources: sources, info: info, inode: inode)
            let data = try RecordCoder.encode(record)
            #expect(data.first != UInt8(ascii: "{"))
            #expect(try RecordCoder.decode(BuildManifest.PhotoRecord.self, from: data) == record)
            #expect(OldPhotoRecords.decode(data) == record)
        }
    }

    /// A record with every optional part there: camera settings, keywords, a rating, a video.
    static func fullRecord() -> BuildManifest.PhotoRecord {
        var record = record(sources: true, info: true)
        var metadata = PhotoMetadata(dateTaken: "2024:07:14 10:11:12", description: "d", artist: "Ann", hasGPS: false)
        metadata.title = "Dune"
        metadata.keywords = ["sand", "東京", ""]
        metadata.rating = -1
        metadata.xmpProblem = "the packet ends early"
        metadata.fieldProblems = ["its EXIF Rating (65535) is not a number in -1…5"]
        metadata.copyright = "© 2024 Ann"
        metadata.people = ["Jürgen Müller", "Ann"]
        metadata.sublocation = "Tour Eiffel"
        metadata.city = "Paris"
        metadata.state = "Île-de-France"
        metadata.country = "France"
        var camera = CameraSettings()
        camera.make = "Canon"
        camera.model = "EOS R5"
        camera.lens = "RF 24-105mm"
        camera.focalLength = 35.5
        camera.focalLength35mm = 36
        camera.fNumber = 5.6
        camera.exposureTime = .init(numerator: 1, denominator: 250)
        camera.iso = 400
        camera.exposureBias = -0.7
        metadata.camera = camera
        record.info?.metadata = metadata
        record.video = BuildManifest.VideoRecord(
            path: "v/videos/clip.live.mp4", settings: "h264|crf23", sourceHash: "feed",
            sourceIdentity: FileIdentity(size: 9, modificationTime: 1.5, changeTime: 2.5, inode: 3),
            probe: VideoInfo(storedWidth: 1920, storedHeight: 1080, rotation: 90, duration: 2.5, videoCodec: "hevc", pixelFormat: "yuv420p",
                             audioCodec: "aac", container: "mov", creationDate: "2024-07-14", hasLocation: true,
                             fieldProblems: ["its rotate tag (nan) is not a number in -360…360; shown unturned"],
                             probeVersion: 2),
            sourcePath: "a/IMG_1.MOV")
        return record
    }

    @Test("extreme numbers and doubles keep every bit")
    func numbers() throws {
        struct Numbers: Codable, Equatable {
            var values: [Int]
            var small: [Int8]
            var doubles: [Double]
            var flag: Bool
            var nested: [[String: Int]]
        }
        let value = Numbers(
            values: [0, 1, -1, Int.max, Int.min, 127, 128, -129], small: [-128, 127, 0],
            doubles: [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1],
            flag: true, nested: [["a": 1], [:]])
        let decoded = try RecordCoder.decode(Numbers.self, from: RecordCoder.encode(value))
        #expect(decoded == value)
        #expect(decoded.doubles.map(\.bitPattern) == value.doubles.map(\.bitPattern))
    }

    @Test("keys are found whatever order they are read in, and a missing one is nil or an error")
    func keyOrder() throws {
        struct Written: Codable { var a: Int, b: String, c: Double, d: [Int] }
        struct ReadBackwards: Decodable, Equatable {
            var a: Int, b: String, c: Double, d: [Int], e: Int?
            enum CodingKeys: String, CodingKey { case a, b, c, d, e }
            init(a: Int, b: String, c: Double, d: [Int], e: Int?) { (self.a, self.b, self.c, self.d, self.e) = (a, b, c, d, e) }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                e = try container.decodeIfPresent(Int.self, forKey: .e)
                d = try container.decode([Int].self, forKey: .d)
                b = try container.decode(String.self, forKey: .b)
                c = try container.decode(Double.self, forKey: .c)
                a = try container.decode(Int.self, forKey: .a)
                // A key read twice, after the others.
                #expect(try container.decode(Int.self, forKey: .a) == a)
                #expect(try container.decode(String.self, forKey: .b) == b)
            }
        }
        struct NeedsMissing: Decodable { var a: Int, z: Int }
        let data = try RecordCoder.encode(Written(a: 7, b: "bee", c: 0.5, d: [1, 2]))
        #expect(try RecordCoder.decode(ReadBackwards.self, from: data) == ReadBackwards(a: 7, b: "bee", c: 0.5, d: [1, 2], e: nil))
        #expect(throws: (any Error).self) { try RecordCoder.decode(NeedsMissing.self, from: data) }
    }

    @Test("records that earlier versions wrote as JSON are still read")
    func json() throws {
        let record = Self.record(sources: true, info: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(OldPhotoRecords.decode(try encoder.encode(record)) == record)
    }

    @Test("a damaged or foreign record is not read, never read wrong")
    func damaged() throws {
        let data = try RecordCoder.encode(Self.record(sources: true, info: true))
        // Every truncation, and every single-byte change of the kind tags, fails or gives a
        // record that differs from nothing it should not: here, each truncation must fail.
        for length in 0..<data.count {
            #expect(OldPhotoRecords.decode(data.prefix(length)) == nil, "truncated to \(length) bytes")
        }
        #expect(OldPhotoRecords.decode(data + [0]) == nil)
        #expect(OldPhotoRecords.decode(Data([0xFF, 0x00, 0x13])) == nil)
        // A record of another shape: a required field of the wrong kind.
        struct Other: Codable { var size: String }
        #expect(OldPhotoRecords.decode(try RecordCoder.encode(Other(size: "big"))) == nil)
        // A field the type does not know is ignored; a required one missing is an error.
        struct Wider: Codable { var a: Int; var extra: String }
        struct Narrow: Codable, Equatable { var a: Int }
        #expect(try RecordCoder.decode(Narrow.self, from: RecordCoder.encode(Wider(a: 3, extra: "x"))) == Narrow(a: 3))
        #expect(throws: (any Error).self) { try RecordCoder.decode(Wider.self, from: RecordCoder.encode(Narrow(a: 3))) }
    }

    @Test("a hundred thousand nested lists do not exhaust the stack")
    func nesting() {
        // 100,000 list tags, each holding one more.
        var bytes: [UInt8] = []
        for _ in 0..<100_000 { bytes += [0x09, 0x01] }
        bytes.append(0x01)
        #expect(OldPhotoRecords.decode(Data(bytes)) == nil)
    }
}

@Suite("The catalog's upgrade")
struct CatalogUpgradeTests {
    @Test("a catalog of version 1 (JSON records) becomes tables; an unreadable record is dropped")
    func upgrade() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-upgrade-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/catalog.sqlite"
        let record = RecordCoderTests.record(sources: true, info: true)
        do {
            // What version 1 made: its tables, its migration, records as JSON.
            let queue = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.execute(sql: """
                    CREATE TABLE file (path TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
                    CREATE TABLE page (path TEXT PRIMARY KEY NOT NULL, fingerprint TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE photo (path TEXT PRIMARY KEY NOT NULL, record BLOB NOT NULL) WITHOUT ROWID;
                    """)
            }
            try migrator.migrate(queue)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO photo (path, record) VALUES (?, ?)", arguments: ["a.jpg", try JSONEncoder().encode(record)])
                try db.execute(sql: "INSERT INTO photo (path, record) VALUES (?, ?)", arguments: ["b.jpg", Data("{not json".utf8)])
                try db.execute(sql: "INSERT INTO file (path) VALUES ('thumbs/a-400.jpg')")
            }
        }
        var warnings: [String] = []
        let catalog = try Catalog(path: path) { warnings.append($0) }
        let snapshot = try catalog.snapshot()
        #expect(warnings.isEmpty)
        #expect(snapshot.photos == ["a.jpg": record])
        #expect(snapshot.files == ["thumbs/a-400.jpg"])
        // Now in columns, its images in rows of their own.
        let stored = try DatabaseQueue(path: path).read { db in
            (try Row.fetchOne(db, sql: "SELECT content_hash, width, height FROM photo WHERE path = 'a.jpg'"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM photo_file WHERE photo = 'a.jpg'"))
        }
        #expect(stored.0 == ["content_hash": "0123456789abcdef", "width": 4032, "height": 3024])
        #expect(stored.1 == 4)
    }

    @Test("a large catalog, read in ranges of paths on several connections, gives back every record, file and page")
    func largeSnapshot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-large-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try Catalog(path: folder + "/catalog.sqlite") { Issue.record("\($0)") }
        var manifest = BuildManifest()
        // Paths whose order in bytes differs from their order as numbers, and a few non-ASCII ones.
        for index in 0..<9_001 {
            var record = RecordCoderTests.record(sources: index % 3 == 0, info: index % 2 == 0)
            record.size = index
            let path = index % 1_000 == 7 ? "Été/\(index).jpg" : "album-\(index % 97)/photo \(index).jpg"
            manifest.photos[path] = record
            manifest.files.append("thumbs/\(index)-400.jpg")
            manifest.pages["page-\(index).html"] = "key \(index)"
        }
        manifest.files.sort()
        try catalog.save(manifest, replacing: BuildManifest())
        let snapshot = try catalog.snapshot()
        #expect(snapshot.photos.count == 9_001)
        // (Compared first, so that a failure does not print nine thousand records.)
        let (samePhotos, sameFiles, samePages) = (snapshot.photos == manifest.photos, snapshot.files == manifest.files, snapshot.pages == manifest.pages)
        #expect(samePhotos && sameFiles && samePages)
        // Ranges cut between the paths of a sample of the photo folder, however unlike the
        // table's the sample is: each way gives every record.
        let paths = Array(manifest.photos.keys)
        let samples: [[String]] = [
            stride(from: 0, to: paths.count, by: 37).map { paths[$0] },  // some of the table's paths
            ["album-5/photo 5.jpg", "album-5/photo 5.jpg", "album-50/x.jpg", "Été/7.jpg", "zzz", "", "album-1"],  // repeats, others
            ["aaa", "aab", "aac", "aad"],  // all before every path
            (0..<40).map { "zz \($0)" },  // all after
        ]
        for sample in samples {
            let (read, files) = try catalog.snapshotAndFileSet(fileSet: true, likelyPaths: (sample, 9_001))
            #expect(read.photos.count == 9_001, "\(sample.prefix(3))")
            #expect(read.photos == manifest.photos && files == Set(manifest.files))
        }
    }
}
