import Foundation
import GalleryConfig
import Testing
import TestSupport

@Suite("cascade.yml")
struct SiteConfigurationTests {
    @Test("no file, an empty file and a file of comments give the defaults")
    func defaults() throws {
        let expected = SiteConfiguration()
        #expect(expected.title == nil && expected.author == nil && expected.baseURL == nil)
        #expect(expected.breakpoints.map { [$0.minWidth, $0.columns] }
                == [[0, 2], [600, 3], [1000, 4], [1600, 5], [2400, 6]])
        #expect(expected.gap == 8 && expected.pagePadding == 12)
        #expect(expected.thumbnailWidths == [400, 800, 1600] && expected.photoWidths == [800, 1600, 2400])
        #expect(expected.formats == [.jpeg] && expected.quality == 82 && expected.sort == .date)
        #expect(expected.maxMegapixels == 200 && expected.maxPixels == 200_000_000)
        #expect(expected.stripGPS == true && expected.downloadOriginals == false)
        #expect(expected.group == .none && expected.layout == .columns)
        #expect(expected.breakpoints.map(\.effectiveRowHeight) == [150, 180, 220, 260, 300])
        #expect(try SiteConfiguration.parse("") == expected)
        #expect(try SiteConfiguration.parse("# only a comment\n\n") == expected)
        #expect(try SiteConfiguration.parse("title:\ngap: ~\n") == expected)

