import Foundation
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// What `cascade.yml`, `index.md` and caption files change in the built site.
@Suite("A configured site")
struct ConfiguredSiteTests {
    @Test("titles, descriptions, captions, hidden albums, covers, author, Open Graph, sitemap and originals")
    func configuredSite() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("Trip/a.jpg", width: 300, height: 200)
        try source.photo("Trip/b.jpg", width: 200, height: 300)
        try source.write("Trip/b.jpg.md", Array("A *lovely* <b>day</b>".utf8))
        try source.write("Trip/index.md", Array("---\ntitle: Summer <trip>\ncover: b.jpg\n---\nTwo *weeks* by the sea.\n".utf8))
        try source.photo("Secret/c.jpg", width: 100, height: 100)
        try source.write("Secret/index.md", Array("---\nhidden: true\n---\n".utf8))
        let configuration = try SiteConfiguration.parse("""
            title: My photos
            author: Ann & Bo
            base_url: https://example.org/photos/
            download_originals: true
            sort: name
            """)
        let options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "unused", jobs: 2)
        let report = try await SiteBuilder(options: options).build()
        #expect(report.photos == 3 && report.skipped.isEmpty)

        let root = try output.read("index.html")
        #expect(root.contains("<title>My photos</title>"))
        #expect(root.contains("Summer &lt;trip&gt;"), "the album's title from index.md, escaped")
        #expect(!root.contains("secret/index.html"), "a hidden album is not listed")
        #expect(root.contains("Photos © Ann &amp; Bo"))
        #expect(root.contains("<meta name=\"author\" content=\"Ann &amp; Bo\">"))
        #expect(root.contains("<meta property=\"og:url\" content=\"https://example.org/photos/\">"))
        // The cover chosen in index.md represents the album.
        #expect(root.contains("trip/thumbs/b-"))

        let trip = try output.read("trip/index.html")
        #expect(trip.contains("<div class=\"album-description\"><p>Two <em>weeks</em> by the sea.</p>"))
        #expect(trip.contains("<meta property=\"og:image\" content=\"https://example.org/photos/trip/thumbs/b-"))

        let photo = try output.read("trip/b.html")
        #expect(photo.contains("<span class=\"caption\"><p>A <em>lovely</em> <b>day</b></p>"), "Markdown caption as HTML")
        #expect(photo.contains("href=\"originals/b.jpg\""))
        #expect(try Data(contentsOf: output.url.appendingPathComponent("trip/originals/b.jpg"))
                == Data(contentsOf: source.url.appendingPathComponent("Trip/b.jpg")))

        // The hidden album is built, but not in the sitemap.
        #expect(FileManager.default.fileExists(atPath: output.path + "/secret/index.html"))
        let sitemap = try output.read("sitemap.xml")
        #expect(sitemap.contains("<loc>https://example.org/photos/</loc>"))
        #expect(sitemap.contains("<loc>https://example.org/photos/trip/b.html</loc>"))
        #expect(!sitemap.contains("secret"))
    }

    @Test("without a base URL there is no sitemap and no absolute link")
    func noBaseURL() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("a.jpg", width: 300, height: 200)
        _ = try await SiteBuilder(options: SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T")).build()
        #expect(!FileManager.default.fileExists(atPath: output.path + "/sitemap.xml"))
        #expect(!(try output.read("index.html")).contains("og:url"))
        #expect(!(try output.read("a.html")).contains("originals/"))
    }
}
