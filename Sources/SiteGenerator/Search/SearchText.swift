import Foundation

/// The search index's words: how text is folded and split, and which term shard a word is in
/// (notes in docs/layout.md, "Search"). `search-box.js` does exactly the same to a query, so a
/// change here is a change of the index's format.
enum SearchText {
    /// `text` without case and marks: Unicode NFD, every scalar of General Category M (Mn,
    /// Mc, Me) dropped, then lower case, and the final sigma "ς" as "σ". "Fréhel" becomes
    /// "frehel", "Maëlle" "maelle".
    static func fold(_ text: String) -> String {
        // (ASCII, most text, folds to its lower case: NFD and the marks leave it as it is.)
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return foldScalars(text)
    }

    /// ``fold(_:)`` scalar by scalar, whatever the text.
    static func foldScalars(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: kept.append(scalar)
            }
        }
        // (JavaScript's toLowerCase makes a word's last "Σ" "ς", Swift's "σ": both sides fold
        // "ς" to "σ" so that a query typed either way meets the index.)
        let lower = String(kept).lowercased()
        guard lower.unicodeScalars.contains("\u{03C2}") else { return lower }
        return String(String.UnicodeScalarView(lower.unicodeScalars.map { $0 == "\u{03C2}" ? "\u{03C3}" : $0 }))
    }

    /// The words of folded text: each longest run of letters and numbers (General Category L
    /// or N), but each letter of a CJK script (``isOwnWord(_:)``) is a word of its own (its
    /// punctuation, "・", is none).
    static func words(_ folded: String) -> [String] {
        if folded.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(folded) }
        return scalarWords(folded)
    }

    /// ``words(_:)`` scalar by scalar, whatever the text.
    static func scalarWords(_ folded: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        func end() {
            if !word.isEmpty { words.append(String(word)) }
            word = String.UnicodeScalarView()
        }
        for scalar in folded.unicodeScalars {
            if isOwnWord(scalar), isWordScalar(scalar) {
                end()
                words.append(String(scalar))
            } else if isWordScalar(scalar) {
                word.append(scalar)
            } else {
                end()
            }
        }
        end()
        return words
    }

    /// ``words(_:)`` of folded ASCII text: its letters and digits are `a`–`z` and `0`–`9`.
    private static func asciiWords(_ folded: String) -> [String] {
        var words: [String] = []
        var start: Int?
        let bytes = Array(folded.utf8)
        for (index, byte) in bytes.enumerated() {
            let inWord = byte &- 0x61 < 26 || byte &- 0x30 < 10
            if inWord, start == nil {
                start = index
            } else if !inWord, let first = start {
                words.append(String(decoding: bytes[first..<index], as: UTF8.self))
                start = nil
            }
        }
        if let first = start { words.append(String(decoding: bytes[first...], as: UTF8.self)) }
        return words
    }

    /// The words of `text`, folded.
    static func foldedWords(_ text: String) -> [String] {
        words(fold(text))
    }

    /// Whether `scalar` is a letter or a number (General Category L or N).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is a word by itself: kana, CJK ideographs, Hangul syllables and
    /// half-width katakana, which are written without spaces between words.
    static func isOwnWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
             0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x2FFFF:
            return true
        default:
            return false
        }
    }

    /// The name of the term shard that holds `word`: its first two scalars (or its only one)
    /// as the lower-case hex of their UTF-8 bytes ("frehel": `6672`, "東": `e69db1`).
    static func shardKey(_ word: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var key: [UInt8] = []
        for scalar in word.unicodeScalars.prefix(2) {
            for byte in String(scalar).utf8 {
                key.append(digits[Int(byte >> 4)])
                key.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: key, as: UTF8.self)
    }
}
