import Mustache
import Testing

@testable import SiteGenerator

/// The theme's HTML escaping (``HTMLEscaping``) against swift-mustache's own.
@Suite("HTML escaping of the theme's values")
struct HTMLEscapingTests {
    /// `value` as swift-mustache's own escaping writes it in `{{v}}`.
    func mustacheEscaped(_ value: String) throws -> String {
        try MustacheTemplate(string: "{{v}}").render(["v": value])
    }

    @Test("writes every text as swift-mustache's own escaping does, but for a character that begins a cluster")
    func sameAsMustache() throws {
        var generator = SystemRandomNumberGenerator()
        // ASCII with every special character, Latin letters, CJK, an emoji, line ends.
        let pieces = ["<", ">", "&", "\"", "'", "a", "Z", "0", " ", "é", "日本", "👩‍👩‍👧", "\n", "\r\n", "&amp;", "<b>", "=", "/"]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(HTMLEscaping().escapeText(text) == (try mustacheEscaped(text)), "\(text.debugDescription)")
        }
        #expect(HTMLEscaping().escapeText("Tom & Jerry's <\"best\">") == "Tom &amp; Jerry&#39;s &lt;&quot;best&quot;&gt;")
        #expect(HTMLEscaping().escapeText("plain") == "plain")
    }

    @Test("a quote followed by a combining mark cannot close an attribute")
    func combiningMark() throws {
        let value = "x\"\u{0301} onmouseover=alert(1)"
        // swift-mustache's own, Character by Character, leaves the quote as it is. (Bytes are
        // searched: a String's `contains` goes by Characters too.)
        let quote = UInt8(ascii: "\"")
        #expect(try mustacheEscaped(value).utf8.contains(quote))
        #expect(!HTMLEscaping().escapeText(value).utf8.contains(quote))
        #expect(HTMLEscaping().escapeText(value) == "x&quot;\u{0301} onmouseover=alert(1)")
    }

    @Test("the theme's templates escape with it, and the line of its pragma adds nothing to a page")
    func themeTemplates() throws {
        let theme = try Theme(overrides: nil)
        var library = theme.library
        HTMLEscaping.register()
        library.register(try MustacheTemplate(string: HTMLEscaping.applied(to: "<p title=\"{{v}}\">{{v}}</p>\n")), named: "probe")
        let page = library.render(["v": "\"\u{0301}<"], withTemplate: "probe")
        #expect(page == "<p title=\"&quot;\u{0301}&lt;\">&quot;\u{0301}&lt;</p>\n")
    }
}
