import Foundation
import Yams

/// One language's strings file of a theme (`templates/i18n/fr.yml`): each key a text, or the
/// forms of a counted text by CLDR plural category.
///
///     close: Fermer
///     photo_count:
///       one: "{count} photo"
///       many: "{count} de photos"
///       other: "{count} photos"
///
/// `{name}` in a text is filled in by whoever uses it (`{count}`, `{author}`, `{title}`).
public struct StringTable: Sendable, Hashable {
    /// A key's value.
    public enum Entry: Sendable, Hashable {
        /// A text.
        case text(String)
        /// The forms of a counted text; `other` is always there.
        case plural([PluralCategory: String])
    }

    /// The entries by key.
    public var entries: [String: Entry]

    /// A table of `entries`.
    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// Parses a strings file; `file` names it in errors. Keys are plain names; a value is text,
    /// or a mapping of plural categories (`zero`, `one`, `two`, `few`, `many`, `other`) that
    /// has at least `other`.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> StringTable {
        let reader = YAMLReader(file: file)
        var table = StringTable()
        guard let root = try reader.compose(text), !root.isNullValue else { return table }
        guard let mapping = root.mapping else {
            throw reader.error(.wrongType, nil, root, "expected strings (a mapping of keys to texts), found \(reader.describe(root))")
        }
        let categories = PluralCategory.allCases.map(\.rawValue)
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
                throw reader.error(.wrongType, nil, keyNode, "a key must be a plain name, found \(reader.describe(keyNode))")
            }
            if let scalar = value.scalar {
                table.entries[key] = .text(scalar.string)
                continue
            }
            var forms: [PluralCategory: String] = [:]
            for entry in try reader.entries(of: value, at: key, allowed: categories, what: "plural forms (one, few, many, other, ...)") {
                forms[PluralCategory(rawValue: entry.key)!] = try reader.text(entry).get()
            }
            guard forms[.other] != nil else {
                throw reader.error(.badValue, key, value, "the plural forms need at least `other`")
            }
            table.entries[key] = .plural(forms)
        }
        return table
    }
}
