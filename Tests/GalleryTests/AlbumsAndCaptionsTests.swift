import Foundation
import Gallery
import GalleryConfig
import Testing

@Suite("Captions")
struct CaptionTests {
    @Test("NAME.EXT.txt/.md come first, then STEM.txt/.md, then the EXIF description")
    func priority() throws {
        let folder = try PhotoFolder()
        for name in ["a", "b", "c", "d", "e", "f"] {
            try folder.photo("\(name).jpg", description: "EXIF \(name)")
        }
        try folder.text("a.jpg.txt", "full name text")
        try folder.text("a.jpg.md", "full name *markdown*")
        try folder.text("a.txt", "stem text")
        try folder.text("b.jpg.md", "full name *markdown* & <b>")
        try folder.text("b.txt", "stem text")
        try folder.text("c.txt", "  stem <text> & more \n")
        try folder.text("c.md", "stem markdown")
        try folder.text("d.md", "stem **markdown**")
        try folder.text("e.jpg.txt", "   \n")  // empty: the next source is used
        let result = try folder.scan(sort: .name)
        #expect(result.problems.isEmpty)
        let photos = Dictionary(uniqueKeysWithValues: result.root.photos.map { ($0.fileName, $0) })

        #expect(photos["a.jpg"]?.captionText == "full name text")
        #expect(photos["a.jpg"]?.captionHTML == nil)
        #expect(photos["b.jpg"]?.captionHTML?.contains("<em>markdown</em>") == true)
        #expect(photos["b.jpg"]?.captionText == nil)
        #expect(photos["b.jpg"]?.caption?.hasPrefix("full name markdown &") == true)
        #expect(photos["c.jpg"]?.captionText == "stem <text> & more")  // plain text, escaped by the templates
        #expect(photos["d.jpg"]?.captionHTML == "<p>stem <strong>markdown</strong></p>")
        #expect(photos["d.jpg"]?.caption == "stem markdown")
        #expect(photos["e.jpg"]?.captionText == "EXIF e")
        #expect(photos["f.jpg"]?.captionText == "EXIF f")
        #expect(photos["f.jpg"]?.caption == "EXIF f")
    }

    @Test("a photo named index.jpg does not take the album's index.md as its caption")
    func indexIsNotACaption() throws {
        let folder = try PhotoFolder()
        try folder.photo("index.jpg")
        try folder.text("index.md", "About this album")
        let result = try folder.scan()
        #expect(result.root.photos.first?.captionHTML == nil)
        #expect(result.root.photos.first?.captionText == nil)
        #expect(result.root.descriptionHTML == "<p>About this album</p>")
    }
}

