import CStemmer
import GalleryConfig

/// A Snowball stemmer (libstemmer) for one language: owns its `sb_stemmer`, which keeps state
/// between calls, so one instance is used by one thread at a time (it is not `Sendable`).
final class Stemmer {
    private let stemmer: OpaquePointer
    /// The Snowball algorithm's name ("english").
    let algorithm: String

    /// A stemmer running Snowball's `algorithm` ("french") on UTF-8; nil when libstemmer has no
    /// such algorithm.
    init?(algorithm: String) {
        guard let stemmer = sb_stemmer_new(algorithm, "UTF_8") else { return nil }
        self.stemmer = stemmer
        self.algorithm = algorithm
    }

    deinit {
        sb_stemmer_delete(stemmer)
    }

    /// The Snowball algorithm for the pages' language `language` (by its primary language
    /// subtag), nil for a language without one here (Polish, Japanese, Chinese, …): its words
    /// are their own stems.
    static func algorithm(for language: LanguageTag) -> String? {
        let primary = language.identifier.split(separator: "-").first.map(String.init) ?? ""
        return [
            "en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian",
            "nl": "dutch", "pt": "portuguese", "ar": "arabic",
        ][primary]
    }

    /// The stem of the (folded) word `word`: the word itself when the stemmer fails (it does
    /// only when out of memory) or gives nothing.
    func stem(_ word: String) -> String {
        var word = word
        return word.withUTF8 { bytes -> String in
            guard let stemmed = sb_stemmer_stem(stemmer, bytes.baseAddress, Int32(bytes.count)) else {
                return String(decoding: bytes, as: UTF8.self)
            }
            let length = Int(sb_stemmer_length(stemmer))
            guard length > 0 else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: UnsafeBufferPointer(start: stemmed, count: length), as: UTF8.self)
        }
    }
}