        let folder = try TemporaryFolder()
        #expect(try SiteConfiguration.load(folder: folder.path) == expected)
    }

    @Test("every key is read")
    func everyKey() throws {
        let yaml = """
            title: Holidays 2024
            author: Jane Doe
            base_url: https://example.com/photos
            breakpoints:
              - min_width: 0
                columns: 1
              - { min_width: 700, columns: 3 }
            gap: 0
            page_padding: 20
            thumbnail_widths: [800, 300]
            photo_widths: [1200]
            formats: [avif, webp, jpeg]
            quality: 90
            sort: name
            max_megapixels: 50
            strip_gps: false
            download_originals: yes
            group: month
            """
        let configuration = try SiteConfiguration.parse(yaml)
        #expect(configuration.title == "Holidays 2024")
        #expect(configuration.author == "Jane Doe")
        #expect(configuration.baseURL == "https://example.com/photos/")
        #expect(configuration.breakpoints == [.init(minWidth: 0, columns: 1), .init(minWidth: 700, columns: 3)])
        #expect(configuration.gap == 0)
        #expect(configuration.pagePadding == 20)
        #expect(configuration.thumbnailWidths == [300, 800])
        #expect(configuration.photoWidths == [1200])
        #expect(configuration.formats == [.avif, .webp, .jpeg])
        #expect(configuration.quality == 90)
        #expect(configuration.sort == .name)
        #expect(configuration.maxMegapixels == 50)
        #expect(configuration.stripGPS == false)
        #expect(configuration.downloadOriginals == true)
        #expect(configuration.group == .month)
    }

    @Test("layout and row heights are read; a breakpoint without row_height takes the default's for its width")
    func layoutAndRowHeights() throws {
        let configuration = try SiteConfiguration.parse("""
            layout: rows
            breakpoints:
              - {min_width: 0, columns: 2, row_height: 100}
              - {min_width: 1200, columns: 4}
            """)
        #expect(configuration.layout == .rows)
        #expect(configuration.breakpoints.map(\.rowHeight) == [100, nil])
        #expect(configuration.breakpoints.map(\.effectiveRowHeight) == [100, 220])
        #expect(SiteConfiguration.Breakpoint.defaultRowHeight(minWidth: 3000) == 300)
        for (name, expected) in [("day", PhotoGrouping.day), ("year", .year), ("none", .none)] {
            #expect(try SiteConfiguration.parse("group: \(name)").group == expected)
        }
    }

    @Test("a title that YAML reads as a number is still a title; a single format needs no list")
    func lenientScalars() throws {
        #expect(try SiteConfiguration.parse("title: 2024").title == "2024")
        #expect(try SiteConfiguration.parse("formats: WebP").formats == [.webp])
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var yaml: String
        var kind: ConfigurationError.Kind
        var key: String
        var line: Int
        var mentions: [String]
        var testDescription: String { "\(key): \(yaml.split(separator: "\n").last ?? "")" }
    }

    static let badCases: [BadCase] = [
        // Unknown keys, with a suggestion and the allowed keys.
        BadCase(yaml: "title: A\ncolums: 3", kind: .unknownKey, key: "colums", line: 2, mentions: ["unknown key", "breakpoints", "gap"]),
        BadCase(yaml: "gap: 4\nstrip-gps: true", kind: .unknownKey, key: "strip-gps", line: 2, mentions: ["did you mean `strip_gps`"]),
        BadCase(yaml: "breakpoints:\n  - {min_width: 0, columns: 2, gap: 4}", kind: .unknownKey, key: "breakpoints[0].gap", line: 2,
                mentions: ["min_width, columns"]),
        // Wrong types.
        BadCase(yaml: "gap: wide", kind: .wrongType, key: "gap", line: 1, mentions: ["whole number", "\"wide\""]),
        BadCase(yaml: "quality: \"90\"", kind: .wrongType, key: "quality", line: 1, mentions: ["whole number"]),
        BadCase(yaml: "title: T\n\nstrip_gps: 1", kind: .wrongType, key: "strip_gps", line: 3, mentions: ["true or false"]),
        BadCase(yaml: "thumbnail_widths: 400", kind: .wrongType, key: "thumbnail_widths", line: 1, mentions: ["a list"]),
        BadCase(yaml: "photo_widths: [800, big]", kind: .wrongType, key: "photo_widths[1]", line: 1, mentions: ["\"big\""]),
        BadCase(yaml: "title: [a, b]", kind: .wrongType, key: "title", line: 1, mentions: ["expected text", "a list"]),
        BadCase(yaml: "breakpoints: {min_width: 0, columns: 2}", kind: .wrongType, key: "breakpoints", line: 1, mentions: ["a list"]),
        BadCase(yaml: "breakpoints:\n  - 600", kind: .wrongType, key: "breakpoints[0]", line: 2, mentions: ["min_width: 600"]),
        BadCase(yaml: "- a\n- b", kind: .wrongType, key: "", line: 1, mentions: ["mapping"]),
        // Out of range and bad values.
        BadCase(yaml: "quality: 0", kind: .badValue, key: "quality", line: 1, mentions: ["from 1 to 100", "not 0"]),
        BadCase(yaml: "gap: 8\nquality: 101", kind: .badValue, key: "quality", line: 2, mentions: ["from 1 to 100"]),
        BadCase(yaml: "max_megapixels: 0", kind: .badValue, key: "max_megapixels", line: 1, mentions: ["megapixels"]),
        BadCase(yaml: "gap: -1", kind: .badValue, key: "gap", line: 1, mentions: ["from 0 to 200"]),
        BadCase(yaml: "sort: size", kind: .badValue, key: "sort", line: 1, mentions: ["date, name", "\"size\""]),
        BadCase(yaml: "formats: [jpeg, png]", kind: .badValue, key: "formats[1]", line: 1, mentions: ["jpeg, webp, avif"]),
        BadCase(yaml: "formats: [webp, webp]", kind: .badValue, key: "formats[1]", line: 1, mentions: ["twice"]),
        BadCase(yaml: "formats: []", kind: .badValue, key: "formats", line: 1, mentions: ["at least one"]),
        BadCase(yaml: "thumbnail_widths: [400, 0]", kind: .badValue, key: "thumbnail_widths[1]", line: 1, mentions: ["16 to 20000"]),
        BadCase(yaml: "base_url: example.com", kind: .badValue, key: "base_url", line: 1, mentions: ["https://"]),
        BadCase(yaml: "base_url: ftp://example.com/", kind: .badValue, key: "base_url", line: 1, mentions: ["http://"]),
        BadCase(yaml: "group: week", kind: .badValue, key: "group", line: 1, mentions: ["day, month, year, none", "\"week\""]),
        BadCase(yaml: "layout: grid", kind: .badValue, key: "layout", line: 1, mentions: ["columns, rows"]),
        BadCase(yaml: "layout: rows\ngap: 4\ngroup: day", kind: .badValue, key: "group", line: 3, mentions: ["layout: rows", "group: none"]),
        BadCase(yaml: "breakpoints:\n  - {min_width: 0, columns: 2, row_height: 20}", kind: .badValue, key: "breakpoints[0].row_height",
                line: 2, mentions: ["from 40 to 2000"]),
        // Bad breakpoints.
        BadCase(yaml: "breakpoints:\n  - {min_width: 0, columns: 2}\n  - {min_width: 600, columns: 3}\n  - {min_width: 900, columns: 0}",
                kind: .badValue, key: "breakpoints[2].columns", line: 4, mentions: ["from 1 to 24", "not 0"]),
        BadCase(yaml: "breakpoints:\n  - {min_width: 0, columns: 2}\n  - {min_width: 600, columns: 3}\n  - {min_width: 300, columns: 4}",
                kind: .badValue, key: "breakpoints[2].min_width", line: 4, mentions: ["growing min_width", "600"]),
        BadCase(yaml: "breakpoints:\n  - {min_width: 0, columns: 2}\n  - {min_width: 0, columns: 3}",
                kind: .badValue, key: "breakpoints[1].min_width", line: 3, mentions: ["growing"]),
        BadCase(yaml: "breakpoints:\n  - {min_width: 300, columns: 2}", kind: .badValue, key: "breakpoints[0].min_width", line: 2,
                mentions: ["start at min_width 0"]),
        BadCase(yaml: "breakpoints:\n  - min_width: 0\n  - {min_width: 600, columns: 3}", kind: .badValue, key: "breakpoints[0]", line: 2,
                mentions: ["columns is missing"]),
        BadCase(yaml: "breakpoints: []", kind: .badValue, key: "breakpoints", line: 1, mentions: ["at least one"]),
        // Repeated keys and broken YAML.
        BadCase(yaml: "gap: 4\ngap: 6", kind: .duplicateKey, key: "gap", line: 2, mentions: ["twice", "line 1"]),
        BadCase(yaml: "title: T\n\"title\": U", kind: .duplicateKey, key: "title", line: 2, mentions: ["twice", "line 1"]),
    ]

    @Test("a bad setting is an error naming the file, the key path and the line", arguments: badCases)
    func badSettings(_ case_: BadCase) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try SiteConfiguration.parse(case_.yaml, file: "/photos/cascade.yml")
        }
        #expect(error.kind == case_.kind)
        #expect(error.key == (case_.key.isEmpty ? nil : case_.key) || error.key == case_.key)
        #expect(error.line == case_.line)
        #expect(error.file == "/photos/cascade.yml")
        let message = error.description
        #expect(message.hasPrefix("/photos/cascade.yml:\(case_.line): "))
        if !case_.key.isEmpty { #expect(message.contains(case_.key + ": ")) }
        for text in case_.mentions { #expect(message.contains(text), "\(message) should mention \(text)") }
    }

    @Test("broken YAML is a syntax error with its line")
    func brokenYAML() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try SiteConfiguration.parse("title: A\ngap: [1, 2\nquality: 3", file: "cascade.yml")
        }
        #expect(error.kind == .syntax)
        #expect(error.line != nil)
        #expect(error.description.hasPrefix("cascade.yml:"))
        #expect(error.description.contains("not valid YAML"))
    }

    @Test("a configuration file is loaded from the photo folder; errors name its path")
    func loadFromFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("cascade.yml", "title: Trip\nsort: name\n")
        let configuration = try SiteConfiguration.load(folder: folder.path)
        #expect(configuration.title == "Trip" && configuration.sort == .name)

        try folder.write("cascade.yml", "title: Trip\nsort: random\n")
        let error = try #require(throws: ConfigurationError.self) { try SiteConfiguration.load(folder: folder.path) }
        #expect(error.description.hasPrefix(folder.path + "/cascade.yml:2: sort: "))
    }

    @Test("the starter file documents every key and parses to the defaults")
    func initTemplateRoundTrip() throws {
        #expect(try SiteConfiguration.parse(SiteConfiguration.initTemplate) == SiteConfiguration())
        for key in SiteConfiguration.keys {
            #expect(SiteConfiguration.initTemplate.contains("\(key):"), "the template should document \(key)")
        }
        // Uncommenting the optional examples still gives a valid file.
        let uncommented = SiteConfiguration.initTemplate
            .replacingOccurrences(of: "# title:", with: "title:")
            .replacingOccurrences(of: "# author:", with: "author:")
            .replacingOccurrences(of: "# base_url:", with: "base_url:")
        let configuration = try SiteConfiguration.parse(uncommented)
        #expect(configuration.title == "Holidays" && configuration.author == "Jane Doe")
        #expect(configuration.baseURL == "https://example.com/photos/")
    }

    @Test("init writes cascade.yml once and never overwrites it")
    func initWritesOnce() throws {
        let folder = try TemporaryFolder()
        let path = try SiteConfiguration.write(initTemplateTo: folder.path)
        #expect(path == folder.path + "/cascade.yml")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == SiteConfiguration.initTemplate)
        #expect(try SiteConfiguration.load(folder: folder.path) == SiteConfiguration())

        try folder.write("cascade.yml", "title: Mine\n")
        let error = try #require(throws: ConfigurationError.self) {
            try SiteConfiguration.write(initTemplateTo: folder.path)
        }
        #expect(error.kind == .alreadyExists)
        #expect(error.description.contains("already exists"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "title: Mine\n")

        let missing = folder.path + "/nope"
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.write(initTemplateTo: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}

