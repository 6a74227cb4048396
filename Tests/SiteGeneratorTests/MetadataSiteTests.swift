import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// What photo tools write (XMP sidecars and packets, IPTC, EXIF camera settings) on the pages.
@Suite("Photo metadata on the site")
struct MetadataSiteTests {
    static let cameraArguments = [
        "-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-70mm F2.8 L IS USM", "-FocalLength=50",
        "-FocalLengthIn35mmFormat=75", "-FNumber=2.8", "-ExposureTime=1/250", "-ISO=400", "-ExposureCompensation=+0.7",
        "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E",
    ]

    /// Builds; with `verifyAlbumKeys` (the album-key test hook, which also turns the stamp off),
    /// unless asked not to.
    func build(
        _ source: TemporaryFolder, _ output: TemporaryFolder, yaml: String = "", events: Events? = nil, verifyAlbumKeys: Bool = true
    ) async throws -> BuildReport {
        let configuration = try SiteConfiguration.parse(yaml)
        var options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.verifyAlbumKeys = verifyAlbumKeys
        return try await SiteBuilder(options: options).build { event in events?.list.withLock { $0.append(event) } }
    }

    /// `A/placed.jpg`: a photo with camera settings and a GPS position.
    static func placedPhoto(in source: TemporaryFolder) throws {
        try source.photo("A/placed.jpg", width: 300, height: 200)
        try exiftool(cameraArguments, on: source.path + "/A/placed.jpg")
    }

