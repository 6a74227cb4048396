import Foundation
import Imaging
import TestSupport
import Testing

@testable import SiteGenerator

/// A model-based test of rebuilds: random sequences of the edits people make to a photo folder
/// between builds. After every step the incrementally rebuilt site must equal, byte for byte, a
/// clean build of the same folder with the same settings, and the user's own file in the
/// output folder must be untouched.
@Suite("Rebuilds equal clean builds")
struct RebuildModelTests {
    /// The settings a step builds with.
    struct Settings: Equatable {
        var quality = 80
        var webp = false
        /// Two tiles a static page and two items a chunk of frame data: walls (albums, people)
        /// of many pages and chunks, made again in part.
        var small = false
    }

    /// A small photo whose colour and size come from `seed`, so that every one differs.
    static func photo(seed: UInt64) throws -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let width = random.int(60...140)
        let height = random.int(60...140)
        var image = try Image(width: width, height: height)
        image.fill(x: 0, y: 0, width: width, height: height,
                   red: UInt8(random.int(0...255)), green: UInt8(random.int(0...255)), blue: UInt8(random.int(0...255)))
        image.fill(x: 0, y: 0, width: width / 2, height: height / 3, red: UInt8(random.int(0...255)), green: 20, blue: 90)
        return try image.encoded(as: .jpeg(quality: 90))
    }

    /// A sidecar naming one face region, as digiKam writes it.
    static func faceSidecar(_ person: String) -> String {
        xmpSidecar("""
            <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag><rdf:li>
             <rdf:Description mwg-rs:Name="\(person)" mwg-rs:Type="Face">
              <mwg-rs:Area stArea:x="0.5" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1" stArea:unit="normalized"/>
             </rdf:Description></rdf:li></rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>
            """, attributes: #"xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#""#)
    }

    func build(_ source: TemporaryFolder, _ output: String, _ settings: Settings, jobs: Int, catalog: String, verify: Bool = false) async throws {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output, title: "M",
                                  imageFormat: .jpeg(quality: settings.quality), jobs: jobs)
        options.tileWidths = [50, 100]
        options.photoWidths = [120]
        options.sourceFormats = settings.webp ? [.webp(quality: settings.quality)] : []
        options.catalogPath = catalog
        options.verifyAlbumKeys = verify
        if settings.small { (options.tilesPerPage, options.framesChunkSize) = (2, 2) }
        _ = try await SiteBuilder(options: options).build()
    }

    /// The photos of the folder (relative paths), sorted.
    func photos(_ source: TemporaryFolder) -> [String] {
        (FileManager.default.subpaths(atPath: source.path) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
    }

    func move(_ source: TemporaryFolder, _ from: String, _ to: String) throws {
        try FileManager.default.createDirectory(
            atPath: (source.path + "/" + to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: source.path + "/" + from, toPath: source.path + "/" + to)
    }

    /// With `verify`, albums whose input key did not change are rendered anyway, and the build
    /// stops if one of their files would change; without, they are not rendered at all.
    @Test("random edits, each followed by a rebuild, end like a clean build",
          arguments: [(1, UInt64(11), true, false), (2, UInt64(12), true, false), (1, UInt64(13), false, false), (2, UInt64(14), false, false),
                      (2, UInt64(15), true, true), (1, UInt64(16), false, true)])
    func randomEdits(jobs: Int, seed: UInt64, verify: Bool, small: Bool) async throws {
        var random = SplitMix64(seed: seed)
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        let state = try TemporaryFolder()
        var next: UInt64 = seed * 1000
        func newPhoto() throws -> [UInt8] {
            next += 1
            return try Self.photo(seed: next)
        }
        let albums = ["A", "B", "B/C"]
        for index in 0..<6 { try source.write("\(albums[index % 3])/p\(index).jpg", try newPhoto()) }
        if small {
            // A tag on every photo: its wall has pages and chunks (sidecar edits below take it off).
            for index in 0..<6 {
                try source.write("\(albums[index % 3])/p\(index).jpg.xmp", xmpSidecar("<dc:subject><rdf:Bag><rdf:li>sea</rdf:li></rdf:Bag></dc:subject>"))
            }
        }
        try output.write("notes/mine.txt", "the user's own file")
        var settings = Settings()
        settings.small = small
        try await build(source, output.path, settings, jobs: jobs, catalog: state.path + "/catalog.sqlite")
        var log: [String] = []
        for step in 0..<12 {
            let names = photos(source)
            switch random.int(0...15) {
            case 0:
                let name = "\(albums[random.int(0...2)])/n\(step).jpg"
                try source.write(name, try newPhoto())
                log.append("add \(name)")
            case 1 where names.count > 2:
                let name = names[random.int(0...(names.count - 1))]
                try FileManager.default.removeItem(atPath: source.path + "/" + name)
                log.append("delete \(name)")
            case 2:
                let name = names[random.int(0...(names.count - 1))]
                let renamed = (name as NSString).deletingLastPathComponent + "/r\(step).jpg"
                try move(source, name, renamed)
                log.append("rename \(name) \(renamed)")
            case 3 where names.count > 1:
                let a = names[random.int(0...(names.count - 1))]
                var b = a
                while b == a { b = names[random.int(0...(names.count - 1))] }
                try move(source, a, "swap.tmp")
                try move(source, b, a)
                try move(source, "swap.tmp", b)
                log.append("swap \(a) \(b)")
            case 4 where names.count > 2:
                let three = Array(names.shuffled(using: &random).prefix(3))
                try move(source, three[0], "rotate.tmp")
                try move(source, three[1], three[0])
                try move(source, three[2], three[1])
                try move(source, "rotate.tmp", three[2])
                log.append("rotate \(three)")
            case 5:
                let name = names[random.int(0...(names.count - 1))]
                let album = albums[random.int(0...2)]
                let moved = album + "/" + (name as NSString).lastPathComponent
                if !FileManager.default.fileExists(atPath: source.path + "/" + moved) {
                    try move(source, name, moved)
                    log.append("move \(name) \(moved)")
                }
            case 6:
                // New content of the same size and modification time.
                let name = names[random.int(0...(names.count - 1))]
                let path = source.path + "/" + name
                let old = try Data(contentsOf: URL(fileURLWithPath: path))
                let time = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
                var replacement = try newPhoto()
                if replacement.count <= old.count {
                    replacement += [UInt8](repeating: 0, count: old.count - replacement.count)  // after the image's end
                    try Data(replacement).write(to: URL(fileURLWithPath: path))
                    try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
                    log.append("same size and time \(name)")
                }
            case 7:
                settings.quality = settings.quality == 80 ? 70 : 80
                log.append("quality \(settings.quality)")
            case 8:
                settings.webp.toggle()
                log.append("webp \(settings.webp)")
            case 9:
                // A caption added or changed: the photo's page, its neighbours' and its album's.
                let name = names[random.int(0...(names.count - 1))]
                try source.write(name + ".md", Array("Caption \(step)".utf8))
                log.append("caption \(name)")
            case 10:
                // An album's title: its pages, its photos' breadcrumbs, its parent's card.
                let album = albums[random.int(0...2)]
                try source.write(album + "/index.md", Array("---\ntitle: Title \(step)\n---\n".utf8))
                log.append("title \(album)")
            case 11:
                // The catalog lost (the cache cleared), and a photo deleted meanwhile: the build
                // goes by the site itself, and the photo's files go.
                try FileManager.default.removeItem(atPath: state.path + "/catalog.sqlite")
                log.append("delete the catalog")
                if names.count > 2 {
                    let name = names[random.int(0...(names.count - 1))]
                    try FileManager.default.removeItem(atPath: source.path + "/" + name)
                    log.append("delete \(name)")
                }
            case 12:
                // One page of the catalog damaged (past the file's header, which says it is
                // SQLite and Cascade's): set aside, and the build goes on without it.
                let path = state.path + "/catalog.sqlite"
                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
                let page = random.int(0...(bytes.count / pageSize - 1))
                let start = max(page * pageSize, 100)
                bytes.replaceSubrange(start..<(page + 1) * pageSize, with: [UInt8](repeating: 0xA5, count: (page + 1) * pageSize - start))
                try bytes.write(to: URL(fileURLWithPath: path))
                log.append("damage page \(page + 1) of the catalog")
                if names.count > 2 {
                    let name = names[random.int(0...(names.count - 1))]
                    try FileManager.default.removeItem(atPath: source.path + "/" + name)
                    log.append("delete \(name)")
                }
            case 13:
                // A sidecar's date (a partial one, one with a zone): the photo's place in its
                // album, its page, its neighbours', its album's date on the parent's card.
                let name = names[random.int(0...(names.count - 1))]
                let dates = ["1987-07", "1987", "2024-07-31T20:30:00-04:00", "2024-08-01T02:00:00+02:00", "2023-01-05T10:00:00", "unknown"]
                let date = dates[random.int(0...(dates.count - 1))]
                try source.write(name + ".xmp", Array("""
                    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
                    <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" \
                    photoshop:DateCreated="\(date)"/></rdf:RDF></x:xmpmeta>
                    """.utf8))
                log.append("sidecar date \(date) \(name)")
            case 14:
                // A face's name set or changed in a sidecar (as digiKam writes it): the person's
                // pages, the list of people, the photo's page and its album's frame data.
                // A face named in one build, renamed before the next (the edit checked).
                let name = names[random.int(0...(names.count - 1))]
                let people = ["Ann Lee", "Bo Chen", "Jürgen Müller"].shuffled(using: &random)
                try source.write(name + ".xmp", Array(Self.faceSidecar(people[0]).utf8))
                try await build(source, output.path, settings, jobs: jobs, catalog: state.path + "/catalog.sqlite", verify: verify)
                try source.write(name + ".xmp", Array(Self.faceSidecar(people[1]).utf8))
                log.append("face \(people[0]) renamed \(people[1]) in \(name)")
            default:
                // A name taken by a deleted photo.
                if names.count > 2 {
                    let gone = names[0]
                    let taker = names[names.count - 1]
                    try FileManager.default.removeItem(atPath: source.path + "/" + gone)
                    try move(source, taker, gone)
                    log.append("rename \(taker) onto deleted \(gone)")
                }
            }
            try await build(source, output.path, settings, jobs: jobs, catalog: state.path + "/catalog.sqlite", verify: verify)
            let clean = try TemporaryFolder()
            try await build(source, clean.path, settings, jobs: jobs, catalog: state.path + "/clean-\(step).sqlite")
            var site = try snapshot(output.path)
            #expect(site.removeValue(forKey: "notes/mine.txt") != nil, "the user's file is gone after \(log)")
            #expect(try output.read("notes/mine.txt") == "the user's own file")
            let expected = try snapshot(clean.path)
            let wrong = Set(site.keys).union(expected.keys).filter { site[$0] != expected[$0] }.sorted()
            #expect(wrong.isEmpty, "after \(log): \(wrong)")
            if !wrong.isEmpty { break }
        }
    }

    /// The sidecar edits of dates, each of them, in turn (the random walk above meets them only
    /// now and then): a partial date, a date with a zone that moves the photo in its album and
    /// the album's date on its parent's card, an unreadable date (the file's date again), none.
    @Test("a sidecar's date edited, step by step, rebuilds like a clean build", arguments: [true, false])
    func sidecarDates(verify: Bool) async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        let state = try TemporaryFolder()
        for index in 0..<4 { try source.write("\(["A", "A/B"][index % 2])/p\(index).jpg", try Self.photo(seed: 500 + UInt64(index))) }
        try await build(source, output.path, Settings(), jobs: 2, catalog: state.path + "/catalog.sqlite")
        let edits: [(String, String?)] = [
            ("A/p2.jpg", "1987-07"), ("A/p0.jpg", "1987"), ("A/B/p1.jpg", "2024-07-31T20:30:00-04:00"),
            ("A/B/p3.jpg", "2024-08-01T02:00:00+02:00"), ("A/p2.jpg", "circa 1988"), ("A/p0.jpg", nil),
        ]
        for (step, (name, date)) in edits.enumerated() {
            if let date {
                try source.write(name + ".xmp", Array("""
                    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
                    <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" \
                    photoshop:DateCreated="\(date)"/></rdf:RDF></x:xmpmeta>
                    """.utf8))
            } else {
                try FileManager.default.removeItem(atPath: source.path + "/" + name + ".xmp")
            }
            try await build(source, output.path, Settings(), jobs: 2, catalog: state.path + "/catalog.sqlite", verify: verify)
            let clean = try TemporaryFolder()
            try await build(source, clean.path, Settings(), jobs: 2, catalog: state.path + "/clean-\(step).sqlite")
            let site = try snapshot(output.path)
            let expected = try snapshot(clean.path)
            let wrong = Set(site.keys).union(expected.keys).filter { site[$0] != expected[$0] }.sorted()
            #expect(wrong.isEmpty, "after \(name) dated \(date ?? "none"): \(wrong)")
        }
    }
}
