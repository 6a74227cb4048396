import Foundation
import Gallery
import Testing

/// Captions and album descriptions through cmark-gfm: GitHub's Markdown, in linear time, with
/// nothing that runs script.
@Suite("Markdown")
struct MarkdownRendererTests {
    private func html(_ markdown: String) throws -> String {
        try #require(MarkdownRenderer.html(fromMarkdown: markdown))
    }

    @Test("GFM tables, strikethrough and autolinks")
    func extensions() throws {
        let table = try html("| a | b |\n| --- | --- |\n| 1 | 2 |")
        #expect(table.contains("<table>") && table.contains("<th>a</th>") && table.contains("<td>2</td>"), "\(table)")
        #expect(try html("~~gone~~ kept") == "<p><del>gone</del> kept</p>")
        let autolinked = try html("see https://example.org/a?b=1&c=2 and www.example.com")
        #expect(autolinked.contains("<a href=\"https://example.org/a?b=1&amp;c=2\">https://example.org/a?b=1&amp;c=2</a>"), "\(autolinked)")
        #expect(autolinked.contains("<a href=\"http://www.example.com\">www.example.com</a>"), "\(autolinked)")
        #expect(try html("*a* **b** [c](https://e.org/)") == "<p><em>a</em> <strong>b</strong> <a href=\"https://e.org/\">c</a></p>")
    }

    @Test("raw HTML is dropped, but for attribute-less formatting tags in pairs")
    func rawHTML() throws {
        for markdown in [
            "a <script>window.__pwned=1</script> b",
            "<script>\nwindow.__pwned=1\n</script>\n\ntext",
            "<iframe src=\"https://evil.example\"></iframe>\n\ntext",
            "x <img src=x onerror=\"window.__pwned=1\"> y",
            "x <b onclick=\"window.__pwned=1\">y</b>",
            "<div onmouseover=\"window.__pwned=1\">\nhover\n</div>\n\ntext",
            "<svg><script>window.__pwned=1</script></svg> text",
        ] {
            let out = try html(markdown)
            for forbidden in ["<script", "<iframe", "<img", "<svg", "<div", "onerror", "onclick", "onmouseover", "<b "] {
                #expect(!out.lowercased().contains(forbidden), "\(markdown) -> \(out)")
            }
        }
        #expect(try html("A *lovely* <b>day</b>") == "<p>A <em>lovely</em> <b>day</b></p>")
        #expect(try html("x<BR/>y <sup>2</sup>") == "<p>x<br>y <sup>2</sup></p>")
        #expect(try html("bold <b>runs on") == "<p>bold runs on</p>", "an unclosed tag is dropped")
        #expect(MarkdownRenderer.html(fromMarkdown: "<script>alert(1)</script>") == nil, "nothing visible left")
    }

    @Test("javascript:, vbscript:, file: and data: URLs are dropped; others are escaped once")
    func urls() throws {
        for url in ["javascript:window.__pwned=1", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "vbscript:msgbox", "file:///etc/passwd",
                    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "&#106;avascript:alert(1)", "\u{1}javascript:alert(1)"] {
            for markdown in ["[x](<\(url)>)", "![x](<\(url)>)", "[x][r]\n\n[r]: <\(url)>"] {
                let out = try html(markdown)
                #expect(out.contains("=\"\""), "the URL is gone: \(markdown) -> \(out)")
                #expect(!out.lowercased().contains("script:") && !out.contains("file:") && !out.contains("data:"), "\(markdown) -> \(out)")
            }
        }
        #expect(try html("![p](data:image/png;base64,iVBORw0KGgo=)").contains("src=\"data:image/png;base64,iVBORw0KGgo=\""))
        #expect(try html("[m](mailto:a@example.org) [r](../x.html)").contains("href=\"../x.html\""))
        // A reference-style image whose destination holds a quote: the quote is escaped, once.
        let reference = try html("![a][r]\n\n[r]: x\"onerror=\"window.__pwned=1")
        #expect(reference == "<p><img src=\"x%22onerror=%22window.__pwned=1\" alt=\"a\" /></p>", "\(reference)")
        let titled = try html("[t](https://e.org/?a=1&b=2 \"say \\\"hi\\\" & <bye>\")")
        #expect(titled == "<p><a href=\"https://e.org/?a=1&amp;b=2\" title=\"say &quot;hi&quot; &amp; &lt;bye&gt;\">t</a></p>", "\(titled)")
    }

    @Test("linear time: thousands of brackets and deep nesting render at once, without recursion")
    func pathological() throws {
        // Ink took over 100 s for 30 `[` and overflowed the stack at 20,000. No clock here: a
        // regression shows as a test that does not finish (the hostile suite has the time limit).
        for markdown in [String(repeating: "[", count: 30), String(repeating: "[", count: 20_000),
                         String(repeating: "![", count: 20_000), String(repeating: ">", count: 20_000) + " deep",
                         String(repeating: "*a ", count: 20_000), String(repeating: "[a](", count: 20_000)] {
            #expect(MarkdownRenderer.html(fromMarkdown: markdown) != nil)
        }
        // Tables of up to 256 columns are tables; wider ones (quadratic in cmark-gfm) are text.
        func table(_ columns: Int) -> String { "|" + String(repeating: "a|", count: columns) + "\n|" + String(repeating: "-|", count: columns) }
        #expect(try html(table(256)).hasPrefix("<table>"))
        #expect(try html(table(40_000)).hasPrefix("<p>|a|a|"))
    }

    @Test("invalid UTF-8 and NUL are replaced, not passed on")
    func bytes() throws {
        let out = try html(String(decoding: [0x61, 0xFF, 0x00, 0x62], as: UTF8.self))
        #expect(!out.contains("\u{0}"))
        #expect(out.hasPrefix("<p>a") && out.hasSuffix("b</p>"))
    }

    @Test("renders the same on many threads at once")
    func concurrent() async throws {
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<64 { group.addTask { MarkdownRenderer.html(fromMarkdown: "~~a~~ www.example.com | x |") } }
            return await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(results.count == 1)
    }
}