    @Test("an album that did not change, with an original withheld for its GPS position, is settled and rebuilt like a clean build")
    func settledWithheldOriginal() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Self.placedPhoto(in: source)
        try source.photo("B/other.jpg", width: 320, height: 200)
        let yaml = "download_originals: true"
        _ = try await build(source, output, yaml: yaml, verifyAlbumKeys: false)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/a/originals/placed.jpg"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/b/originals/other.jpg"))
        try source.photo("B/other.jpg", width: 330, height: 200)
        let events = Events()
        let report = try await build(source, output, yaml: yaml, events: events, verifyAlbumKeys: false)
        #expect(events.logs(startingWith: "settled: ") == ["settled: 1 photo as the last build left them, in 1 of 3 albums"])
        #expect(report.photosMade == 1 && !FileManager.default.fileExists(atPath: output.path + "/a/originals/placed.jpg"))
        let clean = try TemporaryFolder()
        _ = try await build(source, clean, yaml: yaml)
        #expect(try snapshot(output.path) == (try snapshot(clean.path)))
    }

    @Test("a file of the user's where an original withheld for its GPS position would go is in no one's way; with GPS kept, it is")
    func userFileAtWithheldOriginal() async throws {
        let source = try TemporaryFolder()
        try Self.placedPhoto(in: source)
        for keepGPS in [false, true] {
            let output = try TemporaryFolder()
            try output.write("a/originals/placed.jpg", "mine")
            let events = Events()
            let yaml = "download_originals: true\nstrip_gps: \(!keepGPS)"
            let report = try await build(source, output, yaml: yaml, events: events)
            let warnings = events.list.withLock { $0 }.compactMap { event -> String? in
                if case .warning(let text) = event { return text }
                return nil
            }
            let moved = warnings.filter { $0.contains("is not Cascade's") }
            #expect(report.photos == 1)
            #expect(try output.read("a/originals/placed.jpg") == "mine")
            if keepGPS {
                // Published, the original would go where the user's file is: the photo moves.
                #expect(moved == ["A/placed.jpg: a/originals/placed.jpg in the output folder is not Cascade's and stays as it is; the photo is published as placed-2 instead"])
                #expect(FileManager.default.fileExists(atPath: output.path + "/a/originals/placed-2.jpg"))
            } else {
                #expect(moved.isEmpty, "\(moved)")
                #expect(FileManager.default.fileExists(atPath: output.path + "/a/placed.html"))
                #expect(!FileManager.default.fileExists(atPath: output.path + "/a/placed-2.html"))
            }
        }
    }

    @Test("an original with a GPS position published while positions were kept is removed once they are stripped again")
    func publishedOriginalWithdrawn() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Self.placedPhoto(in: source)
        let original = output.path + "/a/originals/placed.jpg"
        _ = try await build(source, output, yaml: "download_originals: true\nstrip_gps: false")
        #expect(FileManager.default.fileExists(atPath: original))
        #expect(try output.read("a/placed.html").contains("originals/placed.jpg"))
        let report = try await build(source, output, yaml: "download_originals: true")
        #expect(!FileManager.default.fileExists(atPath: original))
        #expect(!(try output.read("a/placed.html")).contains("originals/"))
        #expect(report.filesRemoved == 1)
    }

    @Test("a sidecar's title heads the page, its description is the caption, camera settings and keywords are listed, all escaped")
    func photoPage() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("Trip/IMG_1.jpg", width: 300, height: 200)
        try exiftool(Self.cameraArguments, on: source.path + "/Trip/IMG_1.jpg")
        try source.write("Trip/IMG_1.xmp", xmpSidecar("""
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Beach &lt;script&gt;alert(1)&lt;/script&gt;</rdf:li></rdf:Alt></dc:title>
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Low tide &amp; "quiet"</rdf:li></rdf:Alt></dc:description>
            <dc:subject><rdf:Bag><rdf:li>beach</rdf:li><rdf:li>holi&lt;day&gt;</rdf:li></rdf:Bag></dc:subject>
            """))
        let report = try await build(source, output)
        #expect(report.photos == 1 && report.skipped.isEmpty)
        let page = try output.read("trip/img_1.html")
        #expect(page.contains("<h1 class=\"photo-title\">Beach &lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("<span class=\"caption caption-text\">Low tide &amp; &quot;quiet&quot;</span>"))
        for value in ["Canon EOS R5", "RF24-70mm F2.8 L IS USM", "50 mm (75 mm in 35 mm)", "f/2.8", "1/250 s", "ISO 400", "+0.7 EV"] {
            #expect(page.contains("<dd>\(value)</dd>"), "\(value)")
        }
        #expect(page.contains("holi&lt;day&gt;"))
        // Nothing positional: no coordinates anywhere while GPS is stripped.
        #expect(!page.contains("48.85") && !page.contains("2.35"))

        let chunk = try output.read("trip/frames/0.json")
        #expect(chunk.contains(#""camera":["Canon EOS R5","RF24-70mm F2.8 L IS USM","50 mm (75 mm in 35 mm)","f/2.8","1/250 s","ISO 400","+0.7 EV"]"#))
        #expect(chunk.contains(#""title":"Beach <script>alert(1)<\/script>""#) || chunk.contains(#""title":"Beach \u003cscript\u003ealert(1)\u003c/script\u003e""#))
        #expect(!chunk.contains("48.85"))

        // A rebuild takes the header's metadata from the catalog (the photo is not read again):
        // the camera settings and embedded fields survive it.
        let again = try await build(source, output, yaml: "date_format: YYYY")
        #expect(again.photosMade == 0)
        let rebuilt = try output.read("trip/img_1.html")
        #expect(rebuilt.contains("<dd>Canon EOS R5</dd>") && rebuilt.contains("<dd>1/250 s</dd>"))
        #expect(rebuilt.contains("Beach &lt;script&gt;"))
    }

    @Test("show_exif: false shows no camera settings, on the page or in the lightbox's data")
    func showExifOff() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("p.jpg", width: 300, height: 200)
        try exiftool(Self.cameraArguments, on: source.path + "/p.jpg")
        _ = try await build(source, output, yaml: "show_exif: false")
        #expect(!(try output.read("p.html")).contains("Canon"))
        #expect(!(try output.read("p.html")).contains("photo-camera"))
        #expect(!(try output.read("frames/0.json")).contains("camera"))
    }

    @Test("editing only a sidecar updates the site on the next build; a bad sidecar is a warning, not a skipped file")
    func sidecarEdit() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("a/p.jpg", width: 300, height: 200)
        try source.photo("a/q.jpg", width: 200, height: 300)
        try source.write("a/p.xmp", xmpSidecar(#"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">First title</rdf:li></rdf:Alt></dc:title>"#))
        _ = try await build(source, output)
        #expect(try output.read("a/p.html").contains("First title"))
        #expect(try output.read("a/frames/0.json").contains("First title"))

        try source.write("a/p.xmp", xmpSidecar(#"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Second title</rdf:li></rdf:Alt></dc:title>"#))
        let second = try await build(source, output)
        #expect(second.photosMade == 0, "a sidecar changes pages, not images")
        #expect(try output.read("a/p.html").contains("Second title"))
        #expect(try output.read("a/frames/0.json").contains("Second title"))
        // Its neighbour's link to it is titled by it.
        #expect(try output.read("a/q.html").contains("rel=\"prev\" href=\"p.html\" title=\"Second title\""))

        try source.write("a/p.xmp", "<x:xmpmeta><broken")
        let events = Events()
        let third = try await build(source, output, events: events)
        #expect(third.photos == 2 && third.skipped.isEmpty)
        let warnings = events.list.withLock { $0 }.compactMap { event -> String? in
            if case .warning(let text) = event { return text }
            return nil
        }
        #expect(warnings.contains { $0.hasPrefix("a/p.xmp: ") && $0.contains("p.jpg is published without it") })
        #expect(try !output.read("a/p.html").contains("Second title"))

        try FileManager.default.removeItem(atPath: source.path + "/a/p.xmp")
        try source.write("a/p.jpg.xmp", xmpSidecar(#"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Third title</rdf:li></rdf:Alt></dc:title>"#))
        _ = try await build(source, output)
        #expect(try output.read("a/p.html").contains("Third title"))
    }

    @Test("min_rating and rejected photos: only the photos rated high enough are published")
    func ratings() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        for name in ["bad", "good", "none"] { try source.photo("\(name).jpg", width: 100, height: 100) }
        try source.write("bad.xmp", xmpSidecar("", attributes: #"xmp:Rating="-1""#))
        try source.write("good.xmp", xmpSidecar("", attributes: #"xmp:Rating="4""#))
        let all = try await build(source, output)
        #expect(all.photos == 2)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/bad.html"))
        let rated = try await build(source, output, yaml: "min_rating: 3")
        #expect(rated.photos == 1)
        #expect(FileManager.default.fileExists(atPath: output.path + "/good.html"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/none.html"), "the unrated photo's page is removed")
    }
}

@Suite("Tag pages")
struct TagPageTests {
    func keywords(_ source: TemporaryFolder, _ path: String, _ keywords: [String], hierarchical: [String] = []) throws {
        var body = "<dc:subject><rdf:Bag>" + keywords.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>"
        if !hierarchical.isEmpty {
            body += "<lr:hierarchicalSubject><rdf:Bag>" + hierarchical.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Bag></lr:hierarchicalSubject>"
        }
        try source.write(path, xmpSidecar(body))
    }

    func build(_ source: TemporaryFolder, _ output: TemporaryFolder, verify: Bool = true) async throws -> BuildReport {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.sort = .name
        options.verifyAlbumKeys = verify
        return try await SiteBuilder(options: options).build()
    }

    @Test("every keyword is a page of its photos across albums; the list counts them; photo pages link to them; hidden albums stay out")
    func tagPages() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("Trip/a.jpg", width: 300, height: 200)
        try source.photo("Trip/b.jpg", width: 200, height: 300)
        try source.photo("Home/c.jpg", width: 300, height: 300)
        try source.photo("Secret/d.jpg", width: 300, height: 300)
        try source.write("Secret/index.md", "---\nhidden: true\n---\n")
        try keywords(source, "Trip/a.xmp", ["beach", "Places", "France", "Paris"], hierarchical: ["Places|France|Paris"])
        try keywords(source, "Trip/b.xmp", ["Beach", "&lt;b&gt;bold&lt;/b&gt;"])
        try keywords(source, "Home/c.xmp", ["beach"])
        try keywords(source, "Secret/d.xmp", ["beach", "secret-only"])
        let report = try await build(source, output)
        #expect(report.photos == 4)

        let list = try output.read("tags/index.html")
        #expect(list.contains(#"<a href="beach/index.html" rel="tag">beach</a> <span class="tag-count">3</span>"#))
        #expect(list.contains(#"<a href="paris/index.html" rel="tag">Paris</a>"#))
        #expect(!list.contains("Places") && !list.contains("France"), "a hierarchy's higher levels are not tags")
        #expect(!list.contains("secret-only"), "a keyword only of a hidden album's photo is no tag")
        #expect(list.contains("&lt;b&gt;bold&lt;/b&gt;"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/tags/secret-only/index.html"))

        let beach = try output.read("tags/beach/index.html")
        #expect(beach.contains("<h1>beach</h1>"))
        #expect(beach.contains(#"href="../../home/c.html""#) && beach.contains(#"href="../../trip/a.html""#) && beach.contains(#"href="../../trip/b.html""#))
        #expect(!beach.contains("secret/"))
        #expect(beach.contains(#"src="../../trip/thumbs/a-"#))
        let frames = try output.read("tags/beach/frames.json")
        #expect(frames.contains(#""imageURL":"{dir}thumbs/{name}-{width}.jpg""#))
        // In the site's order (here by file name), whatever their albums.
        #expect(frames.contains(#""ids":["../../trip/a","../../trip/b","../../home/c"]"#))

        let photo = try output.read("trip/a.html")
        #expect(photo.contains(#"<a href="../tags/beach/index.html" rel="tag">beach</a>"#))
        #expect(photo.contains(#"<a href="../tags/paris/index.html" rel="tag">Paris</a>"#))
        #expect(photo.contains(#"<a href="../tags/index.html">Tags</a>"#))
        let hidden = try output.read("secret/d.html")
        #expect(!hidden.contains("tags/secret-only"), "no link to a tag page that does not list the photo")
        #expect(hidden.contains("<li>secret-only</li>"))
    }

    @Test("tags follow sidecar and caption edits: a new keyword makes a page, a removed one's page is deleted; an album named tags moves aside",
          arguments: [false, true])
    func tagRebuilds(verify: Bool) async throws {
        // With `verify`, unchanged tags are rendered anyway and a changed file of one stops the
        // program (their keys miss nothing); without, they are skipped (and must still update).
        func build(_ source: TemporaryFolder, _ output: TemporaryFolder) async throws -> BuildReport {
            try await self.build(source, output, verify: verify)
        }
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("tags/a.jpg", width: 300, height: 200)
        try source.photo("b.jpg", width: 300, height: 200)
        _ = try await build(source, output)
        #expect(FileManager.default.fileExists(atPath: output.path + "/tags-2/a.html"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/tags/index.html"))
        #expect(!(try output.read("index.html")).contains("Tags</a>"))

        try keywords(source, "b.xmp", ["sunset"])
        _ = try await build(source, output)
        #expect(try output.read("tags/sunset/index.html").contains(#"href="../../b.html""#))
        #expect(try output.read("index.html").contains(#"<a href="tags/index.html">Tags</a>"#))

        let unchanged = try await build(source, output)
        #expect(unchanged.pagesWritten == 0, "a rebuild with nothing changed rewrites no tag page")
        try source.write("b.txt", "Red <sky>")
        _ = try await build(source, output)
        #expect(try output.read("tags/sunset/frames/0.json").contains(#""alt":"Red \u003csky\u003e""#))
        #expect(try output.read("tags/sunset/index.html").contains(#"alt="Red &lt;sky&gt;""#))

        try keywords(source, "b.xmp", ["dawn"])
        _ = try await build(source, output)
        #expect(FileManager.default.fileExists(atPath: output.path + "/tags/dawn/index.html"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/tags/sunset/index.html"))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/tags/sunset/frames.json"))

        try FileManager.default.removeItem(atPath: source.path + "/b.xmp")
        _ = try await build(source, output)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/tags/index.html"))
        #expect(!(try output.read("index.html")).contains("Tags</a>"))
    }
}

@Suite("Atom feed")
struct FeedTests {
    @Test("with base_url, feed.xml lists the newest albums with their covers, escaped; hidden and undated ones are left out; without it there is none")
    func feed() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("Old/a.jpg", width: 300, height: 200)
        try source.write("Old/index.md", "---\ndate: 2020-05-01\n---\n")
        try source.photo("New/b.jpg", width: 300, height: 200)
        try source.write("New/index.md", "---\ntitle: Fish & <chips>\ndate: 2024-07-14 18:30\n---\n")
        try source.photo("Secret/c.jpg", width: 300, height: 200)
        try source.write("Secret/index.md", "---\ndate: 2025-01-01\nhidden: true\n---\n")
        try source.photo("Undated/d.jpg", width: 300, height: 200)
        let configuration = try SiteConfiguration.parse("base_url: https://example.org/p/\ntitle: My <site>")
        let options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        _ = try await SiteBuilder(options: options).build()
        let feed = try output.read("feed.xml")
        let parser = XMLParser(data: Data(feed.utf8))
        #expect(parser.parse() && parser.parserError == nil, "well-formed XML")
        #expect(feed.contains("<title>My &lt;site&gt;</title>"))
        #expect(feed.contains("<updated>2024-07-14T18:30:00Z</updated>"))
        let newEntry = try #require(feed.range(of: "<title>Fish &amp; &lt;chips&gt;</title>"))
        let oldEntry = try #require(feed.range(of: "<id>https://example.org/p/old/</id>"))
        #expect(newEntry.lowerBound < oldEntry.lowerBound, "newest first")
        #expect(feed.contains(#"<link rel="enclosure" href="https://example.org/p/new/thumbs/b-"#))
        #expect(!feed.contains("secret") && !feed.contains("undated"))
        #expect(try output.read("index.html").contains(#"<link rel="alternate" type="application/atom+xml" title="My &lt;site&gt;" href="https://example.org/p/feed.xml">"#))

        // Without base_url the feed goes, with its link.
        let plain = SiteOptions(configuration: SiteConfiguration(), sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        _ = try await SiteBuilder(options: plain).build()
        #expect(!FileManager.default.fileExists(atPath: output.path + "/feed.xml"))
        #expect(try !output.read("index.html").contains("atom+xml"))
    }

    @Test("an album dated by a camera's photo without a zone, beside a phone's in New York: its time in the feed is New York's")
    func floatingDateInTheFeed() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        // The camera (local time, no zone) took the album's first photo; the phone wrote its zone.
        try source.photo("Trip/camera.jpg", width: 300, height: 200)
        try exiftool(["-EXIF:DateTimeOriginal=2024:07:31 20:00:00", "-overwrite_original"], on: source.path + "/Trip/camera.jpg")
        try source.photo("Trip/phone.jpg", width: 300, height: 200)
        try exiftool(["-EXIF:DateTimeOriginal=2024:07:31 20:30:00", "-EXIF:OffsetTimeOriginal=-04:00", "-overwrite_original"],
                     on: source.path + "/Trip/phone.jpg")
        let configuration = try SiteConfiguration.parse("base_url: https://example.org/p/")
        let options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        _ = try await SiteBuilder(options: options).build()
        // 20:00 in New York is 00:00 UTC the next day (as UTC, it was 20:00Z).
        #expect(try output.read("feed.xml").contains("<updated>2024-08-01T00:00:00Z</updated>"))
        // The page shows the camera's time as its clock did, without a zone.
        let page = try output.read("trip/camera.html")
        #expect(page.contains(#"datetime="2024-07-31T20:00:00""#))
    }
}
