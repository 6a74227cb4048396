import GRDB

// What the search index in the site was made from, album by album in the index's order
// (``SearchIndexAlbum``): a rebuild whose albums' words and filters are all as they were
// rewrites only the index's record files that hold a changed photo, and its entry file, instead
// of making the whole index again. Recorded once every file of an index is written, forgotten
// before the first is: a build stopped in between leaves none, and the next build makes the
// whole index.

/// One album of the search index as it was made: its input key
/// (``PageRenderer/inputKey(album:siteKey:)`` in `SiteGenerator`), its number of photos and the
/// fingerprint of its photos' words and filters in order (which, with the language, decide every
/// file of the index but the photos' records and the entry file).
package struct SearchIndexAlbum: Sendable, Equatable {
    package var key: String
    package var photos: Int
    package var words: String

    package init(key: String, photos: Int, words: String) {
        (self.key, self.photos, self.words) = (key, photos, words)
    }
}

/// A row of the `search_index_album` table: the album at `position` of the index.
struct CatalogSearchIndexAlbum: FetchableRecord, TableRecord, Sendable, Equatable {
    static let databaseTableName = "search_index_album"
    static let columns = ["position", "album", "photos", "words"]

    static let createSQL = """
        CREATE TABLE search_index_album (
            position INTEGER PRIMARY KEY NOT NULL CHECK (position >= 0),
            album TEXT NOT NULL,
            photos INTEGER NOT NULL CHECK (photos > 0),
            words TEXT NOT NULL
        )
        """

    var position: Int
    var album: SearchIndexAlbum

    init(row: Row) throws {
        position = try row.decode(Int.self, atIndex: 0)
        album = SearchIndexAlbum(key: try row.decode(String.self, atIndex: 1), photos: try row.decode(Int.self, atIndex: 2),
                                 words: try row.decode(String.self, atIndex: 3))
    }
}
