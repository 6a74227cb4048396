import Foundation
import Gallery
import GalleryConfig
import Imaging
import Testing
import TestSupport

extension PhotoFolder {
    func scan(_ options: ScanOptions) throws -> ScanResult {
        try GalleryScanner(options: options).scan(sourceDirectory: root.path, title: "Test")
    }

    /// A sidecar with a title, a description, keywords and a rating (each only when given).
    func sidecar(_ path: String, title: String? = nil, description: String? = nil, keywords: [String] = [], rating: Int? = nil,
                 date: String? = nil) throws {
        var body = ""
        if let title { body += "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(title)</rdf:li></rdf:Alt></dc:title>\n" }
        if let description { body += "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(description)</rdf:li></rdf:Alt></dc:description>\n" }
        if !keywords.isEmpty { body += "<dc:subject><rdf:Bag>" + keywords.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>\n" }
        var attributes = rating.map { "xmp:Rating=\"\($0)\"" } ?? ""
        if let date { attributes += " photoshop:DateCreated=\"\(date)\"" }
        try text(path, xmpSidecar(body, attributes: attributes))
    }

    func photos(_ result: ScanResult) -> [String: GalleryPhoto] {
        var all: [String: GalleryPhoto] = [:]
        func walk(_ album: GalleryAlbum) {
            for photo in album.photos { all[photo.relativePath] = photo }
            album.albums.forEach(walk)
        }
        walk(result.root)
        return all
    }
}

@Suite("XMP sidecars, RAW pairs, ratings and order")
struct SidecarTests {
    @Test("precedence: a caption file, then the XMP sidecar, then embedded XMP, then EXIF, then IPTC")
    func precedence() throws {
        let folder = try PhotoFolder()
        for name in ["a", "b", "c", "d", "e"] { try folder.photo("\(name).jpg", description: "EXIF \(name)") }
        // a: caption file over everything; b: sidecar over embedded XMP and EXIF; c: embedded XMP over EXIF and IPTC;
        // d: EXIF over IPTC; e: IPTC alone.
        try folder.text("a.txt", "caption file")
        try folder.sidecar("a.xmp", title: "Sidecar title a", description: "sidecar a")
        try folder.sidecar("b.jpg.xmp", title: "Sidecar title b", description: "sidecar b", keywords: ["beach", "holiday"])
        try exiftool(["-XMP-dc:Description=embedded b", "-XMP-dc:Title=Embedded title b"], on: folder.root.path + "/b.jpg")
        try exiftool(["-XMP-dc:Description=embedded c", "-IPTC:Caption-Abstract=IPTC c", "-IPTC:Keywords=iptc"], on: folder.root.path + "/c.jpg")
        try exiftool(["-IPTC:Caption-Abstract=IPTC d"], on: folder.root.path + "/d.jpg")
        try exiftool(["-EXIF:ImageDescription=", "-IPTC:Caption-Abstract=IPTC e", "-IPTC:ObjectName=IPTC title e"], on: folder.root.path + "/e.jpg")
        let result = try folder.scan(sort: .name)
        #expect(result.problems.isEmpty)
        let photos = folder.photos(result)
        #expect(photos["a.jpg"]?.caption == "caption file")
        #expect(photos["a.jpg"]?.metadataTitle == "Sidecar title a")
        #expect(photos["b.jpg"]?.caption == "sidecar b")
        #expect(photos["b.jpg"]?.metadataTitle == "Sidecar title b")
        #expect(photos["b.jpg"]?.keywords == ["beach", "holiday"])
        #expect(photos["c.jpg"]?.caption == "embedded c")
        #expect(photos["c.jpg"]?.keywords == ["iptc"])
        #expect(photos["d.jpg"]?.caption == "EXIF d")
        #expect(photos["e.jpg"]?.caption == "IPTC e")
        #expect(photos["e.jpg"]?.metadataTitle == "IPTC title e")
    }

    @Test("IMG.jpg.xmp comes before IMG.xmp; a sidecar's date orders the photos")
    func sidecarNames() throws {
        let folder = try PhotoFolder()
        try folder.photo("x.jpg", date: "2020:01:01 00:00:00")
        try folder.photo("y.jpg", date: "2021:01:01 00:00:00")
        try folder.sidecar("x.xmp", title: "stem")
        try folder.sidecar("x.jpg.xmp", title: "full name", date: "2022-05-05T10:00:00")
        let result = try folder.scan(sort: .date)
        #expect(result.root.photos.map(\.fileName) == ["y.jpg", "x.jpg"])
        #expect(result.root.photos.last?.metadataTitle == "full name")
    }

