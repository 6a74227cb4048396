import Foundation
import Gallery
import GRDB
import Imaging
import Synchronization

/// What earlier builds of one output folder made, and from what: a SQLite database (through
/// GRDB) kept outside the site, by default in the user's cache folder
/// (`$XDG_CACHE_HOME/cascade/catalogs/`, keyed by the output folder's real path).
///
/// It lists every file the tool made (nothing else is ever deleted or written over), each
/// photo's images with what they were made from (content hash, file identity, settings), and
/// each page's fingerprint. It changes row by row in transactions: a rebuild with nothing to do
/// writes nothing. A lost or damaged catalog makes the next build slower, never wrong: nothing
/// it does not list is deleted or replaced.
final class Catalog: Sendable {
    /// The database file.
    let path: String
    private let database: DatabaseQueue

    /// Where the catalog of the output folder `output` (absolute, real) goes by default.
    static func defaultPath(output: String) -> String {
        cacheFolder() + "/catalogs/" + key(output: output) + ".sqlite"
    }

    /// `$XDG_CACHE_HOME/cascade`, else `~/.cache/cascade`.
    static func cacheFolder() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/cascade" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/cascade"
    }

    /// A file name for the output folder: its last component (readable) and a hash of its path.
    static func key(output: String) -> String {
        var hasher = FingerprintHasher()
        hasher.combine(output)
        let name = SlugAllocator.slug((output as NSString).lastPathComponent)
        return (name.isEmpty ? "site" : String(name.prefix(40))) + "-" + hasher.hex
    }

    /// Opens (or creates) the catalog at `path`. A file that is not a catalog of this version
    /// is reported through `warning`, set aside as `path.damaged` and replaced by an empty one.
    init(path: String, warning: (String) -> Void) throws(SiteError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw .catalog(path: path, reason: (error as NSError).localizedDescription)
        }
        do {
            database = try Self.openDatabase(path)
        } catch {
            warning("the catalog \(path) cannot be read (\(error)); it is set aside as \(path).damaged and every image is made anew (no file is deleted)")
            try? FileManager.default.removeItem(atPath: path + ".damaged")
            do {
                try FileManager.default.moveItem(atPath: path, toPath: path + ".damaged")
                for suffix in ["-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                database = try Self.openDatabase(path)
            } catch {
                throw .catalog(path: path, reason: "\(error)")
            }
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
        // Photo records were JSON before version 2; they are rewritten once in the compact form.
        migrator.registerMigration("v2 compact records") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT path, record FROM photo")
            let update = try db.cachedStatement(sql: "UPDATE photo SET record = ? WHERE path = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
            for row in rows {
                let path: String = row[0]
                if let record = Catalog.decodeRecord(row[1]) {
                    try update.execute(arguments: [try RecordCoder.encode(record), path])
                } else {
                    try delete.execute(arguments: [path])
                }
            }
        }
        // What the last complete build found and made, with its stamp (``BuildStamp``).
        migrator.registerMigration("v3 last build") { db in
            try db.execute(sql: "CREATE TABLE last_build (id INTEGER PRIMARY KEY CHECK (id = 1), summary BLOB NOT NULL)")
        }
        // Each made file's state (path and identity) as the end of the last build found it
        // (``OutputStamp``): a file changed since is made again.
        migrator.registerMigration("v4 output state") { db in
            try db.execute(sql: "CREATE TABLE output_state (id INTEGER PRIMARY KEY CHECK (id = 1), stamp TEXT NOT NULL, folders BLOB NOT NULL)")
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
    func snapshot() throws(SiteError) -> BuildManifest {
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
    func snapshotAndFileSet(
        fileSet wantsSet: Bool, likelyPaths: (sample: [String], count: Int)? = nil
    ) throws(SiteError) -> (manifest: BuildManifest, files: Set<String>) {
        try Self.snapshotAndFileSet(path: path, counting: database, fileSet: wantsSet, likelyPaths: likelyPaths)
    }

    /// ``snapshotAndFileSet(fileSet:likelyPaths:)`` of the catalog at `path`, counting its
    /// photos (without `likelyPaths`) on the connection `counting`.
    static func snapshotAndFileSet(
        path: String, counting database: DatabaseQueue, fileSet wantsSet: Bool, likelyPaths: (sample: [String], count: Int)? = nil
    ) throws(SiteError) -> (manifest: BuildManifest, files: Set<String>) {
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
            let reads = try parallelMap(parts, jobs: ProcessInfo.processInfo.activeProcessorCount) { [path] part throws(SiteError) -> Read in
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
                            // A record that cannot be decoded is left out (its photo is made anew).
                            var records: [(String, Boxed<BuildManifest.PhotoRecord>)] = []
                            let rows = try Row.fetchCursor(
                                db, sql: "SELECT path, record FROM photo WHERE (?1 IS NULL OR path >= ?1) AND (?2 IS NULL OR path < ?2)",
                                arguments: [from, to])
                            while let row = try rows.next() {
                                let bytes: Data = row[1]
                                if let record = Self.decodeRecord(bytes) { records.append((row[0], Boxed(wrappedValue: record))) }
                            }
                            // Into the records as each range is done, while the others are decoded.
                            photos.withLock { photos in
                                for (path, record) in records { photos.set(path, boxed: record) }
                            }
                            return .photos
                        }
                    }
                } catch {
                    throw .catalog(path: path, reason: "\(error)")
                }
            }
            for case .filesAndPages(let files, let set, let pages) in reads { (manifest.files, fileSet, manifest.pages) = (files, set, pages) }
            // (Taken out of the lock, not copied: the lock keeps no reference to them.)
            manifest.photos = photos.withLock { photos in
                defer { photos = PhotoRecords() }
                return photos
            }
        } catch let error as SiteError {
            throw error
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
        return (manifest, fileSet)
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

    /// A photo record as the catalog stores it: in ``RecordCoder``'s form, or as JSON (what the
    /// catalogs of earlier versions hold); nil when it is neither.
    static func decodeRecord(_ data: Data) -> BuildManifest.PhotoRecord? {
        if data.first == UInt8(ascii: "{") { return try? JSONDecoder().decode(BuildManifest.PhotoRecord.self, from: data) }
        return try? RecordCoder.decodeRecord(BuildManifest.PhotoRecord.self, from: data)
    }

    /// What the last complete build recorded of itself; nil when none did, or when a build
    /// began since (``forgetLastBuild()``).
    func lastBuild() -> LastBuild? {
        let data = try? database.read { db in try Data.fetchOne(db, sql: "SELECT summary FROM last_build WHERE id = 1") }
        return data.flatMap { try? JSONDecoder().decode(LastBuild.self, from: $0) }
    }

    /// Forgets the last build's summary, before a build changes anything: a build that is
    /// stopped half way never leaves a stamp that says the site is complete.
    func forgetLastBuild() throws(SiteError) {
        do {
            try database.write { db in try db.execute(sql: "DELETE FROM last_build") }
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
    }

    /// Records a complete build's summary (written after everything it made is recorded).
    func recordLastBuild(_ summary: LastBuild) throws(SiteError) {
        do {
            let data = try JSONEncoder().encode(summary)
            try database.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO last_build (id, summary) VALUES (1, ?)", arguments: [data])
            }
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
    }

    /// The output folder's files as the end of the last build that finished found them (each
    /// folder's sums and files' hashes, ``OutputStamp``); nil when no build recorded them.
    func outputState() -> [String: OutputStamp.Folder]? {
        let data = try? database.read { db in try Data.fetchOne(db, sql: "SELECT folders FROM output_state WHERE id = 1") }
        return data.flatMap { OutputStamp.decode([UInt8]($0)) }
    }

    /// Records the output folder's files as the end of a build found them (`stamp`'s folders,
    /// kept with their files); nothing is written when the recorded stamp is the same.
    func recordOutputState(_ stamp: OutputStamp) throws(SiteError) {
        do {
            let recorded = try database.read { db in try String.fetchOne(db, sql: "SELECT stamp FROM output_state WHERE id = 1") }
            guard recorded != stamp.hex else { return }
            let data = Data(OutputStamp.encode(stamp.folders))
            try database.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO output_state (id, stamp, folders) VALUES (1, ?, ?)", arguments: [stamp.hex, data])
            }
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
    }

    /// Before a build writes anything: lists `files` as the tool's (so that what an interrupted
    /// build wrote is still known to be the tool's) and forgets the photo records at `photos`
    /// (whose files this build may replace: should it be interrupted, the next one makes them
    /// anew rather than trust them).
    func prepare(addingFiles files: some Collection<String>, forgettingPhotos photos: some Collection<String>) throws(SiteError) {
        guard !files.isEmpty || !photos.isEmpty else { return }
        do {
            try database.write { db in
                try db.execute(sql: "DELETE FROM last_build")
                let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO file (path) VALUES (?)")
                for file in files { try insert.execute(arguments: [file]) }
                let delete = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
                for photo in photos { try delete.execute(arguments: [photo]) }
            }
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
    }

    /// Records what a build made (`new`), writing only the rows that differ from what the
    /// catalog holds (`old`): nothing at all when nothing changed.
    func save(_ new: BuildManifest, replacing old: BuildManifest) throws(SiteError) {
        let changed = new.photos.filter { old.photos[$0.key] != $0.value }.map { ($0.key, $0.value) }
        try save(files: MadeFiles(pages: Set(new.files)), pages: new.pages, photoPaths: Array(new.photos.keys), changedPhotos: changed,
                 replacing: CatalogState(files: old.files, pages: old.pages, photoPaths: Set(old.photos.keys)))
    }

    /// Records what a build made: its files, its pages' fingerprints, the paths of its photos
    /// and the records that differ from the catalog's (a large library's build does not hold
    /// both every old and every new record to compare them), writing only the rows that differ
    /// from `old`.
    ///
    /// `removedFiles`, when the caller knows them, are the files of `old` that `files` lacks;
    /// `pageChanges`, the pages of `pages` whose fingerprint `old` lacks or differs, and the
    /// pages of `old` that `pages` lacks; `photoPaths` lists each photo once.
    func save(
        files: MadeFiles, removedFiles known: [String]? = nil, pages: [String: String],
        pageChanges: (changed: [(String, String)], removed: [String])? = nil, photoPaths: [String],
        changedPhotos: [(String, BuildManifest.PhotoRecord)], replacing old: CatalogState
    ) throws(SiteError) {
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
                let upsertPhoto = try db.cachedStatement(sql: "INSERT OR REPLACE INTO photo (path, record) VALUES (?, ?)")
                for (photo, record) in changedPhotos { try upsertPhoto.execute(arguments: [photo, try RecordCoder.encode(record)]) }
                let deletePhoto = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
                for photo in removedPhotos { try deletePhoto.execute(arguments: [photo]) }
            }
        } catch {
            throw .catalog(path: path, reason: "\(error)")
        }
    }
}

/// What the catalog holds, the photos' records but for their paths: what a build compares its
/// own files, pages and photos with when it saves.
struct CatalogState: Sendable {
    /// Each file once.
    var files: [String]
    var pages: [String: String]
    var photoPaths: Set<String>
}
