import Mustache

/// How the theme's templates escape a variable's text for HTML (`{{name}}`): `<`, `>`, `&`, `"`
/// and `'` as swift-mustache's own HTML escaping writes them, on the text's UTF-8 bytes.
///
/// swift-mustache's own goes through the text Character by Character, with a dictionary lookup
/// for each: most of a page's rendering, and a page of 500 tiles carries thousands of values.
/// Byte by byte, a quote or a bracket that begins a cluster of characters (a `"` followed by a
/// combining mark) is escaped too, where the Character lookup left it to close an attribute.
/// ``Theme`` sets it for every template, the default theme's and a theme folder's.
struct HTMLEscaping: MustacheContentType {
    /// The name a template's `{{% CONTENT_TYPE: … }}` pragma gives it by.
    static let name = "CASCADE_HTML"

    /// Registers it with swift-mustache (again, the same, for every theme made).
    static func register() {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
    }

    /// `template`'s text with the pragma that sets this escaping on a line of its own before
    /// it (a line Mustache leaves out, as it does any line holding only a pragma).
    static func applied(to template: String) -> String {
        "{{% CONTENT_TYPE: \(name)}}\n" + template
    }

    func escapeText(_ text: String) -> String {
        // (Most values, file names and numbers among them, have nothing to escape.)
        guard text.utf8.contains(where: Self.isSpecial) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"): bytes += Array("&lt;".utf8)
            case UInt8(ascii: ">"): bytes += Array("&gt;".utf8)
            case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
            case UInt8(ascii: "\""): bytes += Array("&quot;".utf8)
            case UInt8(ascii: "'"): bytes += Array("&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
