import Foundation
import FoundationXML
import Gallery
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// Whether a file name is a camera's, through ``GalleryPhoto/hasCameraName``.
enum GalleryPhotoNames {
    static func isCamera(_ stem: String) -> Bool {
        GalleryPhoto(sourcePath: "/x/\(stem).jpg", relativePath: "\(stem).jpg", fileName: "\(stem).jpg", fileSize: 1, modificationTime: 0,
                     info: ImageInfo(format: .jpeg, pixelWidth: 1, pixelHeight: 1, orientation: .up, displayWidth: 1, displayHeight: 1,
                                     metadata: PhotoMetadata())).hasCameraName
    }
}

/// Credits, people, places and titles on the site, from files written as the tools write them.
@Suite("Credits, people and places on the site")
struct PeoplePlacesSiteTests {
    func build(_ source: TemporaryFolder, _ output: TemporaryFolder, yaml: String = "author: Jane Doe") async throws -> BuildReport {
        let configuration = try SiteConfiguration.parse(yaml)
        var options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.verifyAlbumKeys = true
        return try await SiteBuilder(options: options).build { _ in }
    }

    static let region = "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=300,H=200,Unit=pixel},RegionList=["
        + "{Area={W=0.123,H=0.234,X=0.345,Y=0.456,Unit=normalized},Name=Jürgen Müller,Type=Face}]}"

