import CMarkGFM
import Foundation

/// Captions (`.md`) and albums' `index.md` bodies rendered to HTML by cmark-gfm, GitHub's
/// CommonMark implementation, with its table, strikethrough and autolink extensions.
///
/// The HTML is safe to put in a page as it is: parsing and rendering take time linear in the
/// input (no recursion a deep nesting could overflow; see ``maximumTableColumns``); raw HTML is
/// dropped (cmark-gfm's safe mode), except a few formatting tags without attributes, such as
/// `<b>` and `<br>`, which are kept when they open and close within one paragraph; links and
/// images whose URL has a scheme other than `http`, `https`, `mailto` or `tel` (or
/// `data:image/png|gif|jpeg|webp` for an image) lose their URL; and every URL is escaped once,
/// by cmark-gfm's HTML renderer, where it becomes an attribute. Invalid UTF-8 is replaced.
///
/// This type owns every cmark-gfm pointer: each is made and freed within one call.
public enum MarkdownRenderer {
    /// The HTML of `markdown`; `nil` when it renders to nothing visible (only whitespace, or
    /// only dropped raw HTML).
    public static func html(fromMarkdown markdown: String) -> String? {
        guard markdown.contains(where: { !$0.isWhitespace }) else { return nil }
        // cmark-gfm 0.29.0.gfm.6 keeps the table of characters its inline parser stops at in a
        // global that every parse with extensions writes to (it adds the extensions' characters
        // and removes them again), and registers its extensions in an unguarded global list:
        // two parses at once (the scan reads captions on several threads) could drop a `~`
        // strikethrough or worse. Rendering a caption takes microseconds, so they take turns.
        lock.lock()
        defer { lock.unlock() }
        return render(markdown).trimmingCharacters(in: .whitespacesAndNewlines).nonEmptyHTML
    }

    private static let lock = NSLock()

    /// `CMARK_OPT_UNSAFE` is not given: cmark-gfm then omits raw HTML and dangerous URLs.
    private static let options = CMARK_OPT_VALIDATE_UTF8

    private static let extensionNames = ["table", "strikethrough", "autolink"]