    @Test("a RAW file beside its JPEG is ignored without a word, and its sidecar applies to the JPEG; a RAW alone is reported")
    func rawPairs() throws {
        let folder = try PhotoFolder()
        try folder.photo("IMG_1.JPG")
        try folder.file("IMG_1.CR3", bytes: [0x49, 0x49, 0x2A, 0])
        try folder.sidecar("IMG_1.xmp", title: "From Lightroom", keywords: ["beach"])
        try folder.photo("IMG_2.jpg")
        try folder.file("IMG_2.NEF", bytes: [0x49, 0x49, 0x2A, 0])
        try folder.sidecar("IMG_2.NEF.xmp", title: "From darktable")
        try folder.file("IMG_3.ARW", bytes: [0x49, 0x49, 0x2A, 0])
        let result = try folder.scan(sort: .name)
        #expect(result.problems.map(\.path) == ["IMG_3.ARW"])
        #expect(result.problems.first?.reason.contains("RAW") == true)
        let photos = folder.photos(result)
        #expect(photos["IMG_1.JPG"]?.metadataTitle == "From Lightroom")
        #expect(photos["IMG_1.JPG"]?.keywords == ["beach"])
        #expect(photos["IMG_2.jpg"]?.metadataTitle == "From darktable")
        #expect(result.root.photos.count == 2)
    }

    @Test("a rejected photo (-1) is never published; min_rating leaves out photos rated lower, sidecar over embedded rating")
    func ratings() throws {
        let folder = try PhotoFolder()
        for name in ["rejected", "unrated", "two", "four", "five"] { try folder.photo("\(name).jpg") }
        try folder.sidecar("rejected.xmp", rating: -1)
        try folder.sidecar("two.xmp", rating: 2)
        try exiftool(["-XMP-xmp:Rating=1"], on: folder.root.path + "/four.jpg")
        try folder.sidecar("four.xmp", rating: 4)
        try exiftool(["-EXIF:Rating=5"], on: folder.root.path + "/five.jpg")
        var options = ScanOptions(sort: .name, concurrency: 2)
        #expect(try folder.scan(options).root.photos.map(\.fileName) == ["five.jpg", "four.jpg", "two.jpg", "unrated.jpg"])
        options.minRating = 3
        #expect(try folder.scan(options).root.photos.map(\.fileName) == ["five.jpg", "four.jpg"])
    }

    @Test("date-desc puts the newest first (undated last), name-desc reverses the name order")
    func descending() throws {
        let folder = try PhotoFolder()
        try folder.photo("IMG_2.jpg", date: "2020:01:01 00:00:00")
        try folder.photo("IMG_10.jpg", date: "2022:01:01 00:00:00")
        try folder.photo("IMG_1.jpg", date: "2021:01:01 00:00:00")
        try folder.photo("undated.jpg")
        #expect(try folder.scan(sort: .dateDescending).root.photos.map(\.fileName) == ["IMG_10.jpg", "IMG_1.jpg", "IMG_2.jpg", "undated.jpg"])
        #expect(try folder.scan(sort: .nameDescending).root.photos.map(\.fileName) == ["undated.jpg", "IMG_10.jpg", "IMG_2.jpg", "IMG_1.jpg"])
    }

    @Test("an index.md order: lists photos first in that order, the rest follow in the album's sort; unknown names are reported")
    func manualOrder() throws {
        let folder = try PhotoFolder()
        for name in ["a", "b", "c", "d", "e"] { try folder.photo("album/\(name).jpg") }
        try folder.text("album/index.md", "---\nsort: name-desc\norder: [c.jpg, A.JPG, missing.jpg]\n---\n")
        let result = try folder.scan(sort: .name)
        #expect(result.root.albums.first?.photos.map(\.fileName) == ["c.jpg", "a.jpg", "e.jpg", "d.jpg", "b.jpg"])
        #expect(result.problems.map(\.path) == ["album/index.md"])
        #expect(result.problems.first?.reason.contains("missing.jpg") == true)
    }

    @Test("a bad sidecar is a warning naming it, and the photo is published without it",
          arguments: [
            ("malformed", Array("<x:xmpmeta><rdf:RDF>".utf8)),
            ("bomb", Array("<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]><x>&b;</x>".utf8)),
            ("not UTF-8", Array("<x:xmpmeta>".utf8) + [0xFF, 0xFE, 0xC3] + Array("</x:xmpmeta>".utf8)),
            ("deep", Array((String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000)).utf8)),
          ] as [(String, [UInt8])])
    func badSidecar(kind: String, bytes: [UInt8]) throws {
        let folder = try PhotoFolder()
        try folder.photo("p.jpg", description: "EXIF caption")
        try folder.file("p.xmp", bytes: bytes)
        let result = try folder.scan(sort: .name)
        #expect(result.root.photos.map(\.fileName) == ["p.jpg"], "\(kind)")
        #expect(result.root.photos.first?.caption == "EXIF caption")
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.path == "p.xmp")
        #expect(result.problems.first?.isWarning == true)
        #expect(result.problems.first?.reason.contains("p.jpg is published without it") == true)
    }

    @Test("a 100 MB sidecar is refused from its size, without being read")
    func hugeSidecar() throws {
        let folder = try PhotoFolder()
        try folder.photo("p.jpg")
        try folder.file("p.xmp", bytes: [])
        let handle = try FileHandle(forWritingTo: folder.root.appendingPathComponent("p.xmp"))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let result = try folder.scan(sort: .name)
        #expect(result.root.photos.count == 1)
        #expect(result.problems.first?.isWarning == true)
        #expect(result.problems.first?.reason.contains("larger than") == true)
    }
}