    /// Two photos of Jürgen (one in an MWG region, one in a Microsoft one), one of Ana, places, credits.
    func fixture() throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        try source.photo("Trip/IMG_0001.jpg", width: 300, height: 200)
        try exiftool([Self.region, "-EXIF:Artist=Jürgen Müller", "-EXIF:Copyright=© 2024 Jürgen Müller",
                      "-XMP-photoshop:City=Paris", "-XMP-photoshop:Country=France", "-XMP-iptcCore:Location=Tour Eiffel",
                      "-XMP-lr:HierarchicalSubject=darktable|changed", "-XMP-lr:HierarchicalSubject=darktable|format|jpg",
                      "-XMP-dc:Subject=tower", "-EXIF:DateTimeOriginal=2024:07:01 10:00:00"], on: source.path + "/Trip/IMG_0001.jpg")
        try source.photo("Trip/b.jpg", width: 200, height: 300)
        try exiftool(["-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Jürgen Müller,Rectangle=0.1|, 0.2|, 0.3|, 0.4},{PersonDisplayName=Ana Lima,Rectangle=0.5|, 0.5|, 0.1|, 0.1}]}",
                      "-IPTC:City=Paris", "-IPTC:Country-PrimaryLocationName=France", "-XMP-dc:Title=At the café",
                      "-EXIF:DateTimeOriginal=2024:07:02 10:00:00"], on: source.path + "/Trip/b.jpg")
        try source.photo("Trip/c.jpg", width: 300, height: 300)
        try exiftool(["-EXIF:DateTimeOriginal=2024:07:03 10:00:00"], on: source.path + "/Trip/c.jpg")
        try source.write("Trip/c.txt", "First line\nSecond line")
        return source
    }

    @Test("people and places get pages of their own like tags, listed on the photo's page and in the lightbox's data; no rectangle is published")
    func pages() async throws {
        let source = try fixture()
        let output = try TemporaryFolder()
        let report = try await build(source, output)
        #expect(report.photos == 3 && report.skipped.isEmpty)
        let people = try output.read("people/index.html")
        #expect(people.contains(">Jürgen Müller</a> <span class=\"tag-count\">2</span>"))
        #expect(people.contains(">Ana Lima</a> <span class=\"tag-count\">1</span>"))
        let jurgen = try output.read("people/jürgen-müller/index.html")
        #expect(jurgen.contains("2 photos"))
        #expect(try output.read("people/jürgen-müller/frames.json").contains("\"count\":2"))
        let places = try output.read("places/index.html")
        #expect(places.contains(">Paris</a> <span class=\"tag-count\">2</span>") && places.contains(">Tour Eiffel</a>"))
        #expect(try output.read("places/france/frames.json").contains("\"count\":2"))

        let page = try output.read("trip/img_0001.html")
        #expect(page.contains("aria-label=\"People\"><li><a href=\"../people/j%C3%BCrgen-m%C3%BCller/index.html\">Jürgen Müller</a></li></ul>"))
        #expect(page.contains("<a href=\"../places/tour-eiffel/index.html\">Tour Eiffel</a>"))
        #expect(page.contains("<dd>Jürgen Müller</dd>") && page.contains("<dd>© 2024 Jürgen Müller</dd>"))
        // darktable's own tags are no tags; the user's is.
        #expect(FileManager.default.fileExists(atPath: output.path + "/tags/tower/index.html"))
        for leaf in ["changed", "jpg", "darktable"] {
            #expect(!FileManager.default.fileExists(atPath: output.path + "/tags/\(leaf)/index.html"), "\(leaf)")
        }
        let chunk = try output.read("trip/frames/0.json")
        #expect(chunk.contains(#""creator":"Jürgen Müller","copyright":"© 2024 Jürgen Müller","people":["Jürgen Müller"],"places":["Tour Eiffel","Paris","France"]"#))
        #expect(chunk.contains(#""people":["Jürgen Müller","Ana Lima"],"places":["Paris","France"]"#))
        // No region's rectangle anywhere in the site.
        for file in FileManager.default.subpaths(atPath: output.path) ?? [] where file.hasSuffix(".html") || file.hasSuffix(".json") {
            let text = try output.read(file)
            #expect(!text.contains("0.345") && !text.contains("0.456") && !text.contains("0.123"), "\(file)")
        }
    }

    @Test("credits: a photo's own creator is its page's author and footer; the site's author only for photos without one")
    func credits() async throws {
        let source = try fixture()
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let own = try output.read("trip/img_0001.html")
        #expect(own.contains("<meta name=\"author\" content=\"Jürgen Müller\">"))
        #expect(own.contains("Photos © Jürgen Müller ·") && !own.contains("Jane Doe"))
        let other = try output.read("trip/b.html")
        #expect(other.contains("<meta name=\"author\" content=\"Jane Doe\">") && other.contains("Photos © Jane Doe ·"))
        // The album shows both: both are credited.
        let album = try output.read("trip/index.html")
        #expect(album.contains("Photos © Jürgen Müller and Jane Doe ·"))
        // The home page shows no photo of its own but the album's card, with its cover: the
        // cover's creator is credited, not the site's author.
        let home = try output.read("index.html")
        #expect(home.contains("Photos © Jürgen Müller ·") && home.contains("<meta name=\"author\" content=\"Jürgen Müller\">"))
    }

    @Test("people: false makes no people's pages and lists nobody; places stay")
    func peopleOff() async throws {
        let source = try fixture()
        let output = try TemporaryFolder()
        _ = try await build(source, output, yaml: "people: false")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/people"))
        #expect(!(try output.read("trip/img_0001.html")).contains("Jürgen Müller</a>"))
        #expect(!(try output.read("trip/img_0001.html")).contains("People"))
        #expect(!(try output.read("trip/frames/0.json")).contains("\"people\""))
        #expect(FileManager.default.fileExists(atPath: output.path + "/places/paris/index.html"))
    }

    @Test("previous/next links and alt text: the title, else the caption, else \"Photo N of the album\" for a camera's file name (a name a person gave stays); a two-line caption keeps its break")
    func titles() async throws {
        let source = try fixture()
        try source.photo("Trip/DSC_0004.jpg", width: 300, height: 300)
        try exiftool(["-EXIF:DateTimeOriginal=2024:07:04 10:00:00"], on: source.path + "/Trip/DSC_0004.jpg")
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let a = try output.read("trip/img_0001.html")
        #expect(a.contains("rel=\"next\" href=\"b.html\" title=\"At the café\""))
        let b = try output.read("trip/b.html")
        #expect(b.contains("rel=\"prev\" href=\"img_0001.html\" title=\"Photo 1 of Trip\""))
        #expect(b.contains("alt=\"At the café\""))
        #expect(b.contains("rel=\"next\" href=\"c.html\" title=\"First line\""))
        let c = try output.read("trip/c.html")
        #expect(c.contains("rel=\"next\" href=\"dsc_0004.html\" title=\"Photo 4 of Trip\""))
        #expect(c.contains("<span class=\"caption caption-text\">First line\nSecond line</span>"))
        #expect(!(try output.read("trip/index.html")).contains("alt=\"IMG_0001\""))
        // A camera's file name is not a page's heading either: the same name as its links.
        #expect(a.contains("<h1 class=\"photo-title\">Photo 1 of Trip</h1>") && !a.contains(">IMG_0001<"))
        #expect(a.contains("<title>Photo 1 of Trip"))
        // c.jpg, named by a person, keeps its name where it has nothing better (its caption here).
        for stem in ["IMG_0001", "DSC_1234", "P1010001", "PXL_20240701_123456789", "20240701_123456", "IMG_E0012", "IMG_0001 (2)"] {
            #expect(GalleryPhotoNames.isCamera(stem), "\(stem)")
        }
        for stem in ["c", "Dune at dawn", "beach2024", "IMG", "Holiday_001", "100%", "IMG_1", "ÉTÉ_2024"] {
            #expect(!GalleryPhotoNames.isCamera(stem), "\(stem)")
        }
    }

    @Test("alt text is the title first, then the caption; the caption travels in the chunk for the lightbox")
    func altIsTitleFirst() async throws {
        let source = try fixture()
        // A title (dc:title) and a two-line caption (.txt): the alt is the title.
        try source.photo("Trip/d.jpg", width: 300, height: 300)
        try exiftool(["-XMP-dc:Title=Harbour", "-EXIF:DateTimeOriginal=2024:07:05 10:00:00"], on: source.path + "/Trip/d.jpg")
        try source.write("Trip/d.txt", "Boats at dawn\nlow tide")
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        let page = try output.read("trip/d.html")
        #expect(page.contains("alt=\"Harbour\"") && !page.contains("alt=\"Boats"))
        #expect(page.contains("<span class=\"caption caption-text\">Boats at dawn\nlow tide</span>"))
        let wall = try output.read("trip/index.html")
        #expect(wall.contains("alt=\"Harbour\"") && !wall.contains("alt=\"Boats"))
        // c.jpg has a caption and no title: its caption is its alt.
        #expect(wall.contains("alt=\"First line\nSecond line\""))
        let items = try FrameData(folder: URL(fileURLWithPath: output.path + "/trip")).items
        #expect(items.map(\.alt) == ["Photo 1 of Trip", "At the café", "First line\nSecond line", "Harbour"])
        let chunk = try output.read("trip/frames/0.json")
        #expect(chunk.contains(#""alt":"Harbour","#))
        #expect(chunk.contains(#""title":"Harbour","caption":"Boats at dawn\nlow tide""#))
        #expect(chunk.contains(#""title":"First line","caption":"First line\nSecond line""#))
        // No caption, no caption field (the lightbox shows the title in its place).
        #expect(chunk.contains(#""title":"At the café","date""#))
    }

    @Test("feed.xml: an album's entry names its photos' creators, and the site's author for photos without one; an album without creators has the feed's")
    func feedAuthors() async throws {
        let source = try fixture()
        try source.photo("Home/x.jpg", width: 40, height: 30)
        try exiftool(["-EXIF:DateTimeOriginal=2024:06:01 10:00:00"], on: source.path + "/Home/x.jpg")
        try source.photo("Solo/y.jpg", width: 40, height: 30)
        try exiftool(["-XMP-dc:Creator=Ana Lima", "-EXIF:DateTimeOriginal=2024:05:01 10:00:00"], on: source.path + "/Solo/y.jpg")
        let output = try TemporaryFolder()
        _ = try await build(source, output, yaml: "author: Jane Doe\nbase_url: https://example.org/")
        let feed = try output.read("feed.xml")
        func entry(_ slug: String) throws -> String {
            let id = try #require(feed.range(of: "<id>https://example.org/\(slug)/</id>"))
            let start = try #require(feed.range(of: "<entry>", options: .backwards, range: feed.startIndex..<id.lowerBound))
            let end = try #require(feed.range(of: "</entry>", range: id.upperBound..<feed.endIndex))
            return String(feed[start.lowerBound..<end.upperBound])
        }
        #expect(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>T</title>") && feed.contains("  <author><name>Jane Doe</name></author>\n  <generator>"))
        let trip = try entry("trip")
        #expect(trip.contains("<author><name>Jürgen Müller</name></author>\n    <author><name>Jane Doe</name></author>"))
        let solo = try entry("solo")
        #expect(solo.contains("<author><name>Ana Lima</name></author>") && !solo.contains("Jane Doe"))
        // No creator: the entry has no author of its own, so the feed's (Jane Doe) is its.
        #expect(!(try entry("home")).contains("<author>"))
        let parser = XMLParser(data: Data(feed.utf8))
        #expect(parser.parse())
    }

    @Test("album folders named people or places (or any reserved name) at the root get another slug")
    func reservedNames() async throws {
        let source = try TemporaryFolder()
        for name in ["People", "Places", "Videos", "Tags"] { try source.photo("\(name)/p.jpg", width: 40, height: 30) }
        let output = try TemporaryFolder()
        _ = try await build(source, output)
        for slug in ["people-2", "places-2", "videos-2", "tags-2"] {
            #expect(FileManager.default.fileExists(atPath: output.path + "/\(slug)/p.html"), "\(slug)")
        }
    }

    @Test("every wall of every kind lists its photos from all albums in the site's order", arguments: ["date", "date-desc", "name-desc"])
    func wallOrder(sort: String) async throws {
        // Dated out of order across two albums, each photo under a different mix of keyword,
        // place and person (the kinds' photos overlap, and no kind has all four).
        let source = try TemporaryFolder()
        let photos: [(path: String, day: Int, tags: [String])] = [
            ("A/a1.jpg", 3, ["-XMP-dc:Subject=kite", "-XMP-photoshop:City=Paris"]),
            ("A/a2.jpg", 1, ["-XMP-dc:Subject=kite", "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Ana Lima,Rectangle=0.1|, 0.2|, 0.3|, 0.4}]}"]),
            ("B/b1.jpg", 2, ["-XMP-dc:Subject=kite", "-XMP-photoshop:City=Paris"]),
            ("B/b2.jpg", 4, ["-XMP-photoshop:City=Paris", "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Ana Lima,Rectangle=0.1|, 0.2|, 0.3|, 0.4}]}"]),
        ]
        for photo in photos {
            try source.photo(photo.path, width: 40 + photo.day, height: 30)
            try exiftool(photo.tags + ["-EXIF:DateTimeOriginal=2024:07:0\(photo.day) 10:00:00"], on: source.path + "/" + photo.path)
        }
        let output = try TemporaryFolder()
        let report = try await build(source, output, yaml: "sort: \(sort)")
        #expect(report.photos == 4 && report.skipped.isEmpty)
        let order = photos.sorted { a, b in
            switch sort {
            case "date": a.day < b.day
            case "date-desc": a.day > b.day
            default: a.path.split(separator: "/").last! > b.path.split(separator: "/").last!
            }
        }
        for (wall, member) in [("tags/kite", "Subject=kite"), ("places/paris", "City=Paris"), ("people/ana-lima", "Ana Lima")] {
            let frames = try JSONSerialization.jsonObject(with: Data(try output.read(wall + "/frames.json").utf8)) as? [String: Any]
            let expected = order.filter { $0.tags.contains { $0.contains(member) } }
                .map { "../../" + $0.path.lowercased().replacingOccurrences(of: ".jpg", with: "") }
            #expect(frames?["ids"] as? [String] == expected, "\(wall)")
        }
    }

    @Test("a tag's wall counts its videos apart, and credits each name once, the site's author for photos without a creator",
          .enabled(if: Clip.tools != nil, "ffmpeg and ffprobe are needed"))
    func wallSummary() async throws {
        let source = try TemporaryFolder()
        for (name, creator) in [("a", "Ana Lima"), ("b", nil), ("c", "Jane Doe")] {
            try source.photo("Trip/\(name).jpg", width: 40, height: 30)
            try exiftool(["-XMP-dc:Subject=trip"] + (creator.map { ["-XMP-dc:Creator=\($0)"] } ?? []), on: source.path + "/Trip/\(name).jpg")
        }
        try Clip.make(source.path + "/Trip/d.mp4", size: "64x36", audio: false)
        // (A sidecar beside the video, as Lightroom writes one.)
        try source.write("Trip/d.xmp", """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:subject><rdf:Bag><rdf:li>trip</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>
            """)
        let output = try TemporaryFolder()
        let report = try await build(source, output, yaml: "author: Jane Doe\nsort: name")
        #expect(report.photos == 4 && report.videos == 1 && report.skipped.isEmpty)
        let wall = try output.read("tags/trip/index.html")
        #expect(wall.contains("3 photos, 1 video"))
        // Ana's, then the site's author's for b (c's creator is the same name, the video has none).
        #expect(wall.contains("<meta name=\"author\" content=\"Ana Lima and Jane Doe\">"))
        #expect(try output.read("tags/index.html").contains(">trip</a> <span class=\"tag-count\">4</span>"))
    }

    @Test("counts say photos and videos apart")
    func counts() throws {
        let strings = try Theme(overrides: nil).strings
        #expect(PageRenderer.countLabel((2, 1), strings: strings) == "2 photos, 1 video")
        #expect(PageRenderer.countLabel((0, 2), strings: strings) == "2 videos")
        #expect(PageRenderer.countLabel((1, 0), strings: strings) == "1 photo")
    }
}
