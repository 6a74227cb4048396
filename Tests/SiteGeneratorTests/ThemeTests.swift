import Foundation
import Testing
import TestSupport

@testable import SiteGenerator

/// A theme folder's templates with mistakes in them: the build stops with a sentence that
/// names the file, the line and what is wrong.
struct ThemeTests {
    /// The reason ``Theme`` gives for a theme folder whose `album.mustache` is `text`.
    private func mistake(in text: String) throws -> (file: String, reason: String) {
        let folder = try TemporaryFolder()
        try folder.write("album.mustache", text)
        do {
            _ = try Theme(overrides: folder.path)
        } catch {
            guard case .template(let file, let reason) = error else { throw error }
            return (file, reason)
        }
        Issue.record("the theme was loaded")
        return ("", "")
    }

    @Test("a section closed by another name: the file's path, its line and column, and the mistake in words")
    func wrongSectionClosed() throws {
        let (file, reason) = try mistake(in: "<ul>\n{{#photos}}\n<li>{{title}}</li>\n{{/albums}}\n</ul>\n")
        #expect(file.hasSuffix("/album.mustache") && file.hasPrefix("/"))
        // (The column is the tag's `{{`, not where the parser stopped, after the name.)
        #expect(reason.hasPrefix("line 4, column 1: {{/albums}}"))
        #expect(reason.contains("closes a section that is not the one open"))
        #expect(!reason.contains("ParserError") && !reason.contains("Mustache."))
    }

    @Test("each kind of mistake is told in words, never as the library's types", arguments: [
        ("{{#photos}}\n<li>{{title}}</li>\n", "never closed"),
        ("<p>{{title</p>\n", "not finished"),
        ("{{=<% %> x=}}\n", "set-delimiter"),
        ("{{% NOT_A_PRAGMA: x}}\n", "pragma"),
        ("<p>{{title", "{{"),
    ])
    func kinds(text: String, words: String) throws {
        let (_, reason) = try mistake(in: text)
        #expect(reason.hasPrefix("line "))
        #expect(reason.contains(words))
        #expect(!reason.contains("ParserError") && !reason.contains("Mustache."))
    }

    @Test("the column is the start of the tag that is wrong", arguments: [
        ("<p>{{title</p>\n", "line 1, column 4:"),
        ("<ul>\n  <li>{{#a}}x{{/b}}</li>\n", "line 2, column 14:"),
        ("<ul>\n{{#a}}\n", "line 3, column "),  // (never closed: where the parser ended, not a tag)
    ])
    func column(text: String, place: String) throws {
        let (_, reason) = try mistake(in: text)
        #expect(reason.hasPrefix(place), "\(reason)")
    }

    @Test("a tag's start is found before the parser's column, over a line of any characters")
    func tagStart() {
        #expect(TemplateMistake.tagStart(in: "ab{{c", before: 6) == 3)
        #expect(TemplateMistake.tagStart(in: "é{{{c}}}", before: 6) == 2)
        #expect(TemplateMistake.tagStart(in: "<%c%>", before: 4) == 4)  // (other delimiters: as the parser said)
        #expect(TemplateMistake.tagStart(in: "{{a}} {{b", before: 10) == 7)
        #expect(TemplateMistake.tagStart(in: "", before: 1) == 1)
    }

    @Test("a minified template's long line is cut in the message")
    func longLine() throws {
        let (_, reason) = try mistake(in: String(repeating: "<b>x</b>", count: 200) + "{{/photos}}\n")
        #expect(reason.count < 400)
        #expect(reason.contains("…"))
    }
}
