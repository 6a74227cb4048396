import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// A tag on many photos has many static pages and chunks of frame data; one photo changed, only
/// those that show it are made again, and the site ends like a clean build.
@Suite("A large tag's wall, rebuilt in part")
struct TagWallRebuildTests {
    /// Eight photos of one album, each with the keyword `sea` in its sidecar, by name.
    static func folder() throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        for index in 0..<8 {
            try source.write("A/p\(index).jpg", try photo(width: 80 + 7 * index, height: 60, seed: index))
            try source.write("A/p\(index).xmp", xmpSidecar("<dc:subject><rdf:Bag><rdf:li>sea</rdf:li></rdf:Bag></dc:subject>"))
        }
        return source
    }

    static func photo(width: Int, height: Int, seed: Int) throws -> [UInt8] {
        var image = try Image(width: width, height: height)
        image.fill(x: 0, y: 0, width: width, height: height, red: UInt8(30 * seed % 256), green: 120, blue: 200)
        return try image.encoded(as: .jpeg(quality: 90))
    }

    /// Two tiles a static page and two items a chunk: the tag's wall has four of each.
    static func build(_ source: TemporaryFolder, _ output: String, catalog: String, verify: Bool = false) async throws {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output, title: "T", imageFormat: .jpeg(quality: 80),
                                  jobs: 2, tilesPerPage: 2, framesChunkSize: 2)
        options.sort = .name
        options.tileWidths = [60]
        options.photoWidths = [120]
        options.catalogPath = catalog
        options.verifyAlbumKeys = verify
        _ = try await SiteBuilder(options: options).build()
    }

    @Test("One photo of the tag changed: the pages and chunks without it are not made again", arguments: [false, true])
    func partialRebuild(verify: Bool) async throws {
        let source = try Self.folder()
        let output = try TemporaryFolder()
        let state = try TemporaryFolder()
        try await Self.build(source, output.path, catalog: state.path + "/catalog.sqlite")
        for file in ["tags/sea/pages/2.html", "tags/sea/pages/4.html", "tags/sea/frames/1.json", "tags/sea/frames/3.json"] {
            #expect(FileManager.default.fileExists(atPath: output.path + "/" + file), "\(file)")
        }
        // p4 is on page 3 and in chunk 2 (by name, two a page and a chunk): a new size for it.
        try source.write("A/p4.jpg", try Self.photo(width: 150, height: 40, seed: 99))
        try await Self.build(source, output.path, catalog: state.path + "/catalog.sqlite", verify: verify)
        let clean = try TemporaryFolder()
        try await Self.build(source, clean.path, catalog: state.path + "/clean.sqlite")
        let site = try snapshot(output.path)
        let expected = try snapshot(clean.path)
        #expect(site == expected, "\(Set(site.keys).union(expected.keys).filter { site[$0] != expected[$0] }.sorted())")
        #expect(try output.read("tags/sea/pages/3.html").contains("p4-60.jpg"))

        // A mark in the files that do not show the photo, of the same size and with the file's
        // time given back (as the output folder's walk takes it for the file the build made):
        // another change of p4 leaves them as they are (they are not made again), and makes
        // again those that show it.
        let untouched = ["tags/sea/pages/2.html", "tags/sea/pages/4.html", "tags/sea/frames/0.json", "tags/sea/frames/1.json", "tags/sea/frames/3.json"]
        let remade = ["tags/sea/pages/3.html", "tags/sea/frames/2.json"]
        guard !verify else { return }  // (verifyAlbumKeys makes every file again)
        for file in untouched + remade {
            let path = output.path + "/" + file
            // (Its time to the nanosecond, as the walk compares it.)
            var status = stat()
            #expect(stat(path, &status) == 0)
            let text = try output.read(file)
            let marked = text.hasSuffix(".json") || file.hasSuffix(".json")
                ? text.replacingOccurrences(of: "{\"start\":", with: "{\"START\":")
                : text.replacingOccurrences(of: "<html", with: "<HTML")
            #expect(marked != text && marked.utf8.count == text.utf8.count)
            try output.write(file, marked)
            var times = [status.st_atim, status.st_mtim]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        func isMarked(_ file: String) throws -> Bool {
            let text = try output.read(file)
            return text.contains("{\"START\":") || text.contains("<HTML")
        }
        try source.write("A/p4.jpg", try Self.photo(width: 40, height: 150, seed: 98))
        try await Self.build(source, output.path, catalog: state.path + "/catalog.sqlite")
        for file in untouched { #expect(try isMarked(file), "\(file) was made again") }
        for file in remade { #expect(!(try isMarked(file)), "\(file) was not made again") }
    }
}