@Suite("Sort order")
struct SortOrderTests {
    @Test("by default photos sort by capture date; undated ones follow by name; ties by name")
    func byDate() throws {
        let folder = try PhotoFolder()
        try folder.photo("z-oldest.jpg", date: "2020:01:01 10:00:00")
        try folder.photo("b-tie.jpg", date: "2022:06:01 12:00:00")
        try folder.photo("a-tie.jpg", date: "2022:06:01 12:00:00")
        try folder.photo("m-newest.jpg", date: "2024:12:31 23:59:59")
        try folder.photo("IMG_10.jpg")
        try folder.photo("IMG_2.jpg")
        try folder.photo("zero.jpg", date: "0000:00:00 00:00:00")  // "unknown" in EXIF: undated
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        #expect(result.root.sort == .date)
        #expect(result.root.photos.map(\.fileName)
                == ["z-oldest.jpg", "a-tie.jpg", "b-tie.jpg", "m-newest.jpg", "IMG_2.jpg", "IMG_10.jpg", "zero.jpg"])
        #expect(result.root.photos.first?.date == GalleryDate("2020-01-01 10:00:00"))
        #expect(result.root.date == GalleryDate("2020-01-01 10:00:00"))
    }

    @Test("by name on request: numbers by value, dates ignored")
    func byName() throws {
        let folder = try PhotoFolder()
        try folder.photo("IMG_10.jpg", date: "2020:01:01 10:00:00")
        try folder.photo("IMG_2.jpg", date: "2024:01:01 10:00:00")
        try folder.photo("img_3.jpg")
        try folder.photo("B/x.jpg", date: "2019:01:01 00:00:00")
        try folder.photo("A/x.jpg", date: "2023:01:01 00:00:00")
        let result = try folder.scan(sort: .name)
        #expect(result.root.photos.map(\.fileName) == ["IMG_2.jpg", "img_3.jpg", "IMG_10.jpg"])
        #expect(result.root.albums.map(\.name) == ["A", "B"])
        #expect(result.root.sort == .name)
    }

    @Test("albums sort by their date: front matter, else their oldest photo (also below them); undated last")
    func albumsByDate() throws {
        let folder = try PhotoFolder()
        try folder.photo("Alpha/a.jpg", date: "2023:05:01 00:00:00")
        try folder.photo("Beta/b.jpg", date: "2021:05:01 00:00:00")
        try folder.photo("Gamma/Inner/g.jpg", date: "2022:01:01 00:00:00")
        try folder.photo("Delta/d.jpg")
        try folder.photo("Epsilon/e.jpg", date: "2024:01:01 00:00:00")
        try folder.text("Epsilon/index.md", "---\ndate: 2020-01-01\n---\n")
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        #expect(result.root.albums.map(\.name) == ["Epsilon", "Beta", "Gamma", "Alpha", "Delta"])
        #expect(result.root.albums.map { $0.date?.description }
                == ["2020-01-01", "2021-05-01 00:00:00", "2022-01-01 00:00:00", "2023-05-01 00:00:00", nil])
    }

    @Test("an album's index.md overrides the order for its own photos and sub-albums only", arguments: [
        (AlbumSortOrder.date, "name"), (AlbumSortOrder.name, "date"),
    ])
    func perAlbumOverride(site: AlbumSortOrder, album: String) throws {
        let folder = try PhotoFolder()
        for directory in ["", "Trip/", "Trip/Inner/"] {
            try folder.photo("\(directory)b.jpg", date: "2020:01:01 00:00:00")
            try folder.photo("\(directory)a.jpg", date: "2021:01:01 00:00:00")
        }
        try folder.text("Trip/index.md", "---\nsort: \(album)\n---\n")
        let result = try folder.scan(sort: site)
        #expect(result.problems.isEmpty)
        let byName = ["a.jpg", "b.jpg"], byDate = ["b.jpg", "a.jpg"]
        let trip = try #require(result.root.albums.first)
        #expect(result.root.photos.map(\.fileName) == (site == .name ? byName : byDate))
        #expect(trip.sort.rawValue == album)
        #expect(trip.photos.map(\.fileName) == (album == "name" ? byName : byDate))
        #expect(trip.albums.first?.photos.map(\.fileName) == (site == .name ? byName : byDate))
    }
}

@Suite("Albums: index.md")
struct AlbumIndexTests {
    @Test("front matter gives title, date, cover and hidden; the body becomes the description")
    func frontMatter() throws {
        let folder = try PhotoFolder()
        try folder.photo("Trip/IMG_1.jpg", date: "2024:07:01 09:00:00")
        try folder.photo("Trip/IMG_2.jpg", date: "2024:07:02 09:00:00")
        try folder.text("Trip/index.md", """
            ---
            title: Summer in Brittany
            date: 2024-07-14
            cover: IMG_2.jpg
            ---
            Two weeks on the *coast*.

            - rain
            - crêpes
            """)
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        let trip = try #require(result.root.albums.first)
        #expect(trip.name == "Trip")
        #expect(trip.title == "Summer in Brittany")
        #expect(trip.date == GalleryDate("2024-07-14"))
        #expect(trip.coverFileName == "IMG_2.jpg")
        #expect(trip.cover?.fileName == "IMG_2.jpg")
        #expect(trip.photos.first?.fileName == "IMG_1.jpg")
        #expect(trip.hidden == false)
        let html = try #require(trip.descriptionHTML)
        #expect(html.contains("<p>Two weeks on the <em>coast</em>.</p>"))
        #expect(html.contains("<li>crêpes</li>"))
        #expect(result.root.cover?.fileName == "IMG_2.jpg")  // the parent's cover comes from the sub-album's cover
    }

