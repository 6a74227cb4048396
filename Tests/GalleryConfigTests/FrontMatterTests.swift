import GalleryConfig
import Testing

@Suite("Album front matter")
struct FrontMatterTests {
    @Test("valid front matter sets every key, and the body follows it")
    func valid() throws {
        let text = """
            ---
            title: Summer in Brittany
            date: 2024-07-14
            cover: IMG_0042.jpg
            sort: name
            group: year
            layout: rows
            hidden: true
            ---
            Two weeks on the *coast*.
            """
        let index = AlbumIndexFile(parsing: text, file: "Brittany/index.md")
        #expect(index.problems.isEmpty)
        #expect(index.frontMatter == AlbumFrontMatter(
            title: "Summer in Brittany", date: GalleryDate("2024-07-14"), cover: "IMG_0042.jpg", coverLine: 4,
            sort: .name, group: .year, layout: .rows, hidden: true))
        #expect(index.body == "Two weeks on the *coast*.")
        #expect(index.bodyLine == 10)
    }

    @Test("no front matter: the whole file is the body")
    func none() {
        let index = AlbumIndexFile(parsing: "# Hello\n\n---\n\ntext", file: "index.md")
        #expect(index.problems.isEmpty)
        #expect(index.frontMatter == AlbumFrontMatter())
        #expect(index.body == "# Hello\n\n---\n\ntext")
    }

    @Test("Windows line ends, a byte order mark and an empty front matter are fine")
    func variants() {
        let index = AlbumIndexFile(parsing: "\u{FEFF}---\r\ntitle: A\r\n---\r\nBody\r\n", file: "index.md")
        #expect(index.problems.isEmpty)
        #expect(index.frontMatter.title == "A")
        #expect(index.body == "Body\n")
        let empty = AlbumIndexFile(parsing: "---\n---\nBody", file: "index.md")
        #expect(empty.problems.isEmpty && empty.body == "Body")
    }

    @Test("an opening --- without a closing one is a problem on line 1, and the file gives nothing")
    func missingClosing() throws {
        let index = AlbumIndexFile(parsing: "---\ntitle: A\n\nSome text", file: "Trips/index.md")
        let problem = try #require(index.problems.first)
        #expect(index.problems.count == 1)
        #expect(problem.line == 1)
        #expect(problem.description.hasPrefix("Trips/index.md:1: "))
        #expect(problem.reason.contains("no closing ---"))
        #expect(index.frontMatter == AlbumFrontMatter())
        #expect(index.body.isEmpty)
    }

    struct BadCase: Sendable {
        var yaml: String
        var key: String?
        var line: Int
        var mentions: String
    }

    @Test("each bad key is a problem with its line in the file; the other keys are kept", arguments: [
        BadCase(yaml: "title: A\ntitel: B", key: "titel", line: 3, mentions: "did you mean `title`"),
        BadCase(yaml: "title: A\ndate: last summer", key: "date", line: 3, mentions: "2024-07-14"),
        BadCase(yaml: "title: A\nhidden: maybe", key: "hidden", line: 3, mentions: "true or false"),
        BadCase(yaml: "title: A\nsort: size", key: "sort", line: 3, mentions: "date, name"),
        BadCase(yaml: "title: A\ngroup: week", key: "group", line: 3, mentions: "day, month, year, none"),
        BadCase(yaml: "title: A\nlayout: grid", key: "layout", line: 3, mentions: "columns, rows"),
        BadCase(yaml: "title: A\ncover: sub/a.jpg", key: "cover", line: 3, mentions: "no path"),
        BadCase(yaml: "title: A\ncover: [a.jpg]", key: "cover", line: 3, mentions: "expected text"),
        BadCase(yaml: "title: A\n\n\nsort: [name]", key: "sort", line: 5, mentions: "one of date, name"),
    ])
    func badKeys(_ case_: BadCase) throws {
        let index = AlbumIndexFile(parsing: "---\n\(case_.yaml)\n---\nBody", file: "A/index.md")
        let problem = try #require(index.problems.first)
        #expect(index.problems.count == 1)
        #expect(problem.key == case_.key)
        #expect(problem.line == case_.line)
        #expect(problem.description.hasPrefix("A/index.md:\(case_.line): "))
        #expect(problem.description.contains(case_.mentions), "\(problem.description)")
        #expect(index.frontMatter.title == "A")
        #expect(index.body == "Body")
    }

    @Test("YAML that cannot be read is one problem with its line; the body is still used")
    func brokenYAML() throws {
        let index = AlbumIndexFile(parsing: "---\ntitle: A\ndate: [2024\n---\nBody", file: "index.md")
        let problem = try #require(index.problems.first)
        #expect(problem.kind == .syntax)
        #expect((2...5).contains(problem.line ?? 0))
        #expect(index.frontMatter == AlbumFrontMatter())
        #expect(index.body == "Body")
    }

    @Test("a key given twice is a problem on its second line")
    func duplicateKey() throws {
        let index = AlbumIndexFile(parsing: "---\ntitle: A\nsort: name\ntitle: B\n---\nBody", file: "index.md")
        let problem = try #require(index.problems.first)
        #expect(problem.kind == .duplicateKey)
        #expect(problem.key == "title")
        #expect(problem.line == 4)
        #expect(problem.reason.contains("first on line 2"))
        #expect(index.body == "Body")
    }

    @Test("front matter that is not key: value lines is a problem")
    func notAMapping() throws {
        let index = AlbumIndexFile(parsing: "---\n- a\n- b\n---\n", file: "index.md")
        let problem = try #require(index.problems.first)
        #expect(problem.line == 2)
        #expect(problem.reason.contains("key: value"))
    }
}
