import Foundation
import GRDB
import Gallery
import Imaging
import Testing

@testable import Catalog

/// The catalog's tables: photos in plain columns and their images in `photo_file`, what the
/// migration to them keeps of an older catalog, and what a damaged row costs.
@Suite("Catalog tables")
struct CatalogTablesTests {
    /// A folder for one test's catalog, removed after it.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-tables-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var catalog: String { path + "/catalog.sqlite" }
    }

    /// Records with every part there or none, and inodes at the edges of their range.
    static func records() -> [String: BuildManifest.PhotoRecord] {
        var records: [String: BuildManifest.PhotoRecord] = ["full.heic": RecordCoderTests.fullRecord()]
        var bare = RecordCoderTests.record(sources: false, info: false, inode: nil)
        bare.changeTime = nil
        records["bare.jpg"] = bare
        for (index, inode) in [UInt64(0), UInt64.max, UInt64(Int64.max) + 1].enumerated() {
            records["Été/\(index).jpg"] = RecordCoderTests.record(sources: index % 2 == 0, info: index % 2 == 1, inode: inode)
        }
        // A further format whose list of files is shorter than the main format's (no build
        // writes one; it must still come back as it was, and not be used).
        var short = RecordCoderTests.record(sources: true, info: true)
        short.sources?.append(.init(type: "image/avif", settings: "avif|q60", paths: ["only.avif"]))
        records["short.jpg"] = short
        // Two paths that differ only in their Unicode normalisation are two photos.
        records["e\u{301}.jpg"] = RecordCoderTests.record(sources: false, info: true, inode: 1)
        return records
    }

    @Test("every record comes back as it went in, every field of the full one filled")
    func roundTrip() throws {
        // Every optional field of the full record is there (a field added to a record type must
        // be added to it too, and so to the tables, or this fails).
        func missing(_ value: Any, _ path: String) -> [String] {
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional { return mirror.children.first.map { missing($0.value, path) } ?? [path] }
            guard mirror.displayStyle == .struct || mirror.displayStyle == .class else { return [] }
            return mirror.children.flatMap { missing($0.value, path + "." + ($0.label ?? "?")) }
        }
        #expect(missing(RecordCoderTests.fullRecord(), "record") == [])

        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        var manifest = BuildManifest()
        for (path, record) in Self.records() { manifest.photos[path] = record }
        try catalog.save(manifest, replacing: BuildManifest())
        let read = try catalog.snapshot()
        #expect(read.photos.count == manifest.photos.count)
        for (path, record) in manifest.photos {
            let back = read.photos[path]
            #expect(back == record, "\(path)")
            // (Parts compared one by one, so that a failure shows which.)
            #expect(back?.info?.metadata == record.info?.metadata, "\(path)")
            #expect(back?.video == record.video && back?.sources == record.sources, "\(path)")
        }
        // Anyone can read the catalog with sqlite3.
        let rows = try DatabaseQueue(path: folder.catalog).read { db in
            try Row.fetchAll(db, sql: "SELECT path, width, height FROM photo WHERE path = 'full.heic'")
        }
        #expect(rows == [["path": "full.heic", "width": 4032, "height": 3024]])
    }

    @Test("a record saved again replaces its images' rows; a photo removed takes its images' rows with it")
    func replaceAndRemove() throws {
        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        var first = BuildManifest()
        first.photos["a.jpg"] = RecordCoderTests.record(sources: true, info: true)
        first.photos["b.jpg"] = RecordCoderTests.record(sources: true, info: false)
        try catalog.save(first, replacing: BuildManifest())
        var second = first
        second.photos["a.jpg"]?.sources = nil
        second.photos["a.jpg"]?.renditions.removeLast()
        second.photos["b.jpg"] = nil
        try catalog.save(second, replacing: try catalog.snapshot())
        #expect(try catalog.snapshot().photos == second.photos)
        let files = try DatabaseQueue(path: folder.catalog).read { db in
            try Row.fetchAll(db, sql: "SELECT photo, format, position, path FROM photo_file ORDER BY photo, format, position")
        }
        #expect(files == [["photo": "a.jpg", "format": 0, "position": 0, "path": "nature/thumbs/dune-400.jpg"]])
    }

    /// Makes at `path` a catalog as version 5 made it (the migrations of catalogs 1 to 5, the
    /// records in the old coder's form), holding `records` and one record of version 1's JSON.
    static func makeVersion5(path: String, records: [String: BuildManifest.PhotoRecord], json: (String, BuildManifest.PhotoRecord)) throws {
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE file (path TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
                CREATE TABLE page (path TEXT PRIMARY KEY NOT NULL, fingerprint TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE photo (path TEXT PRIMARY KEY NOT NULL, record BLOB NOT NULL) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2 compact records") { _ in }
        migrator.registerMigration("v3 last build") { db in
            try db.execute(sql: "CREATE TABLE last_build (id INTEGER PRIMARY KEY CHECK (id = 1), summary BLOB NOT NULL)")
        }
        migrator.registerMigration("v4 output state") { db in
            try db.execute(sql: "CREATE TABLE output_state (id INTEGER PRIMARY KEY CHECK (id = 1), stamp TEXT NOT NULL, folders BLOB NOT NULL)")
        }
        migrator.registerMigration("v5 mark") { db in
            try db.execute(sql: "PRAGMA application_id = \(Catalog.applicationID)")
        }
        try migrator.migrate(queue)
        try queue.write { db in
            for (path, record) in records {
                try db.execute(sql: "INSERT INTO photo (path, record) VALUES (?, ?)", arguments: [path, try RecordCoder.encode(record)])
            }
            try db.execute(sql: "INSERT INTO photo (path, record) VALUES (?, ?)", arguments: [json.0, try JSONEncoder().encode(json.1)])
            try db.execute(sql: "INSERT INTO photo (path, record) VALUES ('damaged.jpg', x'0901')")
            try db.execute(sql: "INSERT INTO file (path) VALUES ('thumbs/a-400.jpg'), ('index.html')")
            try db.execute(sql: "INSERT INTO page (path, fingerprint) VALUES ('a.html', 'key a')")
            try db.execute(sql: "INSERT INTO last_build (id, summary) VALUES (1, ?)", arguments: [try JSONEncoder().encode(Self.summary)])
        }
        try queue.close()
    }

    @Test("a catalog of version 5 becomes tables, every readable record kept as it was")
    func migrationFromVersion5() throws {
        let folder = try Folder()
        let records = Self.records()
        let json = ("old/json.jpg", RecordCoderTests.record(sources: true, info: true))
        try Self.makeVersion5(path: folder.catalog, records: records, json: json)
        var warnings: [String] = []
        let catalog = try Catalog(path: folder.catalog) { warnings.append($0) }
        #expect(warnings == [])
        let read = try catalog.snapshot()
        var expected = PhotoRecords()
        for (path, record) in records { expected[path] = record }
        expected[json.0] = json.1
        // (The record that could not be read is left out: its photo is made anew.)
        #expect(read.photos == expected)
        #expect(read.files == ["index.html", "thumbs/a-400.jpg"])
        #expect(read.pages == ["a.html": "key a"])
        #expect(Catalog.whatIsThere(folder.catalog) == .catalog)
        let tables = try DatabaseQueue(path: folder.catalog).read { db in
            try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
        #expect(tables.isSuperset(of: ["photo", "photo_file", "file", "page", "last_build_folder"]) && !tables.contains("photo_v5"))
        // (The old summary is not kept: its stamp names the program that wrote it.)
        #expect(catalog.lastBuild() == nil)
    }

    static let summary = LastBuild(
        stamp: BuildStamp(inputs: "in", output: "out"), scannedPhotos: 5, scannedAlbums: 2, albums: 2, photos: 4, videos: 1, pages: 9,
        events: [.warning("a.jpg: its EXIF is damaged"), .skipped(path: "b/index.md", reason: "bad front matter", line: 3),
                 .skipped(path: "c.psd", reason: "not a photo", line: nil), .warning("")],
        folders: ["": "0f1e", "A": "a1b2", "A/B é": "c3d4"])

    @Test("the last build's summary comes back as it went in, its events in order; forgetting it forgets its events")
    func lastBuild() throws {
        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        #expect(catalog.lastBuild() == nil)
        try catalog.recordLastBuild(Self.summary)
        #expect(catalog.lastBuild() == Self.summary)
        var second = Self.summary
        second.events.removeFirst()
        second.folders["A"] = nil
        try catalog.recordLastBuild(second)
        #expect(catalog.lastBuild() == second)
        let queue = try DatabaseQueue(path: folder.catalog)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT photos FROM last_build") } == 4)
        try catalog.forgetLastBuild()
        #expect(catalog.lastBuild() == nil)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM last_build_event") } == 0)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM last_build_folder") } == 0)
        // Deleted by a connection without foreign keys (sqlite3's, the benchmarks'): the events
        // left behind are not read, and the next summary replaces them.
        try catalog.recordLastBuild(Self.summary)
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF; DELETE FROM last_build; PRAGMA foreign_keys = ON")
        }
        #expect(catalog.lastBuild() == nil)
        try catalog.recordLastBuild(second)
        #expect(catalog.lastBuild() == second)
    }

    @Test("a row that cannot be read is left out, and only it; images without their photo are ignored")
    func damagedRows() throws {
        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        var manifest = BuildManifest()
        for name in ["a", "b", "c", "d", "e"] { manifest.photos["\(name).jpg"] = RecordCoderTests.record(sources: true, info: true) }
        try catalog.save(manifest, replacing: BuildManifest())
        // Edited by hand past what the schema checks: a format no release knows, keywords that
        // are not a list, a NULL where its checks (ignored) want a value, and the images of a
        // photo that is not there.
        let queue = try DatabaseQueue(path: folder.catalog, configuration: {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            return configuration
        }())
        try queue.write { db in
            try db.execute(sql: "UPDATE photo SET format = 'psd' WHERE path = 'a.jpg'")
            try db.execute(sql: "UPDATE photo SET keywords = '{not a list' WHERE path = 'c.jpg'")
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE photo SET has_gps = NULL WHERE path = 'e.jpg'")
            try db.execute(sql: """
                INSERT INTO photo_file (photo, format, position, type, settings, width, height, path)
                VALUES ('b.jpf', 0, 0, NULL, 's', 1, 1, 'orphan.jpg'), ('bb.jpg', 0, 0, NULL, 's', 1, 1, 'orphan2.jpg')
                """)
        }
        try queue.close()
        let read = try catalog.snapshot()
        #expect(Set(read.photos.keys) == ["b.jpg", "d.jpg"])
        #expect(read.photos["b.jpg"] == manifest.photos["b.jpg"] && read.photos["d.jpg"] == manifest.photos["d.jpg"])
    }

    @Test("an earlier release's JSON manifest is imported once into an empty catalog, its own file listed as the tool's")
    func legacyManifest() throws {
        let folder = try Folder()
        let output = folder.path + "/site"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        #expect(try catalog.importLegacyManifest(output: output) { Issue.record("\($0)") } == nil)
        var manifest = BuildManifest()
        manifest.photos["a.jpg"] = RecordCoderTests.record(sources: true, info: true)
        manifest.files = ["a/thumbs/a-400.jpg", "index.html"]
        manifest.pages["a.html"] = "key"
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: output + "/" + BuildManifest.legacyFileName))
        let imported = try catalog.importLegacyManifest(output: output) { Issue.record("\($0)") }
        var expected = manifest
        expected.files = [BuildManifest.legacyFileName, "a/thumbs/a-400.jpg", "index.html"]
        #expect(imported == expected)
        #expect(try catalog.snapshot() == expected)
    }

    /// A small site's folders as a walk finds them: the root with a page, two folders of images,
    /// one inside the other, an empty one; sums and hashes at the edges of their range.
    static func siteFolders() -> [String: OutputFolder] {
        [
            "": OutputFolder(sums: [1, 2, 3], files: [0x0123_4567_89ab_cdef], subfolders: ["a", "b"]),
            "a": OutputFolder(sums: [UInt64.max, UInt64(Int64.max) + 1, 2], files: [7], subfolders: ["thumbs"]),
            "a/thumbs": OutputFolder(sums: [5, 6, 2], files: [0, UInt64.max], subfolders: []),
            "b": OutputFolder(sums: [0, 0, 0], files: [], subfolders: []),
        ]
    }

    /// The records as the catalog keeps them (sub-folders are not kept).
    static func kept(_ folders: [String: OutputFolder]) -> [String: OutputFolder] {
        folders.mapValues { OutputFolder(sums: $0.sums, files: $0.files, subfolders: []) }
    }

    @Test("the search index's albums come back in their order, a row each that sqlite3 reads; nil forgets them; a gap is not taken")
    func searchIndexAlbums() throws {
        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        #expect(catalog.searchIndexAlbums() == nil)
        let albums = [SearchIndexAlbum(key: "album-b", photos: 1000, words: "0123456789abcdef"),
                      SearchIndexAlbum(key: "album-a", photos: 3, words: "fedcba9876543210")]
        try catalog.recordSearchIndexAlbums(albums)
        #expect(catalog.searchIndexAlbums() == albums)
        let queue = try DatabaseQueue(path: folder.catalog)
        #expect(try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM search_index_album ORDER BY position") }
            == [["position": 0, "album": "album-b", "photos": 1000, "words": "0123456789abcdef"],
                ["position": 1, "album": "album-a", "photos": 3, "words": "fedcba9876543210"]])
        // Recorded again: the new list replaces the old one.
        try catalog.recordSearchIndexAlbums(Array(albums.prefix(1)))
        #expect(catalog.searchIndexAlbums() == Array(albums.prefix(1)))
        try catalog.recordSearchIndexAlbums(nil)
        #expect(catalog.searchIndexAlbums() == nil)
        // Rows that do not run from 0 without a gap are no list of the index's albums.
        try catalog.recordSearchIndexAlbums(albums)
        try queue.write { db in try db.execute(sql: "DELETE FROM search_index_album WHERE position = 0") }
        #expect(catalog.searchIndexAlbums() == nil)
    }

    @Test("sidecars' fields come back as they went in, a row each that sqlite3 reads; the rows not kept are forgotten")
    func sidecars() throws {
        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        #expect(catalog.sidecars().isEmpty)
        var full = XMPMetadata(title: "Beach", description: "Low tide", keywords: ["sea", "", "Sète"], rating: -1,
                               dateTaken: "1987-07", creator: "Ann, Bo")
        (full.rights, full.people, full.fieldProblems) = ("© Ann", [], ["its xmp:Rating (9) is not a number in -1…5"])
        (full.sublocation, full.city, full.state, full.country) = ("Old port", "Marseille", nil, "France")
        let identity = FileIdentity(size: 812, modificationTime: 1_700_000_000.123456789, changeTime: 1_700_000_001.5, inode: .max)
        let records = [
            ScannedSidecar(relativePath: "a/IMG_1.xmp", identity: identity, fields: full, isNew: false),
            ScannedSidecar(relativePath: "a/IMG_2.CR3.xmp", identity: FileIdentity(size: 0, modificationTime: 0, changeTime: 0, inode: 0),
                           fields: XMPMetadata(), isNew: false),
            ScannedSidecar(relativePath: "b/c.xmp", identity: identity, fields: XMPMetadata(keywords: [""]), isNew: false),
        ]
        try catalog.recordSidecars(records, keeping: Set(records.map(\.relativePath)))
        #expect(catalog.sidecars() == Dictionary(uniqueKeysWithValues: records.map { ($0.relativePath, $0) }))
        let queue = try DatabaseQueue(path: folder.catalog)
        #expect(try queue.read { db in try Row.fetchAll(db, sql: "SELECT path, title, keywords, rating FROM sidecar ORDER BY path") }
            == [["path": "a/IMG_1.xmp", "title": "Beach", "keywords": "sea\u{1F}\u{1F}Sète\u{1F}", "rating": -1],
                ["path": "a/IMG_2.CR3.xmp", "title": nil, "keywords": nil, "rating": nil],
                ["path": "b/c.xmp", "title": nil, "keywords": "\u{1F}", "rating": nil]])
        // Kept again with one of them read anew and one gone: the gone one's row is forgotten.
        var edited = records[0]
        edited.fields.title = "Harbour"
        edited.identity.changeTime += 1
        try catalog.recordSidecars([edited], keeping: [records[0].relativePath, records[1].relativePath])
        #expect(catalog.sidecars() == [edited.relativePath: edited, records[1].relativePath: records[1]])
        // A text XML cannot hold is not kept (and the row it would replace stays as it was);
        // the rows beside it are still forgotten when they are not kept.
        var unkept = edited
        unkept.fields.keywords = ["a\u{1F}b"]
        unkept.identity.changeTime += 1
        try catalog.recordSidecars([unkept], keeping: [edited.relativePath, "new.xmp"])
        #expect(catalog.sidecars() == [edited.relativePath: edited])
        // The table's constraints hold what a scan reads.
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "UPDATE sidecar SET rating = 6 WHERE path = ?", arguments: [edited.relativePath]) }
        }
    }

    @Test("the output folder's records come back as they went in, a row per folder that sqlite3 reads")
    func outputStateRoundTrip() throws {
        let folder = try Folder()
        let catalog = try Catalog(path: folder.catalog) { Issue.record("\($0)") }
        #expect(try catalog.outputState() == nil)
        let first = Self.siteFolders()
        try catalog.recordOutputState(hex: "first", folders: first)
        #expect(try catalog.outputState() == Self.kept(first))
        let queue = try DatabaseQueue(path: folder.catalog)
        let row = try #require(try queue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM output_folder WHERE path = 'a/thumbs'") })
        #expect(row == ["path": "a/thumbs", "first_sum": 5, "second_sum": 6, "entries": 2, "files": "0000000000000000 ffffffffffffffff"])
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM output_folder") } == first.count)

        // A folder removed and one changed: the rows follow, the others are left as they were.
        var second = first
        second["b"] = nil
        second["a"]?.sums[0] = 9
        second["a"]?.files.append(8)
        try queue.write { db in try db.execute(sql: "UPDATE output_folder SET files = '' WHERE path = 'a/thumbs'") }
        try catalog.recordOutputState(hex: "second", folders: second)
        // (The row of `a/thumbs`, whose sums are the same, was not written again.)
        var expected = Self.kept(second)
        expected["a/thumbs"]?.files = []
        #expect(try catalog.outputState() == expected)
        // The same stamp again writes nothing.
        try catalog.recordOutputState(hex: "second", folders: first)
        #expect(try catalog.outputState() == expected)

        // A row that cannot be read is damage (as garbage in a page of a long row's hashes reads):
        // the catalog is set aside and an empty one takes its place.
        try queue.write { db in try db.execute(sql: "UPDATE output_folder SET files = 'not hashes' WHERE path = 'a'") }
        try queue.close()
        #expect(try catalog.outputState() == nil)
        let warnings = catalog.takeWarnings()
        #expect(warnings.count == 1 && warnings[0].contains("\"a\" cannot be read") && warnings[0].contains(folder.catalog + ".damaged"))
        #expect(FileManager.default.fileExists(atPath: folder.catalog + ".damaged"))
        #expect(try catalog.outputState() == nil)
        for text in ["0123", "0123456789abcdeg", "0123456789abcdef  0123456789abcdef", "0123456789ABCDEF"] {
            #expect(CatalogOutputFolder.hashes(text) == nil, "\(text)")
        }
    }

    /// Records in the form catalogs before version 8 kept them (``OldOutputState``).
    static func oldBytes(_ folders: [String: OutputFolder]) -> [UInt8] {
        var bytes = OldOutputState.header
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        for (path, folder) in folders.sorted(by: { $0.key < $1.key }) {
            put(UInt64(path.utf8.count))
            bytes += Array(path.utf8)
            for sum in folder.sums { put(sum) }
            put(UInt64(folder.files.count))
            for hash in folder.files { put(hash) }
        }
        return bytes
    }

    @Test("a catalog whose output records are one block of bytes gets them as rows; a block that cannot be read is dropped",
          arguments: [true, false])
    func outputStateMigration(readable: Bool) throws {
        let folder = try Folder()
        let folders = Self.siteFolders()
        try Self.makeVersion5(path: folder.catalog, records: [:], json: ("a.jpg", RecordCoderTests.record(sources: true, info: true)))
        let bytes = readable ? Self.oldBytes(folders) : Array("cascade output state 2\n".utf8) + [1, 2, 3]
        try DatabaseQueue(path: folder.catalog).write { db in
            try db.execute(sql: "INSERT INTO output_state (id, stamp, folders) VALUES (1, 'old', ?)", arguments: [Data(bytes)])
        }
        var warnings: [String] = []
        let catalog = try Catalog(path: folder.catalog) { warnings.append($0) }
        #expect(warnings == [])
        #expect(try catalog.outputState() == (readable ? Self.kept(folders) : nil))
        let columns = try DatabaseQueue(path: folder.catalog).read { db in
            try Set(Row.fetchAll(db, sql: "PRAGMA table_info(output_state)").map { $0["name"] as String })
        }
        #expect(columns == ["id", "stamp"])
        // Without the records, the next build's stamp writes them all.
        try catalog.recordOutputState(hex: "new", folders: folders)
        #expect(try catalog.outputState() == Self.kept(folders))
    }
}