    private static func render(_ markdown: String) -> String {
        cmark_gfm_core_extensions_ensure_registered()
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        // A row of N columns has up to N + 1 `|`.
        let wideTable = hasLine(in: markdown, withMoreThan: maximumTableColumns + 1, of: UInt8(ascii: "|"))
        for name in extensionNames where !(name == "table" && wideTable) {
            if let syntaxExtension = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntaxExtension)
            }
        }
        var bytes = Array(markdown.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                cmark_parser_feed(parser, characters.baseAddress, characters.count)
            }
        }
        bytes = []
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }
        sanitize(document)
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// cmark-gfm 0.29.0.gfm.6's tables take time quadratic in their number of columns (40,000
    /// columns: over a minute). A text with a line of more `|` than such a row has is rendered
    /// without the table extension: its tables show as text, and it takes linear time.
    static let maximumTableColumns = 256

    /// Whether a line of `text` holds more than `limit` of `byte`.
    private static func hasLine(in text: String, withMoreThan limit: Int, of byte: UInt8) -> Bool {
        var count = 0
        for character in text.utf8 {
            if character == byte {
                count += 1
                if count > limit { return true }
            } else if character == UInt8(ascii: "\n") || character == UInt8(ascii: "\r") {
                count = 0
            }
        }
        return false
    }

    // MARK: - Raw HTML and URLs

    /// Formatting tags kept from raw HTML, when written exactly as `<b>` and `</b>` (any case,
    /// no attributes), in pairs within one paragraph (so bold cannot run on past the caption).
    static let keptTags: Set<String> = [
        "b", "i", "em", "strong", "u", "s", "del", "ins", "sub", "sup", "mark", "small", "kbd", "code",
    ]

    /// Walks the document once (cmark's iterator, not recursion): drops raw HTML but the kept
    /// formatting tags, which become literal output of their own, and clears unsafe URLs.
    private static func sanitize(_ document: OpaquePointer) {
        var inlineTags: [OpaquePointer: [(node: OpaquePointer, tag: String, closing: Bool)]] = [:]
        var parents: [OpaquePointer] = []
        var dropped: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK:
                dropped.append(node)
            case CMARK_NODE_HTML_INLINE:
                let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                if let tag = formattingTag(literal), let parent = cmark_node_parent(node) {
                    if inlineTags[parent] == nil { parents.append(parent) }
                    inlineTags[parent, default: []].append((node, tag.name, tag.closing))
                } else if literal.lowercased().hasPrefix("<br"), isLineBreak(literal) {
                    replace(node, with: "<br>")
                } else {
                    dropped.append(node)
                }
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if !isSafe(url: url, image: cmark_node_get_type(node) == CMARK_NODE_IMAGE) {
                    cmark_node_set_url(node, "")
                }
            default:
                break
            }
        }
        // Tags pair up within their parent, like brackets; a tag without its partner is dropped.
        for parent in parents {
            var open: [(node: OpaquePointer, tag: String)] = []
            for entry in inlineTags[parent] ?? [] {
                if !entry.closing {
                    open.append((entry.node, entry.tag))
                } else if let match = open.lastIndex(where: { $0.tag == entry.tag }) {
                    for unmatched in open[(match + 1)...] { dropped.append(unmatched.node) }
                    replace(open[match].node, with: "<\(entry.tag)>")
                    replace(entry.node, with: "</\(entry.tag)>")
                    open.removeSubrange(match...)
                } else {
                    dropped.append(entry.node)
                }
            }
            dropped += open.map(\.node)
        }
        for node in dropped {
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
    }

    /// `<tag>` or `</tag>` for a kept tag, with nothing else in it.
    private static func formattingTag(_ literal: String) -> (name: String, closing: Bool)? {
        guard literal.hasPrefix("<"), literal.hasSuffix(">"), literal.count >= 3 else { return nil }
        var name = literal.dropFirst().dropLast().lowercased()
        let closing = name.hasPrefix("/")
        if closing { name.removeFirst() }
        guard keptTags.contains(name) else { return nil }
        return (name, closing)
    }

    /// `<br>`, `<br/>` or `<br />`.
    private static func isLineBreak(_ literal: String) -> Bool {
        ["<br>", "<br/>", "<br />"].contains(literal.lowercased())
    }

    /// Puts a literal piece of HTML (one of the tags above, never input) in `node`'s place.
    private static func replace(_ node: OpaquePointer, with html: String) {
        guard let custom = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { return }
        cmark_node_set_on_enter(custom, html)
        cmark_node_set_on_exit(custom, "")
        if cmark_node_insert_before(node, custom) == 1 {
            cmark_node_unlink(node)
            cmark_node_free(node)
        } else {
            cmark_node_free(custom)
        }
    }

    /// Whether a link's (or image's) URL may be kept: relative, or with a scheme a page may link
    /// to. cmark-gfm's safe mode already clears `javascript:`, `vbscript:`, `file:` and `data:`
    /// URLs; this also refuses every other scheme, looked at the way a browser does (ignoring
    /// the tabs, newlines and leading controls it strips, in any case).
    static func isSafe(url: String, image: Bool) -> Bool {
        let scalars = url.unicodeScalars.drop { $0.value <= 0x20 }.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        let normalized = String(String.UnicodeScalarView(scalars)).lowercased()
        guard let colon = normalized.firstIndex(of: ":") else { return true }
        let scheme = normalized[..<colon]
        // A `/`, `?` or `#` before the first `:` makes it a path, not a scheme.
        if scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return true }
        switch scheme {
        case "http", "https", "mailto", "tel":
            return true
        case "data":
            let type = normalized[normalized.index(after: colon)...]
            return image && ["image/png", "image/gif", "image/jpeg", "image/webp"].contains { type.hasPrefix($0 + ";") || type.hasPrefix($0 + ",") }
        default:
            return false
        }
    }
}

private extension String {
    var nonEmptyHTML: String? { isEmpty ? nil : self }
}
