/// What the search index holds of one photo: its result's fields, the text its words are taken
/// from and the filters it belongs to.
package struct SearchDocument: Sendable, Equatable {
    /// The address that opens it in its album's lightbox, and its tile image: site-root-relative
    /// and URL-encoded.
    package var open: String
    package var image: String
    /// The tile image's size.
    package var width: Int
    package var height: Int
    /// Its result's title (as its page's heading).
    package var title: String
    /// Its album: an index into the index's album titles.
    package var album: Int
    /// Its date as shown, or "".
    package var date: String
    /// What is indexed of it: title, caption as plain text, keywords, people, places, camera,
    /// lens, album title, date as shown.
    package var texts: [String]
    /// The filters it belongs to, each a name of ``SearchIndexBuilder/filterNames`` and a value.
    package var filters: [SearchFilter]

    package init(open: String, image: String, width: Int, height: Int, title: String, album: Int, date: String, texts: [String], filters: [SearchFilter]) {
        self.open = open
        self.image = image
        self.width = width
        self.height = height
        self.title = title
        self.album = album
        self.date = date
        self.texts = texts
        self.filters = filters
    }
}

/// Documents made of consecutive photos of one album, to be kept in the catalog for the next
/// build (``Catalog/saveSearchDocuments(_:)``): the album's input key, the place in the album
/// of the first, and each with its words.
package struct SearchDocumentRun: Sendable {
    package typealias Entry = (document: SearchDocument, words: [String])
    package var album: String
    package var first: Int
    package var entries: [Entry]

    package init(album: String, first: Int, entries: [Entry]) {
        self.album = album
        self.first = first
        self.entries = entries
    }
}

/// One filter a photo belongs to: `year` "2022", `person` "Maëlle".
package struct SearchFilter: Sendable, Equatable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
