import Gallery
import GRDB
import Imaging

// The fields of each XMP sidecar as a scan read them, kept by the sidecar's path and identity:
// a rebuild takes an unchanged sidecar's fields from here rather than parsing it again (a
// library with a sidecar per photo parsed 100,000 of them for a one-photo change). Editing a
// sidecar changes its identity, so it is read anew; rows of sidecars no longer read are deleted
// (``Catalog/recordSidecars(_:keeping:)``). A sidecar is the scan's own record of it
// (`ScannedSidecar`); one the catalog gives back is not new (`isNew` false).

/// A row of the `sidecar` table: a `ScannedSidecar` (but for `isNew`) as plain columns. A list (keywords, people,
/// the fields' problems) is its items, each ended by U+001F, which XML (so XMP) cannot hold;
/// a record with a text XML cannot hold is not kept (``init(_:)``).
struct CatalogSidecar: FetchableRecord, TableRecord, Sendable, Equatable {
    static let databaseTableName = "sidecar"

    /// The columns, in the order `init(row:)` reads them.
    static let columns = [
        "path", "size", "modification_time", "change_time", "inode", "title", "description", "keywords", "rating",
        "date_taken", "creator", "rights", "people", "sublocation", "city", "state", "country", "field_problems",
    ]
    static let selectSQL = "SELECT " + columns.joined(separator: ", ") + " FROM sidecar"
    static let insertSQL = "INSERT OR REPLACE INTO sidecar (" + columns.joined(separator: ", ") + ") VALUES ("
        + columns.map { _ in "?" }.joined(separator: ", ") + ")"

    static let createSQL = """
        CREATE TABLE sidecar (
            path TEXT PRIMARY KEY NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            modification_time REAL NOT NULL,
            change_time REAL NOT NULL,
            inode INTEGER NOT NULL,
            title TEXT,
            description TEXT,
            keywords TEXT,
            rating INTEGER CHECK (rating BETWEEN -1 AND 5),
            date_taken TEXT,
            creator TEXT,
            rights TEXT,
            people TEXT,
            sublocation TEXT,
            city TEXT,
            state TEXT,
            country TEXT,
            field_problems TEXT
        ) WITHOUT ROWID
        """

    var record: ScannedSidecar

    /// The row of `record`; nil when a text of it holds a character XML cannot (U+001F, NUL),
    /// which no sidecar read from a file does, or a rating out of range: it could not be kept
    /// as it is.
    init?(_ record: ScannedSidecar) {
        let fields = record.fields
        let texts = [fields.title, fields.description, fields.dateTaken, fields.creator, fields.rights, fields.sublocation,
                     fields.city, fields.state, fields.country].compactMap { $0 }
            + (fields.keywords ?? []) + (fields.people ?? []) + (fields.fieldProblems ?? [])
        guard !texts.contains(where: { $0.unicodeScalars.contains { $0 == "\u{1F}" || $0 == "\0" } }),
              fields.rating.map({ (-1...5).contains($0) }) ?? true
        else { return nil }
        self.record = record
    }

    init(row: Row) throws {
        let path = try row.decode(String.self, atIndex: 0)
        let inode = try row.decode(Int64.self, atIndex: 4)
        let identity = FileIdentity(
            size: try row.decode(Int.self, atIndex: 1), modificationTime: try row.decode(Double.self, atIndex: 2),
            changeTime: try row.decode(Double.self, atIndex: 3), inode: UInt64(bitPattern: inode))
        var fields = XMPMetadata(title: row[5], description: row[6], keywords: Self.list(row[7]), rating: row[8],
                                 dateTaken: row[9], creator: row[10])
        fields.rights = row[11]
        fields.people = Self.list(row[12])
        (fields.sublocation, fields.city, fields.state, fields.country) = (row[13], row[14], row[15], row[16])
        fields.fieldProblems = Self.list(row[17])
        record = ScannedSidecar(relativePath: path, identity: identity, fields: fields, isNew: false)
    }

    /// The row's values, in the order of ``columns``.
    var arguments: StatementArguments {
        let (identity, fields) = (record.identity, record.fields)
        return [
            record.relativePath, identity.size, identity.modificationTime, identity.changeTime, Int64(bitPattern: identity.inode),
            fields.title, fields.description, Self.text(fields.keywords), fields.rating, fields.dateTaken, fields.creator,
            fields.rights, Self.text(fields.people), fields.sublocation, fields.city, fields.state, fields.country,
            Self.text(fields.fieldProblems),
        ]
    }

    /// A list as the column keeps it: each item ended by U+001F.
    static func text(_ list: [String]?) -> String? {
        list.map { $0.map { $0 + "\u{1F}" }.joined() }
    }

    /// The list ``text(_:)`` kept.
    static func list(_ text: String?) -> [String]? {
        guard let text else { return nil }
        // Every item is ended by the separator: what follows the last one is nothing. (Cut on
        // the bytes: a split by Characters was most of reading a large library's sidecars.)
        return text.utf8.split(separator: 0x1F, omittingEmptySubsequences: false).dropLast().map { String(Substring($0)) }
    }
}
