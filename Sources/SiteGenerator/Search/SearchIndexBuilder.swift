import Catalog
import GalleryConfig
import Imaging

/// The files of Cascade's search index (format 1, described in docs/layout.md "Search") made
/// from the photos' ``SearchDocument``s, given one at a time in site order (``add(_:words:)``):
/// what it keeps is the index itself (each stem's photos, the filters, the record chunks
/// already compressed), never every photo's document, so that a large library's index costs
/// little memory. A pure function of its input: the same photos give the same bytes (and a
/// rebuild rewrites no file). One builder is used by one thread (its stemmer keeps state).
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
    let language: LanguageTag
    private let stemmer: Stemmer?
    /// Each word's stem, as its number in `stems` (asked of the stemmer once per distinct word).
    private var stemOfWord: [String: Int32] = [:]
    private var stemNumbers: [String: Int32] = [:]
    private var stems: [String] = []
    /// Each stem's photos, ascending.
    private var postings: [[Int32]] = []
    /// Each filter's values and their photos, ascending.
    private var filters: [String: [String: [Int32]]] = [:]
    /// The records of the chunk being filled, and the chunks already made.
    private var records = JSON()
    private var recordFiles: [(path: String, bytes: [UInt8])] = []
    /// How many photos were added: the next one's id.
    private(set) var count = 0

    init(language: LanguageTag) {
        self.language = language
        stemmer = Stemmer.algorithm(for: language).flatMap(Stemmer.init(algorithm:))
    }

    /// The Snowball algorithm the index's words are stemmed with (as the entry file names it).
    var stemmerAlgorithm: String? { stemmer?.algorithm }

    /// The distinct folded words of what is indexed of `photo` (pure: it may run on any thread,
    /// ahead of ``add(_:words:)``).
    static func words(of photo: SearchDocument) -> [String] {
        var seen: Set<String> = []
        var words: [String] = []
        for text in photo.texts {
            for word in SearchText.foldedWords(text) where seen.insert(word).inserted { words.append(word) }
        }
        return words
    }

    /// Adds the next photo in site order (its id is ``count``), with its ``words(of:)``.
    mutating func add(_ photo: SearchDocument, words: [String]) {
        let id = Int32(count)
        count += 1
        for word in words {
            let stem: Int32
            if let known = stemOfWord[word] {
                stem = known
            } else {
                let text = stemmer?.stem(word) ?? word
                if let number = stemNumbers[text] {
                    stem = number
                } else {
                    stem = Int32(stems.count)
                    stemNumbers[text] = stem
                    stems.append(text)
                    postings.append([])
                }
                stemOfWord[word] = stem
            }
            // (Ids come in order: a stem's list stays sorted; two words of a photo may share a stem.)
            if postings[Int(stem)].last != id { postings[Int(stem)].append(id) }
        }
        for filter in photo.filters where Self.filterNames.contains(filter.name) {
            if filters[filter.name, default: [:]][filter.value]?.last != id {
                filters[filter.name, default: [:]][filter.value, default: []].append(id)
            }
        }

        Self.appendRecord(photo, to: &records)
        if count % Self.chunk == 0 { closeChunk() }
    }

    /// Appends `photo`'s record to the records of a chunk (the first opens the chunk's list).
    private static func appendRecord(_ photo: SearchDocument, to records: inout JSON) {
        records.raw(records.bytes.isEmpty ? "[[" : ",[")
        records.string(photo.open)
        records.raw(",")
        records.string(photo.image)
        records.raw(",\(photo.width),\(photo.height),")
        records.string(photo.title)
        records.raw(",\(photo.album),")
        records.string(photo.date)
        records.raw("]")
    }

    /// The path and bytes of the record chunk `number` (`p/<number>.gz`), holding `photos`, the
    /// photos whose ids are `number * chunk` on, in order: what a builder given every photo
    /// writes for it.
    static func recordChunk(_ number: Int, photos: some Sequence<SearchDocument>) -> (path: String, bytes: [UInt8]) {
        var records = JSON()
        for photo in photos { appendRecord(photo, to: &records) }
        return recordChunk(number, records: records)
    }

    /// The record chunk `number` whose records (``appendRecord(_:to:)``) are `records`, its list closed.
    private static func recordChunk(_ number: Int, records: JSON) -> (path: String, bytes: [UInt8]) {
        var records = records
        records.raw("]")
        return ("p/\(number).gz", Gzip.compress(records.bytes))
    }

    /// Adds `photo` (its words found here).
    mutating func add(_ photo: SearchDocument) {
        add(photo, words: Self.words(of: photo))
    }

    private mutating func closeChunk() {
        guard !records.bytes.isEmpty else { return }
        recordFiles.append(Self.recordChunk((count - 1) / Self.chunk, records: records))
        records = JSON()
    }

    /// The index's files, paths relative to the search folder, each gzip-compressed JSON,
    /// ``entryFile`` last. `albums` are the titles the documents' `album` index.
    consuming func files(albums: [String]) -> [(path: String, bytes: [UInt8])] {
        closeChunk()
        var files: [(path: String, bytes: [UInt8])] = []
        // Term shards: the words by their first two scalars.
        var shards: [String: [String]] = [:]
        for word in stemOfWord.keys { shards[SearchText.shardKey(word), default: []].append(word) }
        let keys = shards.keys.sorted()
        for key in keys {
            let words = shards[key]!.sorted()
            let shardStems = Array(Set(words.map { stemOfWord[$0]! })).sorted { stems[Int($0)] < stems[Int($1)] }
            let position = Dictionary(uniqueKeysWithValues: shardStems.enumerated().map { ($0.element, $0.offset) })
            var json = JSON()
            json.raw("{\"w\":{")
            for (index, word) in words.enumerated() {
                if index > 0 { json.raw(",") }
                json.string(word)
                json.raw(":")
                json.number(position[stemOfWord[word]!]!)
            }
            json.raw("},\"s\":[")
            for (index, stem) in shardStems.enumerated() {
                if index > 0 { json.raw(",") }
                json.posting(stems[Int(stem)], postings[Int(stem)])
            }
            json.raw("]}")
            files.append(("t/\(key).gz", Gzip.compress(json.bytes)))
        }
        files += recordFiles

        // Filters: each name's values, sorted, with their photos.
        let filterNames = Self.filterNames.filter { filters[$0] != nil }
        var json = JSON()
        json.raw("{")
        for (index, name) in filterNames.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(name)
            json.raw(":[")
            for (valueIndex, (value, ids)) in filters[name]!.sorted(by: { $0.key < $1.key }).enumerated() {
                if valueIndex > 0 { json.raw(",") }
                json.posting(value, ids)
            }
            json.raw("]")
        }
        json.raw("}")
        files.append(("f.gz", Gzip.compress(json.bytes)))

        files.append(Self.entry(files: files, language: language, stemmer: stemmer?.algorithm, photos: count, albums: albums,
                                shards: keys, filters: filterNames))
        return files
    }

    /// The entry file of the index whose other files are `files`: its version changes with any
    /// of their bytes. `shards` are the term shards' keys, sorted; `filters`, the filters' names
    /// in ``filterNames``' order.
    static func entry(files: some Sequence<(path: String, bytes: [UInt8])>, language: LanguageTag, stemmer: String?, photos: Int,
                      albums: [String], shards: [String], filters: [String]) -> (path: String, bytes: [UInt8]) {
        var hasher = FingerprintHasher()
        for file in files.sorted(by: { $0.path < $1.path }) {
            hasher.combine(file.path)
            file.bytes.withUnsafeBytes { hasher.combine(raw: $0) }
        }
        var entry = JSON()
        entry.raw("{\"format\":\(format),\"language\":")
        entry.string(language.identifier)
        entry.raw(",\"stemmer\":")
        if let stemmer { entry.string(stemmer) } else { entry.raw("null") }
        entry.raw(",\"photos\":\(photos),\"chunk\":\(chunk),\"version\":")
        entry.string(hasher.hex)
        entry.raw(",\"albums\":")
        entry.strings(albums)
        entry.raw(",\"shards\":")
        entry.strings(shards)
        entry.raw(",\"filters\":")
        entry.strings(filters)
        entry.raw("}")
        return (entryFile, Gzip.compress(entry.bytes))
    }

    /// The files of the index of `photos`, in site order (for a caller that has them all).
    func files(albums: [String], photos: [SearchDocument]) -> [(path: String, bytes: [UInt8])] {
        var builder = SearchIndexBuilder(language: language)
        for photo in photos { builder.add(photo) }
        return builder.files(albums: albums)
    }
}

