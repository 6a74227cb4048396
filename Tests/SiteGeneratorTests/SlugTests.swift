import Testing

@testable import SiteGenerator

@Suite("Slugs and URLs")
struct SlugTests {
    @Test(
        "slugs keep letters and digits of any script and nothing else",
        arguments: [
            ("Summer 2024", "summer-2024"),
            ("IMG_0001", "img_0001"),
            ("Café au lait", "café-au-lait"),
            ("東京 タワー", "東京-タワー"),
            ("<script>alert(1)</script>", "script-alert-1-script"),
            ("a & b # c ? d % e", "a-b-c-d-e"),
            ("  --dots...and--dashes--  ", "dots-and-dashes"),
            ("🎉🎉", ""),
        ])
    func slug(name: String, expected: String) {
        #expect(SlugAllocator.slug(name) == expected)
    }

    @Test("the byte-by-byte slug of ASCII names is the scalar-by-scalar one")
    func asciiSlugs() {
        var generator = SystemRandomNumberGenerator()
        let every = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        var names = every + ["", "IMG_0001.JPG", String(repeating: "ab-", count: 60), String(repeating: "x", count: 200)]
        for _ in 0..<2_000 {
            names.append(String((0..<Int.random(in: 0...30, using: &generator)).map { _ in
                Character(UnicodeScalar(UInt8.random(in: 0...127, using: &generator)))
            }))
        }
        for name in names {
            #expect(SlugAllocator.asciiSlug(name) == SlugAllocator.unicodeSlug(name), "\(name.debugDescription)")
        }
    }

    @Test("decomposed (macOS) and composed names give the same slug")
    func normalisation() {
        #expect(SlugAllocator.slug("Cafe\u{301}") == SlugAllocator.slug("Caf\u{E9}"))
    }

    @Test("names that differ only by case, or share a stem, get distinct slugs; reserved names are avoided")
    func uniqueness() {
        var allocator = SlugAllocator(reserved: ["index", "thumbs"])
        let slugs = ["IMG_1", "img_1", "a", "a", "index", "Thumbs", "🎉", "🌈"].map {
            allocator.allocate(for: $0, fallback: "photo")
        }
        #expect(slugs == ["img_1", "img_1-2", "a", "a-2", "index-2", "thumbs-2", "photo", "photo-2"])
        #expect(Set(slugs.map { $0.lowercased() }).count == slugs.count)
    }

    @Test(
        "URL paths are percent-encoded segment by segment",
        arguments: [
            ("a b/c#d?.html", "a%20b/c%23d%3F.html"),
            ("100%/x", "100%25/x"),
            ("café/東.jpg", "caf%C3%A9/%E6%9D%B1.jpg"),
            ("../thumbs/x-400.jpg", "../thumbs/x-400.jpg"),
        ])
    func urlEncoding(path: String, expected: String) {
        #expect(URLPath.encode(path: path) == expected)
    }

    @Test("relative URLs between site folders")
    func relativeURLs() {
        #expect(relativeURL(from: "", to: "nature/index.html") == "nature/index.html")
        #expect(relativeURL(from: "nature/flowers/", to: "index.html") == "../../index.html")
        #expect(relativeURL(from: "nature/", to: "nature/thumbs/a-400.jpg") == "thumbs/a-400.jpg")
        #expect(relativeURL(from: "nature/", to: "abstract/x y.html") == "../abstract/x%20y.html")
        #expect(relativeURL(from: "nature/", to: "nature/") == "./")
        #expect(relativeURL(from: "nature/pages/", to: "nature/a.html") == "../a.html")
        #expect(relativeURL(from: "nature/flowers/", to: "nature/thumbs/b-400.jpg") == "../thumbs/b-400.jpg")
        #expect(relativeURL(from: "naturel/", to: "nature/a.html") == "../nature/a.html")
        // ASCII paths (worked out on bytes) and others (by segments) agree.
        #expect(relativeURL(from: "nature/pages/", to: "nature/pages/x y.html") == "x%20y.html")
        #expect(relativeURL(from: "a/b/", to: "a/b") == "../b")
        #expect(relativeURL(from: "a/b/c/", to: "a/x/c/d.jpg") == "../../x/c/d.jpg")
        #expect(relativeURL(from: "café/été/", to: "café/été/x y.html") == "x%20y.html")
        #expect(relativeURL(from: "café/été/", to: "café/thumbs/x.jpg") == "../thumbs/x.jpg")
        #expect(relativeURL(from: "nature/", to: "nature") == "../nature")
        #expect(relativeURL(from: "", to: "") == "./")
    }

    @Test("JSON strings escape quotes, control characters and HTML-sensitive characters")
    func json() {
        #expect(jsonString("a\"b\\c\n</script>&") == "\"a\\\"b\\\\c\\n\\u003c/script\\u003e\\u0026\"")
        #expect(jsonString("\u{1}") == "\"\\u0001\"")
        // Line and paragraph separators are escaped; other text, a dash of the same lead bytes included, is kept.
        #expect(jsonString("a\u{2028}b\u{2029}c \u{2014} caf\u{E9} \u{1F600}") == "\"a\\u2028b\\u2029c \u{2014} caf\u{E9} \u{1F600}\"")
    }
}
