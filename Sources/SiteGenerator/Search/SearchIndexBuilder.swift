import GalleryConfig

/// What the search index holds of one photo: its result's fields, the text its words are taken
/// from and the filters it belongs to.
struct SearchDocument: Sendable, Equatable {
    /// The address that opens it in its album's lightbox, and its tile image: site-root-relative
    /// and URL-encoded.
    var open: String
    var image: String
    /// The tile image's size.
    var width: Int
    var height: Int
    /// Its result's title (as its page's heading).
    var title: String
    /// Its album: an index into the index's album titles.
    var album: Int
    /// Its date as shown, or "".
    var date: String
    /// What is indexed of it: title, caption as plain text, keywords, people, places, camera,
    /// lens, album title, date as shown.
    var texts: [String]
    /// The filters it belongs to, each a name of ``SearchIndexBuilder/filterNames`` and a value.
    var filters: [SearchFilter]
}

/// One filter a photo belongs to: `year` "2022", `person` "Maëlle".
struct SearchFilter: Sendable, Equatable {
    var name: String
    var value: String
}

/// The files of Cascade's search index (format 1, /work/notes/SEARCH-INDEX.md and
/// docs/layout.md "Search") made from the photos' ``SearchDocument``s: a pure function of its
/// input, so the same photos give the same bytes (and a rebuild rewrites no file).
struct SearchIndexBuilder {
    /// The format `index.gz` names; `search-box.js` reads only this one.
    static let format = 1
    /// Photo records per `p/<n>.gz`.
    static let chunk = 32
    /// The filters, in the order the search box shows them.
    static let filterNames = ["year", "album", "camera", "person", "place"]
    /// The entry file, written last: until it is replaced the earlier files serve.
    static let entryFile = "index.gz"

    /// The pages' language: it chooses the stemmer.
    var language: LanguageTag

    /// The index's files, paths relative to the search folder, each gzip-compressed JSON,
    /// ``entryFile`` last. `albums` are the titles the documents' `album` index; `photos` the
    /// photos in site order (a photo's id is its place here).
    func files(albums: [String], photos: [SearchDocument]) -> [(path: String, bytes: [UInt8])] {
        let algorithm = Stemmer.algorithm(for: language)
        let stemmer = algorithm.flatMap(Stemmer.init(algorithm:))

        // Each word's stem (once per distinct word), and each stem's photos, ascending.
        var stems: [String: String] = [:]
        var postings: [String: [Int]] = [:]
        for (id, photo) in photos.enumerated() {
            var seen: Set<String> = []
            for text in photo.texts {
                for word in SearchText.foldedWords(text) where seen.insert(word).inserted {
                    let stem: String
                    if let known = stems[word] {
                        stem = known
                    } else {
                        stem = stemmer?.stem(word) ?? word
                        stems[word] = stem
                    }
                    // (Ids come in order: a stem's list stays sorted; two words of a photo may share a stem.)
                    if postings[stem]?.last != id { postings[stem, default: []].append(id) }
                }
            }
        }

        var files: [(path: String, bytes: [UInt8])] = []
        // Term shards: the words by their first two scalars.
        var shards: [String: [String]] = [:]
        for word in stems.keys { shards[SearchText.shardKey(word), default: []].append(word) }
        let keys = shards.keys.sorted()
        for key in keys {
            let words = shards[key]!.sorted()
            let shardStems = Array(Set(words.map { stems[$0]! })).sorted()
            let position = Dictionary(uniqueKeysWithValues: shardStems.enumerated().map { ($0.element, $0.offset) })
            var json = JSON()
            json.raw("{\"w\":{")
            for (index, word) in words.enumerated() {
                if index > 0 { json.raw(",") }
                json.string(word)
                json.raw(":")
                json.number(position[stems[word]!]!)
            }
            json.raw("},\"s\":[")
            for (index, stem) in shardStems.enumerated() {
                if index > 0 { json.raw(",") }
                json.raw("[")
                json.string(stem)
                json.raw(",")
                json.deltas(postings[stem]!)
                json.raw("]")
            }
            json.raw("]}")
            files.append(("t/\(key).gz", Gzip.compress(json.bytes)))
        }

        // Photo records, `chunk` a file.
        for start in stride(from: 0, to: photos.count, by: Self.chunk) {
            var json = JSON()
            json.raw("[")
            for id in start..<min(start + Self.chunk, photos.count) {
                let photo = photos[id]
                if id > start { json.raw(",") }
                json.raw("[")
                json.string(photo.open)
                json.raw(",")
                json.string(photo.image)
                json.raw(",\(photo.width),\(photo.height),")
                json.string(photo.title)
                json.raw(",\(photo.album),")
                json.string(photo.date)
                json.raw("]")
            }
            json.raw("]")
            files.append(("p/\(start / Self.chunk).gz", Gzip.compress(json.bytes)))
        }

        // Filters: each name's values, sorted, with their photos.
        var filters: [String: [String: [Int]]] = [:]
        for (id, photo) in photos.enumerated() {
            for filter in photo.filters where Self.filterNames.contains(filter.name) {
                if filters[filter.name, default: [:]][filter.value]?.last != id {
                    filters[filter.name, default: [:]][filter.value, default: []].append(id)
                }
            }
        }
        let filterNames = Self.filterNames.filter { filters[$0] != nil }
        var json = JSON()
        json.raw("{")
        for (index, name) in filterNames.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(name)
            json.raw(":[")
            for (valueIndex, (value, ids)) in filters[name]!.sorted(by: { $0.key < $1.key }).enumerated() {
                if valueIndex > 0 { json.raw(",") }
                json.raw("[")
                json.string(value)
                json.raw(",")
                json.deltas(ids)
                json.raw("]")
            }
            json.raw("]")
        }
        json.raw("}")
        files.append(("f.gz", Gzip.compress(json.bytes)))

        // The entry file, with a version that changes with any other file's bytes.
        var hasher = FingerprintHasher()
        for file in files.sorted(by: { $0.path < $1.path }) {
            hasher.combine(file.path)
            file.bytes.withUnsafeBytes { hasher.combine(raw: $0) }
        }
        var entry = JSON()
        entry.raw("{\"format\":\(Self.format),\"language\":")
        entry.string(language.identifier)
        entry.raw(",\"stemmer\":")
        if let algorithm = stemmer?.algorithm { entry.string(algorithm) } else { entry.raw("null") }
        entry.raw(",\"photos\":\(photos.count),\"chunk\":\(Self.chunk),\"version\":")
        entry.string(hasher.hex)
        entry.raw(",\"albums\":")
        entry.strings(albums)
        entry.raw(",\"shards\":")
        entry.strings(keys)
        entry.raw(",\"filters\":")
        entry.strings(filterNames)
        entry.raw("}")
        files.append((Self.entryFile, Gzip.compress(entry.bytes)))
        return files
    }
}

/// A JSON text written piece by piece, in a fixed order (no dictionary's order in it).
private struct JSON {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func string(_ text: String) { appendJSONString(text, to: &bytes) }
    mutating func number(_ value: Int) { raw(String(value)) }

    mutating func strings(_ texts: [String]) {
        raw("[")
        for (index, text) in texts.enumerated() {
            if index > 0 { raw(",") }
            string(text)
        }
        raw("]")
    }

    /// A sorted list of ids as its first id, then each id minus the one before.
    mutating func deltas(_ ids: [Int]) {
        raw("[")
        var previous = 0
        for (index, id) in ids.enumerated() {
            if index > 0 { raw(",") }
            number(id - previous)
            previous = id
        }
        raw("]")
    }
}
