import Foundation
import Testing
import TestSupport

@testable import SiteGenerator

/// A large album: its page holds the first tiles (the viewer shows the rest from the frame
/// data), further static pages hold the rest for browsers without scripts, and the frame data
/// is an index plus chunks.
@Suite struct LargeAlbumTests {
    @Test("an album larger than one page is split into static pages, and its frame data into chunks",
          arguments: [(photos: 23, perPage: 10, chunk: 7), (photos: 10, perPage: 10, chunk: 4), (photos: 9, perPage: 100, chunk: 100)])
    func pagesAndChunks(photos: Int, perPage: Int, chunk: Int) async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        for index in 0..<photos {
            try source.photo("Big/photo-\(String(index).leftPadded(to: 3)).jpg", width: 40 + index * 3, height: 30 + (index * 7) % 50)
        }
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.tilesPerPage = perPage
        options.framesChunkSize = chunk
        let report = try await SiteBuilder(options: options).build()
        #expect(report.photos == photos)

        let frameData = try FrameData(folder: output.url.appendingPathComponent("big"))
        #expect(frameData.count == photos)
        #expect(frameData.staticCount == min(photos, perPage))
        let chunkFiles = try FileManager.default.contentsOfDirectory(atPath: output.url.appendingPathComponent("big/frames").path)
        #expect(chunkFiles.count == (photos + chunk - 1) / chunk)

        let pageCount = (photos + perPage - 1) / perPage
        var seen: [String] = []
        for page in 1...pageCount {
            let path = page == 1 ? "big/index.html" : "big/pages/\(page).html"
            let html = try output.read(path)
            let links = html.components(separatedBy: "class=\"tile\" href=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            #expect(links.count == min(perPage, photos - (page - 1) * perPage), "\(path)")
            // Each static page's links resolve to the photos' pages.
            seen += links.map { resolve(unescapeHTML($0), from: path) }
            // Every page has the viewer (page 1 the whole wall, the others the lightbox over
            // their own tiles); every page links to the next and previous.
            #expect(html.contains("viewer.js"))
            #expect(html.contains(page == 1 ? "data-frames=\"frames.json\"" : "data-frames=\"../frames.json\" data-slice"))
            #expect(html.contains("rel=\"next\"") == (page < pageCount))
            #expect(html.contains("rel=\"prev\"") == (page > 1))
            #expect(html.contains("class=\"wall-pages\"") == (pageCount > 1))
            if pageCount > 1 {
                // The current page is marked, and the pages around it are linked (no ellipsis for three pages).
                #expect(html.contains("<span aria-current=\"page\">\(page)</span>"))
                #expect(!html.contains("…"))
                let nav = html.components(separatedBy: "class=\"wall-pages\"")[1].components(separatedBy: "</nav>")[0]
                #expect(nav.components(separatedBy: "<li><a href=").count - 1 == pageCount - 1)
            }
            // The first page's wall is as tall as its own tiles without the viewer, and as the
            // whole album with it.
            #expect(html.contains(".wall.is-full{height:") == (page == 1 && pageCount > 1))
            for url in attributeValues("href", in: html) + attributeValues("src", in: html) where !url.hasPrefix("data:") && !url.hasPrefix("#") {
                let target = resolve(unescapeHTML(url), from: path)
                let exists = FileManager.default.fileExists(atPath: output.url.appendingPathComponent(target).path)
                    || FileManager.default.fileExists(atPath: output.url.appendingPathComponent(target + "index.html").path)
                #expect(exists, "\(path) links to \(url)")
            }
        }
        #expect(seen == frameData.items.map { "big/" + $0.page.removingPercentEncoding! })

        // A photo's page leads back to the static page that holds its tile, at the tile.
        let last = frameData.items[photos - 1]
        let photoPage = try output.read("big/" + last.page.removingPercentEncoding!)
        let expectedBack = (pageCount == 1 ? "index.html" : "pages/\(pageCount).html") + "#p\(photos - 1)"
        #expect(photoPage.contains("href=\"\(expectedBack)\""), "the last photo's page does not link to \(expectedBack)")
    }

    @Test("the index stays compact: a few dozen bytes a photo")
    func compactIndex() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        for index in 0..<60 {
            try source.photo("A/IMG_\(1000 + index).jpg", width: 64, height: 48 + index % 30)
        }
        _ = try await SiteBuilder(options: SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)).build()
        let frameData = try FrameData(folder: output.url.appendingPathComponent("a"))
        // ratio (6), 5 columns (5), id (11), colour (6): about 31 bytes a photo, plus a fixed header.
        #expect(frameData.indexBytes < 600 + 36 * 60, "\(frameData.indexBytes) bytes")
    }
}
