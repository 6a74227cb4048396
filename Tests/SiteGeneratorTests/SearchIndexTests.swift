import Foundation
import GalleryConfig
import Imaging
import Testing

@testable import Catalog
@testable import SiteGenerator

/// Cascade's search index (format 1): folding and splitting, stems, and the builder's files
/// read back. (The build's side: SearchTests; the browser's: Tests/browser/test_search.py.)
@Suite("Search index format")
struct SearchIndexTests {
    @Test("folding drops case and marks: accents, Arabic vowel marks, Greek final sigma")
    func folding() {
        #expect(SearchText.fold("Cap Fréhel") == "cap frehel")
        #expect(SearchText.fold("MAËLLE") == "maelle")
        #expect(SearchText.fold("Ça, l'Été") == "ca, l'ete")
        #expect(SearchText.fold("Ångström ØRESUND") == "angstrom øresund")  // Ø has no decomposition
        // Arabic short vowels (fatha, sukun: Mn) go; the letters stay.
        #expect(SearchText.fold("مَكْتَبَة") == "مكتبة")
        #expect(SearchText.fold("ΟΔΟΣ") == "οδοσ" && SearchText.fold("οδος") == "οδοσ")
        // Already composed or decomposed: the same.
        #expect(SearchText.fold("e\u{301}te\u{301}") == SearchText.fold("\u{E9}t\u{E9}"))
    }

    @Test("words: runs of letters and numbers; each CJK ideograph and kana a word of its own")
    func splitting() {
        #expect(SearchText.foldedWords("Phare du Cap-Fréhel, 14 July 2021!") == ["phare", "du", "cap", "frehel", "14", "july", "2021"])
        #expect(SearchText.foldedWords("l'été_X-T4") == ["l", "ete", "x", "t4"])
        #expect(SearchText.foldedWords("東京タワー tower") == ["東", "京", "タ", "ワ", "ー", "tower"])
        #expect(SearchText.foldedWords("Tokyo東京") == ["tokyo", "東", "京"])
        #expect(SearchText.foldedWords("東京・大阪、") == ["東", "京", "大", "阪"])  // CJK punctuation is no word, as in search-box.js
        #expect(SearchText.foldedWords("مَكْتَبَة القاهرة") == ["مكتبة", "القاهرة"])
        #expect(SearchText.foldedWords(" — … ").isEmpty)
    }

