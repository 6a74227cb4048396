import GRDB

// What the search index holds of each photo, kept in the catalog by its album's input key
// (``PageRenderer/inputKey(album:siteKey:)``, which covers every field of it): a rebuild takes an
// unchanged album's photos from here instead of making their documents again, so the index's
// cost follows the albums that changed. Rows of albums no longer in the site are deleted when
// the index is made. (Rows are written through prepared statements, ``Catalog/saveSearchDocuments(_:)``:
// a first build writes every photo's.)

/// A row of the `search_photo` table: one photo of an album, at its place in the album, as the
/// search index holds it (``SearchDocument``, but for the album's number, which is the site's,
/// and the texts, which are kept as their words).
struct CatalogSearchPhoto: FetchableRecord, TableRecord, Sendable, Equatable {
    static let databaseTableName = "search_photo"
    static let columns = ["album", "position", "open", "image", "width", "height", "title", "date", "words"]
    static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }

    static let createSQL = """
        CREATE TABLE search_photo (
            album TEXT NOT NULL,
            position INTEGER NOT NULL CHECK (position >= 0),
            open TEXT NOT NULL,
            image TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            title TEXT NOT NULL,
            date TEXT NOT NULL,
            words TEXT NOT NULL,
            PRIMARY KEY (album, position)
        ) WITHOUT ROWID
        """

    /// The album's input key.
    var album: String
    /// The photo's place in the album, from 0.
    var position: Int
    var open: String
    var image: String
    var width: Int
    var height: Int
    var title: String
    var date: String
    /// Its distinct folded words (``SearchIndexBuilder/words(of:)``), in order, separated by a
    /// space (a word is letters and digits only).
    var words: String

    init(album: String, position: Int, document: SearchDocument, words: [String]) {
        (self.album, self.position) = (album, position)
        (open, image, width, height) = (document.open, document.image, document.width, document.height)
        (title, date, self.words) = (document.title, document.date, words.joined(separator: " "))
    }

    init(row: Row) throws {
        // (By position, in the order of `columns`, as ``CatalogPhoto/init(row:)``.)
        album = try row.decode(String.self, atIndex: 0)
        position = try row.decode(Int.self, atIndex: 1)
        open = try row.decode(String.self, atIndex: 2)
        image = try row.decode(String.self, atIndex: 3)
        width = try row.decode(Int.self, atIndex: 4)
        height = try row.decode(Int.self, atIndex: 5)
        title = try row.decode(String.self, atIndex: 6)
        date = try row.decode(String.self, atIndex: 7)
        words = try row.decode(String.self, atIndex: 8)
    }


    /// The photo's document with `filters` (its album's number is 0: the caller's to set) and
    /// its words.
    func document(filters: [SearchFilter]) -> (document: SearchDocument, words: [String]) {
        let document = SearchDocument(open: open, image: image, width: width, height: height, title: title, album: 0,
                                      date: date, texts: [], filters: filters)
        return (document, words.isEmpty ? [] : words.split(separator: " ").map(String.init))
    }
}

/// A row of the `search_filter` table: one filter a photo of `search_photo` belongs to, at its
/// place among the photo's filters. Deleting the photo's row deletes its filters' rows.
struct CatalogSearchFilter: FetchableRecord, TableRecord, Sendable, Equatable {
    static let databaseTableName = "search_filter"
    static let columns = ["album", "position", "number", "name", "value"]
    static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }

    static let createSQL = """
        CREATE TABLE search_filter (
            album TEXT NOT NULL,
            position INTEGER NOT NULL,
            number INTEGER NOT NULL CHECK (number >= 0),
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (album, position, number),
            FOREIGN KEY (album, position) REFERENCES search_photo(album, position) ON DELETE CASCADE
        ) WITHOUT ROWID
        """

    var album: String
    var position: Int
    var number: Int
    var name: String
    var value: String

    init(row: Row) throws {
        album = try row.decode(String.self, atIndex: 0)
        position = try row.decode(Int.self, atIndex: 1)
        number = try row.decode(Int.self, atIndex: 2)
        name = try row.decode(String.self, atIndex: 3)
        value = try row.decode(String.self, atIndex: 4)
    }

}