@Suite("Dates")
struct GalleryDateTests {
    @Test("EXIF and ISO forms are read; nonsense is not", arguments: [
        ("2024:05:06 07:08:09", "2024-05-06 07:08:09"),
        ("2024-05-06", "2024-05-06"),
        ("2024-05-06 18:30", "2024-05-06 18:30:00"),
        ("2024-05-06T18:30:15Z", "2024-05-06 18:30:15"),
        ("2024-05-06 18:30:15.25+02:00", "2024-05-06 18:30:15"),
        ("0000:00:00 00:00:00", nil),
        ("2024-02-30", nil),
        ("2024-13-01", nil),
        ("yesterday", nil),
        ("2024-05-06 25:00", nil),
    ] as [(String, String?)])
    func parsing(_ text: String, _ expected: String?) {
        #expect(GalleryDate(text)?.description == expected)
    }

    @Test("dates order by value; a day without a time comes before the same day with one")
    func ordering() throws {
        let day = try #require(GalleryDate("2024-05-06"))
        let morning = try #require(GalleryDate("2024-05-06 08:00"))
        let before = try #require(GalleryDate("2024-05-05 23:59:59"))
        #expect(before < day && day < morning)
        #expect(morning.iso8601 == "2024-05-06T08:00:00")
        #expect(day != GalleryDate("2024-05-06 00:00:00"))
    }
}

