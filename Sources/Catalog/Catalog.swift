import Foundation
import Gallery
import GRDB
import Imaging
import Synchronization
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What earlier builds of one output folder made, and from what: a SQLite database (through
/// GRDB) kept outside the site, by default in the user's cache folder
/// (`$XDG_CACHE_HOME/cascade/catalogs/`, keyed by the output folder's real path: `SiteGenerator`'s
/// `Catalog.defaultPath(output:)`).
///
/// It lists every file the tool made (nothing else is ever deleted or written over), each
/// photo's images with what they were made from (content hash, file identity, settings), and
/// each page's fingerprint. It changes row by row in transactions: a rebuild with nothing to do
/// writes nothing. A lost or damaged catalog makes the next build slower, never wrong: nothing
/// it does not list is deleted or replaced.
package final class Catalog: Sendable {
    /// The database file.
    package let path: String

    /// Cascade's mark in a catalog's header (`PRAGMA application_id`): "CSCD".
    static let applicationID: Int32 = 0x4353_4344

    /// Opens (or creates) the catalog at `path`, which must not be inside the photo folder
    /// `source` or the output folder `output` (real paths).
    ///
    /// What is at `path` is never deleted or written over unless it is a catalog of Cascade's (by
    /// its mark, or, for catalogs older than the mark, its tables): a folder, a file that is not
    /// SQLite, or another program's database stops the build with a message naming it. Only at
    /// the default place, in Cascade's own cache folder (`isDefaultPath`), is a file that is not
    /// a catalog taken for a damaged one. A damaged catalog, or one written by a newer Cascade, is
    /// set aside under a new name (``setAside(_:)``, reported through `warning`) and replaced by
    /// an empty one: the build goes on as without a catalog. Damage found later, at any page
    /// the build reads or writes, is handled the same way, its report kept for ``takeWarnings()``.
    package init(
        path: String, source: String? = nil, output: String? = nil, isDefaultPath: Bool = false, warning: (String) -> Void
    ) throws(CatalogError) {
        self.path = path
        let found = try Self.check(path: path, source: source, output: output, isDefaultPath: isDefaultPath)
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw .catalog(path: path, reason: (error as NSError).localizedDescription)
        }
        if case .notACatalog(let what) = found {
            // Cascade's own cache folder holds only its catalogs: this one's first page is damaged.
            let aside = try Self.setAside(path)
            warning("the catalog \(path) is damaged (\(what)); it is set aside as \(aside) and every image is made anew (no file is deleted)")
        }
        let queue: DatabaseQueue
        do {
            queue = try Self.openDatabase(path)
        } catch where Self.isDamage(error) || error is CatalogVersionError {
            let aside = try Self.setAside(path)
            warning("the catalog \(path) cannot be read (\(error)); it is set aside as \(aside) and every image is made anew (no file is deleted)")
            do {
                queue = try Self.openDatabase(path)
            } catch {
                throw .catalog(path: path, reason: "\(error)")
            }
        } catch {
            // (Busy, say, or not allowed: nothing is set aside.)
            throw .catalog(path: path, reason: "\(error)")
        }
        state = Mutex(queue)
    }

    /// What is at the catalog's path `path`; throws when the build must not use it: it is inside
    /// the photo folder `source` or the output folder `output` (real paths; the path's links are
    /// followed), or it is not a catalog and not at the default place (``init(path:source:output:isDefaultPath:warning:)``).
    /// Reads nothing but the file's header (and an old catalog's tables): a build asks before it
    /// changes anything.
    /// `locked` says the build holds the output folder's lock: without it, another build may be
    /// writing the catalog (its journal is beside it) and what its header says is not taken.
    package static func check(path: String, source: String?, output: String?, isDefaultPath: Bool, locked: Bool = true) throws(CatalogError) -> Found {
        let real = realPath(path)
        for (folder, what) in [(source, "the photo folder"), (output, "the output folder")] {
            guard let folder, real == folder || real.hasPrefix(folder == "/" ? "/" : folder + "/") else { continue }
            throw .catalog(path: path, reason: "it is inside \(what) \(folder): the catalog is kept outside the photos and the site (the photo folder is never written to, and the site is published)")
        }
        let found = whatIsThere(path)
        if !locked, case .notACatalog = found, FileStatus(path: path + "-journal") != nil { return found }
        if case .notACatalog(let what) = found, !isDefaultPath {
            throw .catalog(path: path, reason: "\(what), not a Cascade catalog; it is left as it is (move it away, or choose another --catalog path)")
        }
        return found
    }

    /// The open database (another one after damage was found: ``recover(from:)``).
    private let state: Mutex<DatabaseQueue>
    private var database: DatabaseQueue { state.withLock { $0 } }
    /// Whether the catalog was set aside and replaced since it was opened: it then holds none of
    /// what the build read.
    private let replaced = Atomic<Bool>(false)
    /// What damage found after the catalog was opened reported, until ``takeWarnings()``.
    private let laterWarnings = Mutex<[String]>([])

    /// The reports of damage found since the catalog was opened (or since the last call).
    package func takeWarnings() -> [String] {
        laterWarnings.withLock { warnings in
            defer { warnings = [] }
            return warnings
        }
    }

    /// What is at a catalog's path, as read before it is opened.
    package enum Found: Equatable {
        case nothing
        /// A Cascade catalog (by its mark or its tables), or an empty file (an interrupted first
        /// build's: there is nothing in it to lose).
        case catalog
        /// Anything else, described.
        case notACatalog(String)
    }

    /// What is at `path`, read without changing it.
    static func whatIsThere(_ path: String) -> Found {
        guard let status = FileStatus(path: path) else { return .nothing }
        // (A link is followed: the file it names is what would be opened.)
        var kind = status.kind
        if kind == .symbolicLink {
            guard let target = FileStatus(path: URL(fileURLWithPath: path).resolvingSymlinksInPath().path) else {
                return .notACatalog("it is a link to nothing")
            }
            kind = target.kind
        }
        switch kind {
        case .directory: return .notACatalog("it is a folder")
        case .regular: break
        default: return .notACatalog("it is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .notACatalog("it cannot be read") }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if header.isEmpty { return .catalog }
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            return .notACatalog("it is not a SQLite database")
        }
        let id = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if id == applicationID { return .catalog }
        if id != 0 { return .notACatalog("it is the database of another program") }
        // A catalog of a version before the mark: it has Cascade's tables.
        let tables = try? DatabaseQueue(path: path, configuration: {
            var configuration = Configuration()
            configuration.readonly = true
            return configuration
        }()).read { db in try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")) }
        guard let tables else { return .notACatalog("it is a SQLite database that cannot be read") }
        return tables.isSuperset(of: ["grdb_migrations", "file", "page", "photo"]) ? .catalog
            : .notACatalog("it is a SQLite database without Cascade's tables")
    }

    /// Moves the damaged catalog at `path` (with its journal, if any) to a new name beside it,
    /// `path.damaged`, else `path.damaged-2`, `-3`, …: never over a file, and nothing is deleted.
    /// Returns the new path.
    static func setAside(_ path: String) throws(CatalogError) -> String {
        let suffixes = ["", "-journal", "-wal", "-shm"]
        for number in 1... {
            let candidate = path + ".damaged" + (number == 1 ? "" : "-\(number)")
            guard suffixes.allSatisfy({ FileStatus(path: candidate + $0) == nil }) else { continue }
            for suffix in suffixes where FileStatus(path: path + suffix) != nil {
                // (A hard link, then the old name removed: a link never replaces a file, as a
                // rename would.)
                if link(path + suffix, candidate + suffix) == 0 {
                    unlink(path + suffix)
                } else if errno == EPERM || errno == EOPNOTSUPP || errno == EMLINK,
                          FileStatus(path: candidate + suffix) == nil, rename(path + suffix, candidate + suffix) == 0 {
                    // (A file system without hard links: renamed, the new name free a moment ago.)
                } else if errno == EEXIST {
                    throw .catalog(path: path, reason: "\(candidate + suffix) appeared while the damaged catalog was set aside")
                } else {
                    throw .catalog(path: path, reason: "it is damaged and cannot be set aside as \(candidate + suffix): \(String(cString: strerror(errno)))")
                }
            }
            return candidate
        }
        preconditionFailure("unreachable")
    }

    /// Whether `error` says the database is damaged (rather than busy, say).
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// After `error` (damage found at a page of the catalog): sets the catalog aside, opens an
    /// empty one in its place and reports where the old one went. Any other error is thrown.
    private func recover(from error: any Error) throws(CatalogError) {
        guard Self.isDamage(error) else { throw .catalog(path: path, reason: "\(error)") }
        try recover(damage: "\(error)")
    }

    /// ``recover(from:)`` of damage described by `error`.
    private func recover(damage error: String) throws(CatalogError) {
        let message: String = try state.withLock { database throws(CatalogError) in
            try? database.close()
            let aside = try Self.setAside(path)
            do {
                database = try Self.openDatabase(path)
            } catch {
                throw .catalog(path: path, reason: "\(error)")
            }
            return "the catalog \(path) is damaged (\(error)); it is set aside as \(aside) and the build goes on without it (no file is deleted)"
        }
        replaced.store(true, ordering: .sequentiallyConsistent)
        laterWarnings.withLock { $0.append(message) }
    }

    /// Runs `body` on the database; damage found there sets the catalog aside (``recover(from:)``)
    /// and runs it again on the empty one.
    private func withRecovery<T>(_ body: (DatabaseQueue) throws -> T) throws(CatalogError) -> T {
        do {
            return try body(database)
        } catch {
            try recover(from: error)
        }
        do {
            return try body(database)
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
    }

    private static func openDatabase(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "cascade catalog"
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE file (path TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
                CREATE TABLE page (path TEXT PRIMARY KEY NOT NULL, fingerprint TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE photo (path TEXT PRIMARY KEY NOT NULL, record BLOB NOT NULL) WITHOUT ROWID;
                """)
        }
        // Photo records were JSON before version 2, rewritten then in a compact binary form;
        // both are read once by the migration to tables ("v6 tables"), which now does this one's work.
        migrator.registerMigration("v2 compact records") { _ in }
        // What the last complete build found and made, with its stamp (``BuildStamp``).
        migrator.registerMigration("v3 last build") { db in
            try db.execute(sql: "CREATE TABLE last_build (id INTEGER PRIMARY KEY CHECK (id = 1), summary BLOB NOT NULL)")
        }
        // Each made file's state (path and identity) as the end of the last build found it
        // (``OutputStamp``): a file changed since is made again.
        migrator.registerMigration("v4 output state") { db in
            try db.execute(sql: "CREATE TABLE output_state (id INTEGER PRIMARY KEY CHECK (id = 1), stamp TEXT NOT NULL, folders BLOB NOT NULL)")
        }
        // Cascade's mark, which tells its catalogs from other databases (``whatIsThere(_:)``).
        migrator.registerMigration("v5 mark") { db in
            try db.execute(sql: "PRAGMA application_id = \(Catalog.applicationID)")
        }
        // The photos as tables of plain columns (``CatalogPhoto``, ``CatalogPhotoFile``): each
        // record of the earlier form is read once, with the coder that wrote it; one that cannot
        // be read is left out (its photo is made anew, its files stay listed as the tool's).
        migrator.registerMigration("v6 tables") { db in
            try db.execute(sql: "ALTER TABLE photo RENAME TO photo_v5")
            try db.execute(sql: CatalogPhoto.createSQL)
            try db.execute(sql: CatalogPhotoFile.createSQL)
            let rows = try Row.fetchCursor(db, sql: "SELECT path, record FROM photo_v5")
            while let row = try rows.next() {
                guard let path = row[0] as String?, let bytes = row[1] as Data?, let record = OldPhotoRecords.decode(bytes) else { continue }
                try Catalog.insert(record, path: path, db)
            }
            try db.execute(sql: "DROP TABLE photo_v5")
            // The last build's summary in columns, its scan's reports in rows. The old summary is
            // not kept: its stamp names the program that wrote it, so that no build of this one
            // would find it the same (the next build scans and plans, and reuses every image).
            try db.execute(sql: "DROP TABLE last_build")
            try db.execute(sql: CatalogLastBuild.createSQL)
            try db.execute(sql: CatalogLastBuildEvent.createSQL)
        }
        // What the search index holds of each photo, by album (``CatalogSearchPhoto``).
        migrator.registerMigration("v7 search") { db in
            try db.execute(sql: CatalogSearchPhoto.createSQL)
            try db.execute(sql: CatalogSearchFilter.createSQL)
        }
        // The output folder's records as rows of plain columns (``CatalogOutputFolder``) rather
        // than one block of bytes: the old block is read once; one that cannot be read is
        // dropped (the next build then finds no file changed by others, as before it was kept).
        migrator.registerMigration("v8 output folders") { db in
            let old = try Row.fetchOne(db, sql: "SELECT stamp, folders FROM output_state WHERE id = 1")
            try db.execute(sql: "DROP TABLE output_state")
            try db.execute(sql: "CREATE TABLE output_state (id INTEGER PRIMARY KEY CHECK (id = 1), stamp TEXT NOT NULL)")
            try db.execute(sql: CatalogOutputFolder.createSQL)
            guard let old, let stamp = old[0] as String?, let bytes = old[1] as Data?,
                  let folders = OldOutputState.decode([UInt8](bytes))
            else { return }
            let insert = try db.cachedStatement(sql: CatalogOutputFolder.insertSQL)
            for folder in folders { try insert.execute(arguments: folder.arguments) }
            try db.execute(sql: "INSERT INTO output_state (id, stamp) VALUES (1, ?)", arguments: [stamp])
        }
        // What the search index in the site was made from, album by album (``SearchIndexAlbum``).
        migrator.registerMigration("v9 search index albums") { db in
            try db.execute(sql: CatalogSearchIndexAlbum.createSQL)
        }
        // Each XMP sidecar's fields, by its path and identity (``CatalogSidecar``).
        migrator.registerMigration("v10 sidecars") { db in
            try db.execute(sql: CatalogSidecar.createSQL)
        }
        // The fingerprint of each photo folder's inputs, part of the last build's summary
        // (``LastBuild/folders``). A summary recorded before has none: the next build does not
        // know which folders changed, as after any build that did not finish.
        migrator.registerMigration("v11 last build folders") { db in
            try db.execute(sql: CatalogLastBuildFolder.createSQL)
        }
        // Reads the database once: a file that is not SQLite fails here, not in the middle of a build.
        if try queue.read({ db in try migrator.hasBeenSuperseded(db) }) {
            throw CatalogVersionError()
        }
        try migrator.migrate(queue)
        _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM file") }
        return queue
    }

    /// A catalog written by a newer Cascade.
    private struct CatalogVersionError: Error, CustomStringConvertible {
        var description: String { "it was written by a newer version of Cascade" }
    }

    /// Everything the catalog holds. A photo record that cannot be read is left out (its
    /// images are made anew; its files stay listed, so they are still the tool's).
    package func snapshot() throws(CatalogError) -> BuildManifest {
        try snapshotAndFileSet(fileSet: false).manifest
    }

    /// ``snapshot()``, and with `fileSet` its files as a set too, made on the core that reads
    /// them while the others decode records.
    ///
    /// Decoding the records is most of the time a large library's catalog takes, so the photo
    /// table is read in ranges of paths, each on a read-only connection of its own, on every
    /// core, while the files and pages are read on another (a row's bytes are decoded as it is
    /// read: no range holds its rows' bytes at once, which added 40 MB to a large library's peak).
    ///
    /// `likelyPaths`, when given, are some of the photos' paths (a sample of the photo folder's
    /// files, and how many files it has): the ranges are cut between them, without counting
    /// and stepping through the table first (two reads of all of it, on one core, before the
    /// ranges began). Any paths cut it into ranges that together hold every record.
    package func snapshotAndFileSet(
        fileSet wantsSet: Bool, likelyPaths: (sample: [String], count: Int)? = nil
    ) throws(CatalogError) -> (manifest: BuildManifest, files: Set<String>) {
        do {
            return try Self.snapshotAndFileSet(path: path, counting: database, fileSet: wantsSet, likelyPaths: likelyPaths)
        } catch {
            // Damage at any page read: the catalog is set aside, and the build goes on without it.
            guard case .catalogDamaged(_, let reason) = error else { throw error }
            try recover(damage: reason)
            return (BuildManifest(), [])
        }
    }

    /// ``snapshotAndFileSet(fileSet:likelyPaths:)`` of the catalog at `path`, counting its
    /// photos (without `likelyPaths`) on the connection `counting`.
    static func snapshotAndFileSet(
        path: String, counting database: DatabaseQueue, fileSet wantsSet: Bool, likelyPaths: (sample: [String], count: Int)? = nil
    ) throws(CatalogError) -> (manifest: BuildManifest, files: Set<String>) {
        var manifest = BuildManifest()
        var fileSet: Set<String> = []
        do {
            let wanted = 4 * ProcessInfo.processInfo.activeProcessorCount
            let (count, boundaries) = try likelyPaths.map { likely in
                // The sample's paths at even steps, in order.
                let sorted = Array(Set(likely.sample)).sorted()
                let parts = likely.count < 4_000 ? 1 : min(wanted, sorted.count)
                return (likely.count, (1..<max(1, parts)).map { sorted[$0 * sorted.count / parts] })
            } ?? database.read { db in
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0
                let parts = count < 4_000 ? 1 : wanted
                // Each boundary a step of rows after the last one (an offset from the first row
                // for each would step over the rows before it again).
                var boundaries: [String] = []
                for _ in 1..<parts {
                    guard let next = try String.fetchOne(
                        db, sql: "SELECT path FROM photo WHERE ?1 IS NULL OR path >= ?1 ORDER BY path LIMIT 1 OFFSET ?2",
                        arguments: [boundaries.last, count / parts])
                    else { break }
                    boundaries.append(next)
                }
                return (count, boundaries)
            }
            enum Part: Sendable { case filesAndPages, photos(from: String?, to: String?) }
            enum Read: Sendable {
                case filesAndPages([String], Set<String>, [String: String]), photos
            }
            let photos = Mutex(PhotoRecords())
            photos.withLock { $0.reserveCapacity(count) }
            let parts = [Part.filesAndPages] + zip([nil] + boundaries, boundaries + [nil]).map { Part.photos(from: $0, to: $1) }
            let reads = try parallelMap(parts, jobs: ProcessInfo.processInfo.activeProcessorCount) { [path] part throws(CatalogError) -> Read in
                do {
                    return try readOnlyConnection(path).read { db in
                        switch part {
                        case .filesAndPages:
                            let files = try String.fetchAll(db, sql: "SELECT path FROM file ORDER BY path")
                            var pages: [String: String] = [:]
                            // (Its size known first: grown row by row, the table was copied a dozen times.)
                            pages.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM page") ?? 0)
                            let rows = try Row.fetchCursor(db, sql: "SELECT path, fingerprint FROM page")
                            while let row = try rows.next() { pages[row[0]] = row[1] as String }
                            return .filesAndPages(files, wantsSet ? Set(files) : [], pages)
                        case .photos(let from, let to):
                            try Self.readPhotos(db, from: from, to: to, into: photos)
                            return .photos
                        }
                    }
                } catch {
                    throw Self.isDamage(error) ? .catalogDamaged(path: path, reason: "\(error)") : .catalog(path: path, reason: "\(error)")
                }
            }
            for case .filesAndPages(let files, let set, let pages) in reads { (manifest.files, fileSet, manifest.pages) = (files, set, pages) }
            // (Taken out of the lock, not copied: the lock keeps no reference to them.)
            manifest.photos = photos.withLock { photos in
                defer { photos = PhotoRecords() }
                return photos
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw Self.isDamage(error) ? .catalogDamaged(path: path, reason: "\(error)") : .catalog(path: path, reason: "\(error)")
        }
        return (manifest, fileSet)
    }

    /// Imports the JSON manifest an earlier release left in the output folder `output`
    /// (``BuildManifest/legacy(outputDirectory:warning:)``), once, into this catalog, which must
    /// be empty, and returns what the catalog then holds; nil when there is no manifest.
    ///
    /// The manifest's own file is listed among the tool's files: the build deletes it as a
    /// file it no longer makes, once the catalog holds what the build made. (A manifest that
    /// cannot be read gives no records, and its file only: every image is made anew, and the
    /// files of earlier builds, which the catalog does not list, are left in place.)
    package func importLegacyManifest(output: String, warning: (String) -> Void) throws(CatalogError) -> BuildManifest? {
        guard var manifest = BuildManifest.legacy(outputDirectory: output, warning: warning) else { return nil }
        manifest.files = Array(Set(manifest.files + [BuildManifest.legacyFileName])).sorted()
        try save(manifest, replacing: BuildManifest())
        return manifest
    }

    /// A read-only connection to the catalog at `path`, which waits for a writer as the catalog's
    /// own does, and reads pages where the file is mapped, not copied into its cache.
    static func readOnlyConnection(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Reads the photos whose paths are from `from` (or the first) up to `to` (or the last),
    /// and their images, into `photos`: the one way the catalog's photos are read.
    ///
    /// The two tables are read side by side in the order of their keys (a photo's images follow
    /// one another in `photo_file`), so that each photo is joined to its images as it is read. A
    /// photo whose row cannot be read is left out (its photo is made anew).
    static func readPhotos(_ db: Database, from: String?, to: String?, into photos: borrowing Mutex<PhotoRecords>) throws {
        let range: StatementArguments = [from, to]
        let photoRows = try Row.fetchCursor(
            db, sql: CatalogPhoto.selectSQL + " WHERE (?1 IS NULL OR path >= ?1) AND (?2 IS NULL OR path < ?2) ORDER BY path",
            arguments: range)
        let fileRows = try Row.fetchCursor(
            db, sql: CatalogPhotoFile.selectSQL
                + " WHERE (?1 IS NULL OR photo >= ?1) AND (?2 IS NULL OR photo < ?2) ORDER BY photo, format, position",
            arguments: range)
        var records: [(String, Boxed<BuildManifest.PhotoRecord>)] = []
        // The next image row that can be read (one that cannot is left out: its photo's record
        // then lacks an image, and the photo is made anew).
        func nextFile() throws -> CatalogPhotoFile? {
            while let row = try fileRows.next() {
                if let file = try? CatalogPhotoFile(row: row) { return file }
            }
            return nil
        }
        var file = try nextFile()
        var files: [CatalogPhotoFile] = []
        while let row = try photoRows.next() {
            let photo = try? CatalogPhoto(row: row)
            guard let path = photo?.path ?? row[0] as String? else { continue }
            // (Paths compared as SQLite orders them, byte by byte: two paths that differ only in
            // their Unicode normalisation are two photos.)
            while let current = file, current.photo.utf8.lexicographicallyPrecedes(path.utf8) { file = try nextFile() }
            files.removeAll(keepingCapacity: true)
            while let current = file, current.photo.utf8.elementsEqual(path.utf8) {
                files.append(current)
                file = try nextFile()
            }
            if let photo { records.append((path, Boxed(wrappedValue: photo.record(files: files)))) }
        }
        // Into the records as each range is done, while the others are read.
        photos.withLock { photos in
            for (path, record) in records { photos.set(path, boxed: record) }
        }
    }

    /// Writes the rows of `record`, the photo at `path`, in place of any the catalog holds.
    static func insert(_ record: BuildManifest.PhotoRecord, path: String, _ db: Database) throws {
        // (Deleting the photo's row deletes its images' rows.)
        try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?").execute(arguments: [path])
        try CatalogPhoto(path: path, record: record).insert(db)
        for file in CatalogPhoto.files(of: record, path: path) { try file.insert(db) }
    }

    /// What the last complete build recorded of itself; nil when none did, or when a build
    /// began since (``forgetLastBuild()``).
    package func lastBuild() -> LastBuild? {
        (try? database.read { db in try LastBuild.fetch(db) }) ?? nil
    }

    /// Forgets the last build's summary, before a build changes anything: a build that is
    /// stopped half way never leaves a stamp that says the site is complete.
    package func forgetLastBuild() throws(CatalogError) {
        try withRecovery { database in try database.write { db in try db.execute(sql: "DELETE FROM last_build") } }
    }

    /// Records a complete build's summary (written after everything it made is recorded).
    package func recordLastBuild(_ summary: LastBuild) throws(CatalogError) {
        // (After the catalog was set aside during this build, the new one holds only what the
        // build changed: no stamp says it is complete.)
        guard !replaced.load(ordering: .sequentiallyConsistent) else { return }
        try withRecovery { database in try database.write { db in try summary.save(db) } }
    }

    /// The output folder's files as the end of the last build that finished found them (each
    /// folder's sums and files' hashes, ``OutputFolder``); nil when no build recorded them, or
    /// when they cannot be read.
    ///
    /// A row that cannot be read is damage, as an unreadable page is: the catalog is set aside
    /// (``recover(damage:)``) and the build goes on without it. (The hashes of a folder with
    /// many files run over pages of their own, which SQLite does not check: damage there reads
    /// as a row whose hashes are not hashes. Left out, it would have its folder's every file
    /// taken for changed.)
    package func outputState() throws(CatalogError) -> [String: OutputFolder]? {
        struct Unreadable: Error, CustomStringConvertible {
            var path: String
            var description: String { "the output folder's record of \"\(path)\" cannot be read" }
        }
        do {
            return try database.read { db -> [String: OutputFolder]? in
                guard try String.fetchOne(db, sql: "SELECT stamp FROM output_state WHERE id = 1") != nil else { return nil }
                var folders: [String: OutputFolder] = [:]
                let rows = try Row.fetchCursor(db, sql: CatalogOutputFolder.selectSQL)
                while let row = try rows.next() {
                    guard let folder = try? CatalogOutputFolder(row: row) else { throw Unreadable(path: (row[0] as String?) ?? "?") }
                    folders[folder.path] = OutputFolder(sums: folder.sums, files: folder.files, subfolders: [])
                }
                return folders
            }
        } catch let error as Unreadable {
            try recover(damage: "\(error)")
            return nil
        } catch where Self.isDamage(error) {
            try recover(damage: "\(error)")
            return nil
        } catch {
            // (Busy, say: the build goes on without them, as without a catalog.)
            return nil
        }
    }

    /// What the search index holds of the photos of the album whose input key is `album`
    /// (``CatalogSearchPhoto``), in order, each with its filters and words; nil when the catalog
    /// has none or they cannot be read (they are then made again).
    package func searchDocuments(album: String) -> [(document: SearchDocument, words: [String])]? {
        let found = try? database.read { db -> [(document: SearchDocument, words: [String])]? in
            let photos = try CatalogSearchPhoto.fetchAll(
                db, sql: "SELECT " + CatalogSearchPhoto.columns.joined(separator: ", ") + " FROM search_photo WHERE album = ? ORDER BY position",
                arguments: [album])
            guard !photos.isEmpty, photos.enumerated().allSatisfy({ $0.offset == $0.element.position }) else { return nil }
            var filters = [[SearchFilter]](repeating: [], count: photos.count)
            let rows = try CatalogSearchFilter.fetchCursor(
                db, sql: "SELECT " + CatalogSearchFilter.columns.joined(separator: ", ") + " FROM search_filter WHERE album = ? ORDER BY position, number",
                arguments: [album])
            while let row = try rows.next() {
                guard filters.indices.contains(row.position) else { return nil }
                filters[row.position].append(SearchFilter(name: row.name, value: row.value))
            }
            return zip(photos, filters).map { $0.document(filters: $1) }
        }
        return found ?? nil
    }

    /// Keeps what the search index holds of the photos of `runs` (each of one album, by its
    /// input key, from its photo `first` on); a run from an album's first photo replaces
    /// anything kept under its key. (An album kept in part, by a build stopped between runs,
    /// is not taken: ``searchDocuments(album:)`` gives fewer photos than the album has.)
    package func saveSearchDocuments(_ runs: [SearchDocumentRun]) throws(CatalogError) {
        guard !runs.isEmpty else { return }
        try withRecovery { database in
            try database.write { db in
                // (Through prepared statements: a first build keeps every photo's row and its filters'.)
                let delete = try db.cachedStatement(sql: "DELETE FROM search_photo WHERE album = ?")
                let insertPhoto = try db.cachedStatement(sql: "INSERT INTO search_photo (" + CatalogSearchPhoto.columns.joined(separator: ", ")
                    + ") VALUES (" + CatalogSearchPhoto.columns.map { _ in "?" }.joined(separator: ", ") + ")")
                let insertFilter = try db.cachedStatement(sql: "INSERT INTO search_filter (" + CatalogSearchFilter.columns.joined(separator: ", ")
                    + ") VALUES (" + CatalogSearchFilter.columns.map { _ in "?" }.joined(separator: ", ") + ")")
                for run in runs {
                    if run.first == 0 { try delete.execute(arguments: [run.album]) }
                    for (offset, entry) in run.entries.enumerated() {
                        let position = run.first + offset
                        let row = CatalogSearchPhoto(album: run.album, position: position, document: entry.document, words: entry.words)
                        try insertPhoto.execute(arguments: [row.album, row.position, row.open, row.image, row.width, row.height,
                                                            row.title, row.date, row.words])
                        for (number, filter) in entry.document.filters.enumerated() {
                            try insertFilter.execute(arguments: [run.album, position, number, filter.name, filter.value])
                        }
                    }
                }
            }
        }
    }

    /// The XMP sidecars an earlier scan read, by the sidecar's path (none of them new); a row
    /// that cannot be read is left out (its sidecar is read again), and a catalog whose
    /// sidecars cannot be read at all gives none.
    package func sidecars() -> [String: ScannedSidecar] {
        let found = try? database.read { db -> [String: ScannedSidecar] in
            var sidecars: [String: ScannedSidecar] = [:]
            sidecars.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM sidecar") ?? 0)
            let rows = try Row.fetchCursor(db, sql: CatalogSidecar.selectSQL)
            while let row = try rows.next() {
                guard let sidecar = try? CatalogSidecar(row: row) else { continue }
                sidecars[sidecar.record.relativePath] = sidecar.record
            }
            return sidecars
        }
        return found ?? [:]
    }

    /// Keeps the sidecars a scan read from their files, `new`, and forgets every other sidecar
    /// but those at the paths of `keeping` (the scan's every sidecar, `new`'s among them).
    package func recordSidecars(_ new: [ScannedSidecar], keeping: Set<String>) throws(CatalogError) {
        try withRecovery { database in
            try database.write { db in
                let insert = try db.cachedStatement(sql: CatalogSidecar.insertSQL)
                var allKept = true
                for record in new {
                    guard let row = CatalogSidecar(record) else {
                        allKept = false
                        continue
                    }
                    try insert.execute(arguments: row.arguments)
                }
                // When each of `keeping` has its row, the rows are `keeping`'s if they are as
                // many: most rebuilds ask about no path.
                if allKept, try Int.fetchOne(db, sql: "SELECT count(*) FROM sidecar") == keeping.count { return }
                let stale = try String.fetchAll(db, sql: "SELECT path FROM sidecar").filter { !keeping.contains($0) }
                let delete = try db.cachedStatement(sql: "DELETE FROM sidecar WHERE path = ?")
                for path in stale { try delete.execute(arguments: [path]) }
            }
        }
    }

    /// The albums the search index in the site was made from, in its order
    /// (``recordSearchIndexAlbums(_:)``); nil when none are recorded or they cannot be read (the
    /// index is then made whole).
    package func searchIndexAlbums() -> [SearchIndexAlbum]? {
        let rows = try? database.read { db in
            try CatalogSearchIndexAlbum.fetchAll(
                db, sql: "SELECT " + CatalogSearchIndexAlbum.columns.joined(separator: ", ") + " FROM search_index_album ORDER BY position")
        }
        guard let rows, !rows.isEmpty, rows.enumerated().allSatisfy({ $0.offset == $0.element.position }) else { return nil }
        return rows.map(\.album)
    }

    /// Records the albums the search index in the site was made from, in its order, once its
    /// files are written; nil forgets them, before the first of another index's files is.
    package func recordSearchIndexAlbums(_ albums: [SearchIndexAlbum]?) throws(CatalogError) {
        try withRecovery { database in
            try database.write { db in
                try db.execute(sql: "DELETE FROM search_index_album")
                let insert = try db.cachedStatement(sql: "INSERT INTO search_index_album ("
                    + CatalogSearchIndexAlbum.columns.joined(separator: ", ") + ") VALUES (?, ?, ?, ?)")
                for (position, album) in (albums ?? []).enumerated() {
                    try insert.execute(arguments: [position, album.key, album.photos, album.words])
                }
            }
        }
    }

    /// Forgets what the search index held of the photos of every album whose input key is not
    /// in `keeping` (albums changed or gone since).
    package func forgetSearchDocuments(keeping: Set<String>) throws(CatalogError) {
        try withRecovery { database in
            try database.write { db in
                let stale = try String.fetchAll(db, sql: "SELECT DISTINCT album FROM search_photo").filter { !keeping.contains($0) }
                let delete = try db.cachedStatement(sql: "DELETE FROM search_photo WHERE album = ?")
                for album in stale { try delete.execute(arguments: [album]) }
            }
        }
    }

    /// Records the output folder's files as the end of a build found them (the stamp `hex` of
    /// `OutputStamp` and its `folders`, kept with their files), in one transaction: only the
    /// rows of the folders whose sums differ from the recorded ones are written (a one-photo
    /// change writes a handful), and nothing at all when the recorded stamp is the same.
    package func recordOutputState(hex: String, folders: [String: OutputFolder]) throws(CatalogError) {
        // (Damage met here sets the catalog aside too: ``withRecovery(_:)``.)
        try withRecovery { database in
            try database.write { db in
                let recorded = try String.fetchOne(db, sql: "SELECT stamp FROM output_state WHERE id = 1")
                guard recorded != hex else { return }
                // The recorded sums (a row that cannot be read is written again).
                var known: [String: [UInt64]] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT path, first_sum, second_sum, entries FROM output_folder")
                while let row = try rows.next() {
                    guard let path = row[0] as String?, let first = row[1] as Int64?, let second = row[2] as Int64?,
                          let entries = row[3] as Int64? else { continue }
                    known[path] = [UInt64(bitPattern: first), UInt64(bitPattern: second), UInt64(bitPattern: entries)]
                }
                let upsert = try db.cachedStatement(sql: CatalogOutputFolder.upsertSQL)
                for (path, folder) in folders where known[path] != folder.sums {
                    try upsert.execute(arguments: CatalogOutputFolder(path: path, sums: folder.sums, files: folder.files).arguments)
                }
                let delete = try db.cachedStatement(sql: "DELETE FROM output_folder WHERE path = ?")
                for path in known.keys where folders[path] == nil { try delete.execute(arguments: [path]) }
                try db.execute(sql: "INSERT OR REPLACE INTO output_state (id, stamp) VALUES (1, ?)", arguments: [hex])
            }
        }
    }

    /// Before a build writes anything: lists `files` as the tool's (so that what an interrupted
    /// build wrote is still known to be the tool's) and forgets the photo records at `photos`
    /// (whose files this build may replace: should it be interrupted, the next one makes them
    /// anew rather than trust them).
    package func prepare(addingFiles files: some Collection<String>, forgettingPhotos photos: some Collection<String>) throws(CatalogError) {
        guard !files.isEmpty || !photos.isEmpty else { return }
        try withRecovery { database in
            try database.write { db in
                try db.execute(sql: "DELETE FROM last_build")
                let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO file (path) VALUES (?)")
                for file in files { try insert.execute(arguments: [file]) }
                let delete = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
                for photo in photos { try delete.execute(arguments: [photo]) }
            }
        }
    }

    /// Records what a build made (`new`), writing only the rows that differ from what the
    /// catalog holds (`old`): nothing at all when nothing changed.
    package func save(_ new: BuildManifest, replacing old: BuildManifest) throws(CatalogError) {
        let changed = new.photos.filter { old.photos[$0.key] != $0.value }.map { ($0.key, $0.value) }
        try save(BuildRecord(files: MadeFiles(pages: Set(new.files)), pages: new.pages, photoPaths: Array(new.photos.keys), changedPhotos: changed),
                 replacing: CatalogState(files: old.files, pages: old.pages, photoPaths: Set(old.photos.keys)))
    }

    /// Records what a build made (``BuildRecord``), writing only the rows that differ from
    /// `old`, in one transaction.
    package func save(_ record: BuildRecord, replacing old: CatalogState) throws(CatalogError) {
        let (files, known, pages, pageChanges, photoPaths, changedPhotos) =
            (record.files, record.removedFiles, record.pages, record.pageChanges, record.photoPaths, record.changedPhotos)
        // A catalog set aside during this build was replaced by an empty one: everything is new to it.
        if replaced.load(ordering: .sequentiallyConsistent), !(old.files.isEmpty && old.pages.isEmpty && old.photoPaths.isEmpty) {
            return try save(record.everythingNew, replacing: CatalogState(files: [], pages: [:], photoPaths: []))
        }
        // The three comparisons (each over a large library's hundreds of thousands of entries)
        // on as many cores.
        let ((addedFiles, removedFiles), (changedPages, removedPages), removedPhotos) = parallel({
            // The files of a rebuild are mostly those of the build before: asking the new set
            // about each old file is much cheaper than making a set of the old ones.
            let removed = known ?? old.files.filter { !files.contains($0) }
            // (`old.files` lists each file once, so that it shares `old.files.count - removed.count`
            // files with `files`: when that is all of `files`, none was added.)
            guard old.files.count - removed.count != files.count else { return ([String](), removed) }
            let oldFiles = Set(old.files)
            return (files.filter { !oldFiles.contains($0) }, removed)
        }, {
            pageChanges.map { ($0.changed, $0.removed) }
                ?? (pages.filter { old.pages[$0.key] != $0.value }.map { ($0.key, $0.value) }, old.pages.keys.filter { pages[$0] == nil })
        }, {
            // As with the files: when every old photo is among the new ones, none was removed
            // (asking the old set about each new path is cheaper than making a set of them).
            let kept = photoPaths.reduce(0) { count, path in old.photoPaths.contains(path) ? count + 1 : count }
            return kept == old.photoPaths.count ? [] : old.photoPaths.subtracting(photoPaths)
        })
        guard !(addedFiles.isEmpty && removedFiles.isEmpty && changedPages.isEmpty && removedPages.isEmpty
            && changedPhotos.isEmpty && removedPhotos.isEmpty)
        else { return }
        do {
            try database.write { db in
                // The last build's summary holds only while the catalog holds what that build made.
                try db.execute(sql: "DELETE FROM last_build")
                let insertFile = try db.cachedStatement(sql: "INSERT OR IGNORE INTO file (path) VALUES (?)")
                for file in addedFiles { try insertFile.execute(arguments: [file]) }
                let deleteFile = try db.cachedStatement(sql: "DELETE FROM file WHERE path = ?")
                for file in removedFiles { try deleteFile.execute(arguments: [file]) }
                let upsertPage = try db.cachedStatement(sql: "INSERT OR REPLACE INTO page (path, fingerprint) VALUES (?, ?)")
                for (page, key) in changedPages { try upsertPage.execute(arguments: [page, key]) }
                let deletePage = try db.cachedStatement(sql: "DELETE FROM page WHERE path = ?")
                for page in removedPages { try deletePage.execute(arguments: [page]) }
                for (photo, record) in changedPhotos { try Self.insert(record, path: photo, db) }
                let deletePhoto = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
                for photo in removedPhotos { try deletePhoto.execute(arguments: [photo]) }
            }
        } catch {
            try recover(from: error)
            try save(record.everythingNew, replacing: CatalogState(files: [], pages: [:], photoPaths: []))
        }
    }
}

/// What a build tells the catalog it made (``Catalog/save(_:replacing:)``): its files, its
/// pages' fingerprints, the paths of its photos and the records that differ from the catalog's
/// (a large library's build does not hold both every old and every new record to compare them).
package struct BuildRecord: Sendable {
    package var files: MadeFiles
    /// The catalog's files that `files` lacks, when the build knows them (the sweep does).
    package var removedFiles: [String]?
    package var pages: [String: String]
    /// The pages of `pages` whose fingerprint the catalog lacks or differs, and the catalog's
    /// pages that `pages` lacks, when the build knows them.
    package var pageChanges: (changed: [(String, String)], removed: [String])?
    /// Each photo once.
    package var photoPaths: [String]
    package var changedPhotos: [(String, BuildManifest.PhotoRecord)]

    package init(files: MadeFiles, removedFiles: [String]? = nil, pages: [String: String],
         pageChanges: (changed: [(String, String)], removed: [String])? = nil, photoPaths: [String],
         changedPhotos: [(String, BuildManifest.PhotoRecord)]) {
        (self.files, self.removedFiles, self.pages, self.pageChanges, self.photoPaths, self.changedPhotos) =
            (files, removedFiles, pages, pageChanges, photoPaths, changedPhotos)
    }

    /// The same build told to an empty catalog: every file, page and photo is new to it.
    package var everythingNew: BuildRecord {
        BuildRecord(files: files, pages: pages, photoPaths: photoPaths, changedPhotos: changedPhotos)
    }
}

/// What the catalog holds, the photos' records but for their paths: what a build compares its
/// own files, pages and photos with when it saves.
package struct CatalogState: Sendable {
    /// Each file once.
    package var files: [String]
    package var pages: [String: String]
    package var photoPaths: Set<String>

    package init(files: [String], pages: [String: String], photoPaths: Set<String>) {
        self.files = files
        self.pages = pages
        self.photoPaths = photoPaths
    }
}
