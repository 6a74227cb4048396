import Testing

@testable import SiteGenerator

@Suite("Filling a theme's texts")
struct SiteStringsFillTests {
    @Test("each {name} is replaced by its value, from left to right, and a value is not filled in its turn")
    func fillsOnce() {
        let values = ["position": "3", "album": "{position} and {album}"]
        #expect(SiteStrings.fill("Photo {position} of {album}", values) == "Photo 3 of {position} and {album}")
        #expect(SiteStrings.fill("{album}{position}{position}", values) == "{position} and {album}33")
    }

    @Test("braces that name no value, unclosed braces and doubled braces are kept as they are")
    func keepsOtherBraces() {
        let values = ["count": "12 345"]
        #expect(SiteStrings.fill("{count} photos {unknown}", values) == "12 345 photos {unknown}")
        #expect(SiteStrings.fill("{{count}}", values) == "{12 345}")
        #expect(SiteStrings.fill("a { b {count", values) == "a { b {count")
        #expect(SiteStrings.fill("ends with {", values) == "ends with {")
        #expect(SiteStrings.fill("{}", values) == "{}")
        #expect(SiteStrings.fill("Élan {count} — ✓", values) == "Élan 12 345 — ✓")
        #expect(SiteStrings.fill("no values {count}", [:]) == "no values {count}")
    }
}
