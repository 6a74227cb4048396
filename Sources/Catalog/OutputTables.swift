import GRDB

// The output folder as the end of the last build found it (`OutputStamp` in `SiteGenerator`): its stamp in the
// one row of `output_state`, each folder's record in a row of `output_folder`. The next build
// compares a walk of the site with these rows to find the files changed since (an edited page,
// a truncated image), which it makes again. A large site has thousands of folders and half a
// million files: the rows are read through a cursor with a hand-written `init(row:)`, and a
// build writes, in one transaction through prepared statements, only the folders whose sums
// changed (``Catalog/recordOutputState(hex:folders:)``).

/// A row of the `output_folder` table: one folder of the site by its path relative to the site
/// ("" for the site's own folder), the two hash sums over its entries and their number, and the
/// hashes of its regular files.
struct CatalogOutputFolder: FetchableRecord, TableRecord, Sendable, Equatable {
    static let databaseTableName = "output_folder"
    /// The columns, in the order `init(row:)` reads them.
    static let columns = ["path", "first_sum", "second_sum", "entries", "files"]
    static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }
    static let selectSQL = "SELECT " + columns.joined(separator: ", ") + " FROM output_folder"
    static let insertSQL = "INSERT INTO output_folder (" + columns.joined(separator: ", ") + ") VALUES (?, ?, ?, ?, ?)"
    static let upsertSQL = "INSERT OR REPLACE" + insertSQL.dropFirst("INSERT".count)

    static let createSQL = """
        CREATE TABLE output_folder (
            path TEXT PRIMARY KEY NOT NULL,
            first_sum INTEGER NOT NULL,
            second_sum INTEGER NOT NULL,
            entries INTEGER NOT NULL CHECK (entries >= 0),
            files TEXT NOT NULL
        ) WITHOUT ROWID
        """

    var path: String
    /// The sums, as the walk adds them (wrapping), and the number of entries.
    var sums: [UInt64]
    /// Its regular files' hashes, ascending.
    var files: [UInt64]

    init(path: String, sums: [UInt64], files: [UInt64]) {
        (self.path, self.sums, self.files) = (path, sums, files)
    }

    /// The row's values in the order of ``columns``. (SQLite's integers are signed: a sum is
    /// kept as its bit pattern; the files as their hashes in hexadecimal, 16 digits each,
    /// separated by a space, which `sqlite3` shows as they are.)
    var arguments: StatementArguments {
        [path, Int64(bitPattern: sums[0]), Int64(bitPattern: sums[1]), Int64(bitPattern: sums[2]), Self.text(files)]
    }

    init(row: Row) throws {
        path = try row.decode(String.self, atIndex: 0)
        sums = [
            UInt64(bitPattern: try row.decode(Int64.self, atIndex: 1)),
            UInt64(bitPattern: try row.decode(Int64.self, atIndex: 2)),
            UInt64(bitPattern: try row.decode(Int64.self, atIndex: 3)),
        ]
        guard let files = Self.hashes(try row.decode(String.self, atIndex: 4)) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "output_folder \(path): files are not hashes")
        }
        self.files = files
    }

    /// `hashes` as the `files` column holds them. (Byte by byte into one buffer, and back
    /// through a table: a large site's rows hold over half a million hashes, written after
    /// every build and read before every one that is not up to date.)
    static func text(_ hashes: [UInt64]) -> String {
        guard !hashes.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: hashes.count * 17 - 1) { buffer in
            var offset = 0
            for hash in hashes {
                if offset > 0 {
                    buffer[offset] = UInt8(ascii: " ")
                    offset += 1
                }
                var value = hash
                for index in stride(from: offset + 15, through: offset, by: -1) {
                    let digit = UInt8(truncatingIfNeeded: value & 0xf)
                    buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
                    value >>= 4
                }
                offset += 16
            }
            return offset
        }
    }

    /// Each byte's value as a hexadecimal digit (lowercase), or 0x80 for any other byte.
    private static let digitValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        default: 0x80
        }
    }

    /// The hashes of a `files` column; nil when it is not 16 hexadecimal digits (lowercase) a
    /// hash, separated by single spaces.
    static func hashes(_ text: String) -> [UInt64]? {
        var text = text
        return text.withUTF8 { bytes -> [UInt64]? in
            guard !bytes.isEmpty else { return [] }
            guard bytes.count % 17 == 16 else { return nil }
            let count = (bytes.count + 1) / 17
            var valid = true
            let hashes = digitValues.withUnsafeBufferPointer { values in
                [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
                    var offset = 0
                    for index in 0..<count {
                        if index > 0, bytes[offset - 1] != UInt8(ascii: " ") { valid = false }
                        var value: UInt64 = 0
                        var invalid: UInt8 = 0
                        for byte in UnsafeBufferPointer(rebasing: bytes[offset..<offset + 16]) {
                            let digit = values[Int(byte)]
                            invalid |= digit
                            value = value << 4 | UInt64(digit & 0xf)
                        }
                        if invalid & 0x80 != 0 { valid = false }
                        buffer[index] = value
                        offset += 17
                    }
                    initialized = count
                }
            }
            return valid ? hashes : nil
        }
    }
}

/// What a walk of the output folder found in one folder (`OutputStamp.Folder`), as the catalog
/// keeps it (``CatalogOutputFolder``).
package struct OutputFolder: Sendable, Equatable {
    /// The sums over its own entries: the two hash totals and their number.
    package var sums: [UInt64]
    /// The first hash of each of its regular files (path, size and modification time), ascending; empty
    /// unless the walk was asked to keep them.
    package var files: [UInt64]
    /// The names of its sub-folders.
    package var subfolders: [String]

    package init(sums: [UInt64], files: [UInt64], subfolders: [String]) {
        self.sums = sums
        self.files = files
        self.subfolders = subfolders
    }
}
