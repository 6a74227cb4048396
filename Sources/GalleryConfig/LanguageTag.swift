import Foundation

/// The language a site is written in (`language:` in `cascade.yml`, `--language`): a BCP 47
/// tag such as `fr`, `de`, `pt-BR`, `zh-Hans` or `ar`.
///
/// A tag that is not well-formed BCP 47 (`french`, `fr_FR!`, `e`) is refused with a clear
/// error; a well-formed tag the theme has no strings for falls back along ``fallbackChain``
/// (`pt-BR` → `pt` → `en`) with a warning, so that a site still builds.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag in its canonical case: language lower case, script title case, region upper
    /// case (`zh-Hans-CN`, `pt-BR`).
    public let identifier: String

    /// English, the default.
    public static let english = LanguageTag(checked: "en")

    private init(checked identifier: String) { self.identifier = identifier }

    /// The tag `text`, canonically cased; nil when it is not a well-formed BCP 47 tag
    /// (RFC 5646's `langtag`: a 2-3 or 5-8 letter language, then an optional 4-letter script,
    /// an optional 2-letter or 3-digit region, then variants and extensions of 1-8 letters and
    /// digits). `_` is accepted for `-` (`pt_BR`), as locales are often written so.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
            .split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard let language = parts.first, (2...3).contains(language.count) || (5...8).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        var canonical = [language.lowercased()]
        var index = 1
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy({ $0.isASCII && $0.isLetter }) {
            canonical.append(parts[index].prefix(1).uppercased() + parts[index].dropFirst().lowercased())
            index += 1
        }
        if index < parts.count,
           (parts[index].count == 2 && parts[index].allSatisfy({ $0.isASCII && $0.isLetter }))
            || (parts[index].count == 3 && parts[index].allSatisfy({ $0.isASCII && $0.isNumber })) {
            canonical.append(parts[index].uppercased())
            index += 1
        }
        for part in parts[index...] {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            canonical.append(part.lowercased())
        }
        identifier = canonical.joined(separator: "-")
    }

    public var description: String { identifier }

    /// The language subtag alone: `pt` for `pt-BR`.
    public var language: String { String(identifier.prefix { $0 != "-" }) }

    /// The tags whose strings are looked for, most specific first, ending with English:
    /// `pt-BR` → `pt-BR`, `pt`, `en`; `zh-Hans-CN` → `zh-Hans-CN`, `zh-Hans`, `zh`, `en`.
    public var fallbackChain: [String] {
        var chain: [String] = []
        var parts = identifier.split(separator: "-").map(String.init)
        while !parts.isEmpty {
            chain.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        if !chain.contains("en") { chain.append("en") }
        return chain
    }

    /// Whether the language is written right to left (`dir="rtl"`): Arabic, Hebrew, Persian,
    /// Urdu, and the other languages whose usual script is Arabic or Hebrew.
    public var isRightToLeft: Bool {
        ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "ckb", "dv"].contains(language)
    }

    /// Whether the language is English: its pages keep the digits and dates they always had.
    public var isEnglish: Bool { language == "en" }

    /// The Foundation locale of the tag, for month and day names and number formats (CLDR).
    public var locale: Locale { Locale(identifier: identifier) }
}