    @Test("ASCII text folds and splits by its quick path exactly as scalar by scalar")
    func asciiPath() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["Cap Fréhel".filter(\.isASCII), "X-T4 @ 1/250s, f/2.8", "ÀB", String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) })]
        for _ in 0..<200 {
            texts.append(String((0..<Int.random(in: 0...40, using: &generator)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0..<128, using: &generator))) }))
        }
        for text in texts where text.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(SearchText.fold(text) == SearchText.foldScalars(text), "\(text.debugDescription)")
            let folded = SearchText.fold(text)
            #expect(SearchText.words(folded) == SearchText.scalarWords(folded), "\(text.debugDescription)")
        }
    }

    @Test("a word's shard is the hex of its first two scalars' UTF-8")
    func shardKeys() {
        #expect(SearchText.shardKey("frehel") == "6672")
        #expect(SearchText.shardKey("x") == "78")
        #expect(SearchText.shardKey("東") == "e69db1")
        #expect(SearchText.shardKey("øresund") == "c3b872")
    }

    @Test("Snowball stems by the site's language: English and French; none for Polish")
    func stems() throws {
        let englishName = try #require(Stemmer.algorithm(for: .english))
        let english = try #require(Stemmer(algorithm: englishName))
        #expect(english.stem("sailing") == "sail" && english.stem("sails") == "sail")
        #expect(english.stem("lighthouses") == english.stem("lighthouse"))
        let canadian = try #require(LanguageTag("fr-CA"))
        let frenchName = try #require(Stemmer.algorithm(for: canadian))
        let french = try #require(Stemmer(algorithm: frenchName))
        #expect(french.algorithm == "french")
        #expect(french.stem("chevaux") == french.stem("cheval"))
        #expect(french.stem("maisons") == "maison")
        for other in ["pl", "zh-Hans", "ja"] {
            let tag = try #require(LanguageTag(other))
            #expect(Stemmer.algorithm(for: tag) == nil)
        }
        #expect(Stemmer(algorithm: "klingon") == nil)
    }

    // MARK: - The builder's files

    func document(_ id: Int, album: Int, title: String, texts: [String] = [], filters: [SearchFilter] = []) -> SearchDocument {
        SearchDocument(open: "a\(album)/index.html#photo=p\(id)", image: "a\(album)/thumbs/p\(id)-400.jpg", width: 400, height: 300,
                       title: title, album: album, date: id == 0 ? "14 July 2021" : "", texts: [title] + texts, filters: filters)
    }

    /// The files as JSON, by path.
    func decoded(_ files: [(path: String, bytes: [UInt8])]) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for file in files {
            #expect(file.bytes.starts(with: [0x1f, 0x8b]), "\(file.path) is gzip")
            let json = try #require(Gzip.decompress(file.bytes), "\(file.path) inflates")
            result[file.path] = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
        }
        return result
    }

    /// A posting list read back from its deltas.
    func ids(_ deltas: Any?) -> [Int] {
        var id = 0
        return ((deltas as? [Int]) ?? []).map { id += $0; return id }
    }

    @Test("the files read back: records in site order, shards with stems and delta postings, filters, the entry file last")
    func files() throws {
        let photos = [
            document(0, album: 0, title: "Phare du Cap Fréhel", texts: ["Sailing boats", "Bretagne"],
                     filters: [SearchFilter(name: "year", value: "2021"), SearchFilter(name: "album", value: "Bretagne"),
                               SearchFilter(name: "person", value: "Maëlle")]),
            document(1, album: 0, title: "Maëlle", texts: ["The boat sails", "Bretagne"],
                     filters: [SearchFilter(name: "album", value: "Bretagne"), SearchFilter(name: "person", value: "Maëlle")]),
            document(2, album: 1, title: "Night tower", texts: ["Paris"], filters: [SearchFilter(name: "album", value: "Paris")]),
        ]
        let files = SearchIndexBuilder(language: .english).files(albums: ["Bretagne", "Paris"], photos: photos)
        #expect(files.last?.path == "index.gz")
        let json = try decoded(files)

        let entry = try #require(json["index.gz"] as? [String: Any])
        #expect(entry["format"] as? Int == 1 && entry["language"] as? String == "en" && entry["stemmer"] as? String == "english")
        #expect(entry["photos"] as? Int == 3 && entry["chunk"] as? Int == 32)
        #expect(entry["albums"] as? [String] == ["Bretagne", "Paris"])
        #expect(entry["filters"] as? [String] == ["year", "album", "person"])
        let version = try #require(entry["version"] as? String)
        #expect(version.count == 16 && version.allSatisfy(\.isHexDigit))
        let shards = try #require(entry["shards"] as? [String])
        #expect(shards == shards.sorted() && Set(shards) == Set(files.compactMap { $0.path.hasPrefix("t/") ? String($0.path.dropFirst(2).dropLast(3)) : nil }))

        // "frehel" in shard "fr"; "sailing" and "sails" share the stem "sail", in shard "sa".
        let fr = try #require(json["t/6672.gz"] as? [String: Any])
        let frWords = try #require(fr["w"] as? [String: Int])
        let frStems = try #require(fr["s"] as? [[Any]])
        #expect(frStems[frWords["frehel"]!][0] as? String == "frehel" && ids(frStems[frWords["frehel"]!][1]) == [0])
        let sa = try #require(json["t/7361.gz"] as? [String: Any])
        let saWords = try #require(sa["w"] as? [String: Int])
        let saStems = try #require(sa["s"] as? [[Any]])
        #expect(saWords["sailing"] == saWords["sails"] && saStems.count == 1)
        #expect(saStems[0][0] as? String == "sail" && ids(saStems[0][1]) == [0, 1])
        // A posting list is written as deltas: "bretagne" is in photos 0 and 1 ([0, 1]); "boat"
        // ("boats", "boat") too.
        let br = try #require(json["t/6272.gz"] as? [String: Any])
        #expect(((br["s"] as? [[Any]])?.first?[1] as? [Int]) == [0, 1])
        let bo = try #require(json["t/626f.gz"] as? [String: Any])
        #expect((bo["w"] as? [String: Int])?.keys.sorted() == ["boat", "boats"])
        // The photo records, in the order given.
        let records = try #require(json["p/0.gz"] as? [[Any]])
        #expect(records.count == 3)
        #expect(records[0][0] as? String == "a0/index.html#photo=p0" && records[0][1] as? String == "a0/thumbs/p0-400.jpg")
        #expect(records[0][2] as? Int == 400 && records[0][3] as? Int == 300 && records[0][4] as? String == "Phare du Cap Fréhel")
        #expect(records[0][5] as? Int == 0 && records[0][6] as? String == "14 July 2021")
        #expect(records[2][4] as? String == "Night tower" && records[2][5] as? Int == 1 && records[2][6] as? String == "")
        // Filters: values sorted, each with its photos as deltas; a name without a value left out.
        let filters = try #require(json["f.gz"] as? [String: [[Any]]])
        #expect(Set(filters.keys) == ["year", "album", "person"])
        #expect(filters["album"]?.map { $0[0] as? String } == ["Bretagne", "Paris"])
        #expect(ids(filters["album"]?[0][1]) == [0, 1] && filters["album"]?[1][1] as? [Int] == [2])
        #expect(filters["person"]?.count == 1 && ids(filters["person"]?[0][1]) == [0, 1])
    }

    @Test("records come 32 to a file; postings across chunks stay deltas")
    func chunks() throws {
        let photos = (0..<70).map { document($0, album: 0, title: "Photo \($0)", texts: $0 % 10 == 0 ? ["decade"] : []) }
        let json = try decoded(SearchIndexBuilder(language: .english).files(albums: ["A"], photos: photos))
        #expect((json["p/0.gz"] as? [Any])?.count == 32 && (json["p/1.gz"] as? [Any])?.count == 32 && (json["p/2.gz"] as? [Any])?.count == 6)
        #expect(json["p/3.gz"] == nil)
        #expect(((json["p/2.gz"] as? [[Any]])?.first?[4] as? String) == "Photo 64")
        let de = try #require(json["t/6465.gz"] as? [String: Any])
        let stems = try #require(de["s"] as? [[Any]])
        #expect(stems.count == 1 && stems[0][1] as? [Int] == [0, 10, 10, 10, 10, 10, 10])
        // "photo" is in every photo: 0 then 69 ones.
        let ph = try #require(json["t/7068.gz"] as? [String: Any])
        #expect(ph["s"].flatMap { ($0 as? [[Any]])?.first?[1] as? [Int] } == [0] + Array(repeating: 1, count: 69))
    }

    @Test("the same input gives the same bytes; a changed word changes the version")
    func deterministic() throws {
        let photos = (0..<40).map { document($0, album: $0 % 2, title: "Photo \($0) Fréhel", texts: ["Bretagne", "東京"],
                                                filters: [SearchFilter(name: "year", value: "\(2000 + $0 % 3)")]) }
        let builder = SearchIndexBuilder(language: try #require(LanguageTag("fr")))
        let first = builder.files(albums: ["A", "B"], photos: photos)
        let second = builder.files(albums: ["A", "B"], photos: photos)
        #expect(first.map(\.path) == second.map(\.path) && first.map(\.bytes) == second.map(\.bytes))
        var changed = photos
        changed[3].texts.append("Erquy")
        let third = builder.files(albums: ["A", "B"], photos: changed)
        let version = { (files: [(path: String, bytes: [UInt8])]) in
            ((try? self.decoded(files.filter { $0.path == "index.gz" }))?["index.gz"] as? [String: Any])?["version"] as? String
        }
        #expect(version(first) != nil && version(first) != version(third))
    }
}
