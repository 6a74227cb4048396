import Foundation
import GalleryConfig

/// Every word a site writes, in its language: the theme's strings files (`i18n/<tag>.yml`)
/// resolved along the language's fallback chain (`pt-BR` → `pt` → `en`), the language's plural
/// rules, month and day names and number format.
///
/// Templates see the texts as `{{t.key}}`; Swift code asks ``text(_:_:)`` and
/// ``count(_:_:_:)``; the viewer gets the `viewer_` keys as JSON in the page (``viewerJSON``).
/// A key the language's files lack takes English's, with one warning naming the key and the
/// language; a language the theme has no file for at all is English, with one warning.
struct SiteStrings: Sendable {
    /// The language the pages are written in (English when the theme has none of its files).
    let language: LanguageTag
    /// Texts by key, resolved (plural entries: their `other` form).
    let texts: [String: String]
    /// Counted texts by key, resolved, with the language whose forms they are.
    let plurals: [String: (forms: [PluralCategory: String], language: String)]
    /// Month and day names.
    let names: DateNames
    /// What the resolution found missing, one line a key (for the build's warnings).
    let warnings: [String]
    /// The `viewer_` texts as a JSON object, or nil when they are the default theme's English
    /// ones (the viewer's built-in defaults): an English page stays as it always was.
    let viewerJSON: String?
    /// The `search_` texts as a JSON object for `search-box.js` (a counted text as an object of its
    /// forms), or nil when they are the default theme's English ones (the script's defaults).
    let searchJSON: String?

    /// The strings of `language` from the theme's strings files (`tables`, by tag as in the
    /// file name); `defaults` is the default theme's English table (for ``viewerJSON``).
    /// `values` fills the site-wide `{name}`s (`{site}`) in every text.
    init(language requested: LanguageTag, tables: [String: StringTable], defaults: StringTable?, values: [String: String] = [:]) {
        var warnings: [String] = []
        var chain = requested.fallbackChain.filter { tables[$0] != nil }
        if !requested.isEnglish, !chain.contains(where: { $0 != "en" }) {
            warnings.append("the theme has no strings for language \(requested) (i18n/\(requested).yml); the pages are in English")
            chain = ["en"]
        }
        let language = chain.first == "en" || chain.isEmpty ? (requested.isEnglish ? requested : .english) : requested
        self.language = language
        var keys = Set<String>()
        for tag in chain { keys.formUnion(tables[tag]!.entries.keys) }
        var texts: [String: String] = [:]
        var plurals: [String: (forms: [PluralCategory: String], language: String)] = [:]
        var missing: [String] = []
        for key in keys.sorted() {
            guard let tag = chain.first(where: { tables[$0]!.entries[key] != nil }) else { continue }
            if tag == "en", !language.isEnglish { missing.append(key) }
            switch tables[tag]!.entries[key]! {
            case .text(let text): texts[key] = Self.fill(text, values)
            case .plural(let forms):
                // English forms are chosen by English's rules.
                plurals[key] = (forms.mapValues { Self.fill($0, values) }, tag == "en" ? "en" : language.language)
                texts[key] = forms[.other].map { Self.fill($0, values) }
            }
        }
        for key in missing {
            warnings.append("i18n/\(chain.first!).yml: no string \"\(key)\" for language \(language); the English one is used")
        }
        self.texts = texts
        self.plurals = plurals
        self.warnings = warnings
        self.names = DateNames(language: language)
        let viewer = texts.filter { $0.key.hasPrefix("viewer_") }
        var defaultViewer: [String: String] = [:]
        for (key, entry) in defaults?.entries ?? [:] where key.hasPrefix("viewer_") {
            if case .text(let text) = entry { defaultViewer[key] = Self.fill(text, values) }
        }
        if viewer == defaultViewer {
            viewerJSON = nil
        } else {
            viewerJSON = "{" + viewer.sorted { $0.key < $1.key }.map { jsonString($0.key) + ":" + jsonString($0.value) }
                .joined(separator: ",") + "}"
        }
        // The search box's: a counted text as its forms by CLDR category (search-box.js chooses with
        // Intl.PluralRules for the page's `lang`).
        var search: [String: StringTable.Entry] = [:]
        for key in texts.keys where key.hasPrefix("search_") {
            if let entry = plurals[key] {
                search[key] = .plural(entry.forms)
            } else {
                search[key] = .text(texts[key]!)
            }
        }
        var defaultSearch: [String: StringTable.Entry] = [:]
        for (key, entry) in defaults?.entries ?? [:] where key.hasPrefix("search_") {
            switch entry {
            case .text(let text): defaultSearch[key] = .text(Self.fill(text, values))
            case .plural(let forms): defaultSearch[key] = .plural(forms.mapValues { Self.fill($0, values) })
            }
        }
        if search == defaultSearch {
            searchJSON = nil
        } else {
            searchJSON = "{" + search.sorted { $0.key < $1.key }.map { key, entry in
                switch entry {
                case .text(let text): return jsonString(key) + ":" + jsonString(text)
                case .plural(let forms):
                    return jsonString(key) + ":{" + forms.sorted { $0.key.rawValue < $1.key.rawValue }
                        .map { jsonString($0.key.rawValue) + ":" + jsonString($0.value) }.joined(separator: ",") + "}"
                }
            }.joined(separator: ",") + "}"
        }
    }

    /// The text of `key` with `{name}` filled in from `values`; the key itself when no file
    /// has it (a theme's typo shows on the page rather than nothing).
    func text(_ key: String, _ values: [String: String] = [:]) -> String {
        Self.fill(texts[key] ?? key, values)
    }

    /// The counted text of `key` for `count`, the form CLDR's rules choose, with `{count}`
    /// the number as the language writes it and `{name}` filled in from `values`.
    func count(_ key: String, _ count: Int, _ values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = number(count)
        guard let entry = plurals[key] else { return text(key, values) }
        let category = PluralRules.category(count, language: entry.language)
        return Self.fill(entry.forms[category] ?? entry.forms[.other] ?? key, values)
    }

    /// A whole number as the language writes it (CLDR: "12 345" in French, "12.345" in
    /// German); English keeps the plain digits Cascade always wrote.
    func number(_ value: Int) -> String {
        if language.isEnglish { return String(value) }
        // (A format style, not a `NumberFormatter`: Foundation keeps its ICU formatter, and
        // a photo page asks twice, 100,000 times in a large library.)
        return value.formatted(IntegerFormatStyle<Int>(locale: language.locale))
    }

    /// `text` with each `{name}` replaced by `values[name]`; other braces are kept. One pass
    /// from left to right: a value is never searched for names in its turn (an album called
    /// "{position}" stays so), and a photo page, which asks a few times for each of a large
    /// library's photos, pays no search of the whole text per name.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let name = rest.index(after: open)
            if let close = rest[name...].firstIndex(of: "}"), let value = values[String(rest[name..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[name...]
            }
        }
        result += rest
        return result
    }
}