    @Test("an album without index.md has its folder name as title and no description")
    func noIndex() throws {
        let folder = try PhotoFolder()
        try folder.photo("Trip/a.jpg")
        let trip = try #require(try folder.scan().root.albums.first)
        #expect(trip.title == "Trip" && trip.descriptionHTML == nil && trip.coverFileName == nil && !trip.hidden)
    }

    @Test("problems in index.md name the file and the line; the rest of the album is kept")
    func problems() throws {
        let folder = try PhotoFolder()
        try folder.photo("Trip/a.jpg")
        try folder.photo("Trip/b.jpg")
        try folder.file("Trip/c.jpg", bytes: Array("not a photo".utf8))
        try folder.text("Trip/index.md", "---\ntitle: Trip!\ncolor: red\ncover: c.jpg\n---\nHello")
        try folder.photo("Other/x.jpg")
        try folder.text("Other/index.md", "---\ntitle: Never closed\n")
        let result = try folder.scan(sort: .name)
        let problems = result.problems.filter { $0.path.hasSuffix("index.md") }
        #expect(problems.map(\.path) == ["Other/index.md", "Trip/index.md", "Trip/index.md"])
        #expect(problems.map(\.line) == [1, 3, 4])
        #expect(problems[0].reason.hasPrefix("line 1: ") && problems[0].reason.contains("no closing ---"))
        #expect(problems[1].description.hasPrefix("Trip/index.md: line 3: color: unknown key"))
        #expect(problems[2].reason.contains("\"c.jpg\" is not a photo"))
        #expect(result.problems.contains { $0.path == "Trip/c.jpg" })
        let trip = try #require(result.root.albums.last)
        #expect(trip.title == "Trip!")
        #expect(trip.coverFileName == nil && trip.cover?.fileName == "a.jpg")
        #expect(trip.descriptionHTML == "<p>Hello</p>")
        #expect(trip.photos.count == 2)
        let other = try #require(result.root.albums.first)
        #expect(other.title == "Other" && other.descriptionHTML == nil)
    }

    @Test("a hidden album stays in the model (it is built) but not in its parent's visible albums")
    func hidden() throws {
        let folder = try PhotoFolder()
        try folder.photo("Public/a.jpg", date: "2024:01:01 00:00:00")
        try folder.photo("Secret/s.jpg", date: "2020:01:01 00:00:00")
        try folder.text("Secret/index.md", "---\nhidden: true\n---\n")
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        #expect(result.root.albums.map(\.name) == ["Secret", "Public"])
        #expect(result.root.albums.map(\.hidden) == [true, false])
        #expect(result.root.visibleAlbums.map(\.name) == ["Public"])
        #expect(result.root.cover?.fileName == "a.jpg")  // a hidden album never gives its parent a cover
        #expect(result.root.totalPhotoCount == 2)
    }

    @Test("the scanner takes its options from a site configuration")
    func optionsFromConfiguration() throws {
        var configuration = SiteConfiguration()
        configuration.sort = .name
        configuration.maxMegapixels = 3
        let options = ScanOptions(configuration: configuration, concurrency: 1)
        #expect(options.sort == .name && options.limits.maxPixels == 3_000_000 && options.concurrency == 1)
        #expect(ScanOptions(concurrency: 0).concurrency == 1)
        #expect(ScanOptions().sort == .date)
    }

    @Test("the photo folder is not written to")
    func readOnly() throws {
        let folder = try PhotoFolder()
        try folder.photo("Trip/a.jpg")
        try folder.text("Trip/index.md", "---\ntitle: T\n---\nHi")
        try folder.text("Trip/a.jpg.md", "*hi*")
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.root.path).sorted()
        _ = try folder.scan()
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.root.path).sorted() == before)
    }
}
