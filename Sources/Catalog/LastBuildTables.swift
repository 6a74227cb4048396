import GRDB

// The last complete build's summary (``LastBuild``) as three tables of plain columns: `last_build`,
// one row of counts and the build's stamp; `last_build_event`, what its scan reported, in
// order; and `last_build_folder`, the fingerprint of each photo folder's inputs. Deleting the
// summary's row deletes its events and folders (`ON DELETE CASCADE`).

/// The row of the `last_build` table.
struct CatalogLastBuild: FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "last_build"

    static let createSQL = """
        CREATE TABLE last_build (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            inputs TEXT NOT NULL,
            output TEXT NOT NULL,
            scanned_photos INTEGER NOT NULL,
            scanned_albums INTEGER NOT NULL,
            albums INTEGER NOT NULL,
            photos INTEGER NOT NULL,
            videos INTEGER NOT NULL,
            pages INTEGER NOT NULL
        )
        """

    var summary: LastBuild

    init(summary: LastBuild) {
        self.summary = summary
    }

    init(row: Row) {
        summary = LastBuild(
            stamp: BuildStamp(inputs: row["inputs"], output: row["output"]),
            scannedPhotos: row["scanned_photos"], scannedAlbums: row["scanned_albums"],
            albums: row["albums"], photos: row["photos"], videos: row["videos"], pages: row["pages"], events: [])
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = 1
        container["inputs"] = summary.stamp.inputs
        container["output"] = summary.stamp.output
        container["scanned_photos"] = summary.scannedPhotos
        container["scanned_albums"] = summary.scannedAlbums
        container["albums"] = summary.albums
        container["photos"] = summary.photos
        container["videos"] = summary.videos
        container["pages"] = summary.pages
    }
}

/// A row of the `last_build_event` table: a warning, or a file the scan skipped.
struct CatalogLastBuildEvent: FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "last_build_event"

    static let createSQL = """
        CREATE TABLE last_build_event (
            position INTEGER PRIMARY KEY,
            build INTEGER NOT NULL DEFAULT 1 REFERENCES last_build(id) ON DELETE CASCADE,
            warning TEXT,
            path TEXT,
            reason TEXT,
            line INTEGER,
            CHECK ((warning IS NULL) = (path IS NOT NULL) AND (path IS NULL) = (reason IS NULL))
        )
        """

    var position: Int
    var event: LastBuild.Event

    init(position: Int, event: LastBuild.Event) {
        (self.position, self.event) = (position, event)
    }

    /// What a row the schema allows but no build writes cannot say (a catalog edited by hand).
    struct Unreadable: Error {}

    init(row: Row) throws {
        position = row["position"]
        if let text = row["warning"] as String? {
            event = .warning(text)
        } else if let path = row["path"] as String?, let reason = row["reason"] as String? {
            event = .skipped(path: path, reason: reason, line: row["line"])
        } else {
            throw Unreadable()
        }
    }

    func encode(to container: inout PersistenceContainer) {
        container["position"] = position
        container["build"] = 1
        switch event {
        case .warning(let text):
            container["warning"] = text
        case .skipped(let path, let reason, let line):
            container["path"] = path
            container["reason"] = reason
            container["line"] = line
        }
    }
}

/// The `last_build_folder` table: a photo folder's path (relative, `""` for the photo folder
/// itself) and the fingerprint of its inputs (``LastBuild/folders``).
enum CatalogLastBuildFolder {
    static let createSQL = """
        CREATE TABLE last_build_folder (
            path TEXT PRIMARY KEY NOT NULL,
            fingerprint TEXT NOT NULL,
            build INTEGER NOT NULL DEFAULT 1 REFERENCES last_build(id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """
}

extension LastBuild {
    /// The summary the catalog holds, or nil when it holds none.
    static func fetch(_ db: Database) throws -> LastBuild? {
        guard var summary = try CatalogLastBuild.fetchOne(db, sql: "SELECT * FROM last_build WHERE id = 1")?.summary else { return nil }
        summary.events = try CatalogLastBuildEvent.fetchAll(db, sql: "SELECT * FROM last_build_event ORDER BY position").map(\.event)
        let folders = try Row.fetchCursor(db, sql: "SELECT path, fingerprint FROM last_build_folder")
        while let row = try folders.next() { summary.folders[row[0]] = row[1] as String }
        return summary
    }

    /// Writes the summary in place of any the catalog holds.
    func save(_ db: Database) throws {
        // (Every table emptied: a connection without foreign keys, sqlite3's by default, may have
        // deleted the summary and left its events and folders.)
        try db.execute(sql: "DELETE FROM last_build_event; DELETE FROM last_build_folder; DELETE FROM last_build")
        try CatalogLastBuild(summary: self).insert(db)
        for (position, event) in events.enumerated() { try CatalogLastBuildEvent(position: position, event: event).insert(db) }
        let insert = try db.cachedStatement(sql: "INSERT INTO last_build_folder (path, fingerprint) VALUES (?, ?)")
        for (path, fingerprint) in folders { try insert.execute(arguments: [path, fingerprint]) }
    }
}
