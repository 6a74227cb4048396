import GalleryConfig
import Testing

/// The settings of photo metadata: `show_exif`, `min_rating`, the descending sorts and an
/// album's manual `order`.
@Suite("Metadata settings")
struct MetadataSettingsTests {
    @Test("show_exif, min_rating and the descending sorts are read; defaults show settings and publish every rating")
    func keys() throws {
        #expect(SiteConfiguration().showExif && SiteConfiguration().minRating == 0)
        let configuration = try SiteConfiguration.parse("show_exif: false\nmin_rating: 3\nsort: date-desc\n")
        #expect(!configuration.showExif)
        #expect(configuration.minRating == 3)
        #expect(configuration.sort == .dateDescending)
        #expect(try SiteConfiguration.parse("sort: Name-Desc").sort == .nameDescending)
    }

    @Test("people: true by default; people: false is read; a value that is not true or false is refused with its line")
    func people() throws {
        #expect(SiteConfiguration().people)
        #expect(try !SiteConfiguration.parse("people: false").people)
        let error = try #require(throws: ConfigurationError.self) { try SiteConfiguration.parse("title: T\npeople: maybe") }
        #expect(error.line == 2)
    }

    @Test("a min_rating outside 0 to 5 and an unknown sort are refused with the line and what is allowed",
          arguments: [("min_rating: 6", "0 to 5"), ("min_rating: -1", "0 to 5"), ("sort: newest", "date-desc")])
    func bad(yaml: String, mentions: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try SiteConfiguration.parse(yaml) }
        #expect(error.line == 1)
        #expect(error.description.contains(mentions))
    }

    @Test("index.md: order lists file names; a path or a non-list is a problem with its line, the other keys stay")
    func order() throws {
        let good = AlbumIndexFile(parsing: "---\nsort: name-desc\norder:\n  - b.jpg\n  - a.jpg\n---\n", file: "index.md")
        #expect(good.problems.isEmpty)
        #expect(good.frontMatter.order == ["b.jpg", "a.jpg"])
        #expect(good.frontMatter.sort == .nameDescending)
        let bad = AlbumIndexFile(parsing: "---\ntitle: T\norder: [x/a.jpg]\n---\n", file: "index.md")
        #expect(bad.frontMatter.title == "T" && bad.frontMatter.order.isEmpty)
        #expect(bad.problems.first?.line == 3)
        let scalar = AlbumIndexFile(parsing: "---\norder: a.jpg\n---\n", file: "index.md")
        #expect(scalar.problems.count == 1 && scalar.frontMatter.order.isEmpty)
    }
}