/// The fingerprint of what decides every file of a search index but the photos' records and
/// the entry file: the format, the language and its stemmer, and each photo's words and filters,
/// in order. Runs of photos with the same fingerprint, after the same photos, give the same term
/// shards and filters (``SearchIndexUpdate``).
struct SearchWordsKey {
    private var hasher = FingerprintHasher()

    init(language: LanguageTag) {
        hasher.combine("format \(SearchIndexBuilder.format) " + language.identifier + " "
                       + (Stemmer.algorithm(for: language) ?? "no stemmer"))
    }

    /// Adds the next photo, with its words (``SearchIndexBuilder/words(of:)``).
    mutating func add(_ photo: SearchDocument, words: [String]) {
        hasher.combine(String(words.count))
        for word in words { hasher.combine(word) }
        let filters = photo.filters.filter { SearchIndexBuilder.filterNames.contains($0.name) }
        hasher.combine(String(filters.count))
        for filter in filters {
            hasher.combine(filter.name)
            hasher.combine(filter.value)
        }
    }

    var hex: String { hasher.hex }

    /// The fingerprint of `photos`.
    static func of(_ photos: some Sequence<SearchDocumentRun.Entry>, language: LanguageTag) -> String {
        var key = SearchWordsKey(language: language)
        for (photo, words) in photos { key.add(photo, words: words) }
        return key.hex
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

    /// `[name, deltas]`: a stem's or a filter value's photos.
    mutating func posting(_ name: String, _ ids: [Int32]) {
        raw("[")
        string(name)
        raw(",")
        deltas(ids)
        raw("]")
    }

    /// A sorted list of ids as its first id, then each id minus the one before.
    mutating func deltas(_ ids: [Int32]) {
        raw("[")
        var previous: Int32 = 0
        for (index, id) in ids.enumerated() {
            if index > 0 { raw(",") }
            number(Int(id - previous))
            previous = id
        }
        raw("]")
    }
}
