import Foundation
import GalleryConfig
import Testing
import TestSupport

@testable import SiteGenerator

/// The sitemap of a site of more pages than one sitemap may list: an index of sitemaps in parts,
/// each within the protocol's limits (lowered here, so that a few photos make several parts).
@Suite("The sitemap in parts")
struct SitemapTests {
    /// The addresses (`<loc>`) of the XML file `name` of `output`.
    static func locations(_ output: TemporaryFolder, _ name: String) throws -> [String] {
        try output.read(name).matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.1) }
    }

    /// A photo folder of `count` photos in two albums and the folder it is built into, with a
    /// base URL, a catalog of its own (deleted with it) and sitemaps of at most `urls` addresses.
    final class Site {
        let source: TemporaryFolder
        let output: TemporaryFolder
        var options: SiteOptions

        init(count: Int, urls: Int) throws {
            source = try TemporaryFolder()
            output = try TemporaryFolder()
            for index in 0..<count {
                try source.photo("\(index % 2 == 0 ? "Sea" : "Hills")/p\(index).jpg", width: 120 + index, height: 90)
            }
            let configuration = try SiteConfiguration.parse("title: T\nbase_url: https://example.org/photos/\nsearch: false\n")
            options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
            options.catalogPath = catalog
            options.sitemapLimits.urls = urls
        }

        deinit { try? FileManager.default.removeItem(atPath: catalog) }

        var catalog: String { output.path + "-catalog.sqlite" }

        @discardableResult
        func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) async throws -> BuildReport {
            try await SiteBuilder(options: options).build(progress: progress)
        }
    }

    @Test("Cut by addresses and by bytes, each part as long as it can be, all in order; one part when all fit")
    func parts() {
        let urls = (0..<7).map { "https://example.org/\($0).html" }
        #expect(SitemapStage.parts(urls, limits: SitemapLimits(urls: 3, bytes: 1_000_000)) == [0..<3, 3..<6, 6..<7])
        #expect(SitemapStage.parts(urls, limits: .sitemaps) == [0..<7])
        #expect(SitemapStage.parts([], limits: .sitemaps) == [0..<0])
        // Room for two entries beside the frame: cut by bytes, each part's sitemap within them.
        let entry = SitemapStage.sitemap([urls[0]]).utf8.count - SitemapStage.sitemap([String]()).utf8.count
        let limits = SitemapLimits(urls: 50_000, bytes: SitemapStage.sitemap([String]()).utf8.count + 2 * entry)
        let cut = SitemapStage.parts(urls, limits: limits)
        #expect(cut == [0..<2, 2..<4, 4..<6, 6..<7])
        for part in cut { #expect(SitemapStage.sitemap(urls[part]).utf8.count <= limits.bytes) }
        // Escaped, and counted as written: cut by bytes exactly at the limit.
        let odd = (0..<5).map { "https://example.org/a&b<\($0)>é.html" }
        #expect(SitemapStage.sitemap([odd[0]]).contains("<loc>https://example.org/a&amp;b&lt;0&gt;é.html</loc>"))
        let two = SitemapStage.sitemap(Array(odd[0..<2])).utf8.count
        #expect(SitemapStage.parts(odd, limits: SitemapLimits(urls: 50_000, bytes: two)) == [0..<2, 2..<4, 4..<5])
        #expect(SitemapStage.parts(odd, limits: SitemapLimits(urls: 50_000, bytes: two - 1)) == (0..<5).map { $0..<($0 + 1) })
        #expect(SitemapStage.isPart("sitemap-part-12.xml", of: "sitemap.xml"))
        #expect(SitemapStage.isPart("sitemap-2-part-1.xml", of: "sitemap-2.xml"))
        #expect(!SitemapStage.isPart("sitemap-2-part-1.xml", of: "sitemap.xml"))
        #expect(!SitemapStage.isPart("sitemap-part-.xml", of: "sitemap.xml"))
        #expect(!SitemapStage.isPart("sitemap-part-0.xml", of: "sitemap.xml"))
    }

    @Test("More pages than a sitemap may list: an index of parts beside it, which list every page once; fewer again: one sitemap, the parts deleted")
    func splitAndJoined() async throws {
        let whole = try Site(count: 5, urls: 50_000)
        try await whole.build()
        let pages = try Self.locations(whole.output, "sitemap.xml")
        // Three albums' pages (the root's, two albums') and five photos'.
        #expect(pages.count == 8)

        let site = try Site(count: 5, urls: 3)
        try await site.build()
        let index = try site.output.read("sitemap.xml")
        #expect(index.contains("<sitemapindex"))
        let parts = try Self.locations(site.output, "sitemap.xml")
        #expect(parts == (1...3).map { "https://example.org/photos/sitemap-part-\($0).xml" })
        var listed: [String] = []
        for number in 1...3 {
            let part = try Self.locations(site.output, "sitemap-part-\(number).xml")
            #expect(part.count <= 3 && !part.isEmpty)
            listed += part
        }
        #expect(listed == pages)

        // Under the limit again (the protocol's): one sitemap, and the parts are gone.
        site.options.sitemapLimits = .sitemaps
        try await site.build()
        #expect(try Self.locations(site.output, "sitemap.xml") == pages)
        for number in 1...3 { #expect(!FileManager.default.fileExists(atPath: site.output.path + "/sitemap-part-\(number).xml")) }
    }

    @Test("Without the catalog, the index and its parts are found to be the tool's: a rebuild under the limit deletes the parts")
    func partsRecovered() async throws {
        let site = try Site(count: 5, urls: 2)
        try await site.build()
        #expect(FileManager.default.fileExists(atPath: site.output.path + "/sitemap-part-4.xml"))
        try FileManager.default.removeItem(atPath: site.catalog)
        site.options.sitemapLimits = .sitemaps
        let report = try await site.build()
        #expect(report.photos == 5)
        #expect(try Self.locations(site.output, "sitemap.xml").count == 8)
        for number in 1...4 { #expect(!FileManager.default.fileExists(atPath: site.output.path + "/sitemap-part-\(number).xml")) }
    }

    @Test("A part's name that is the user's: it stays as it is, and the site's sitemap and parts take the next names")
    func usersPart() async throws {
        let site = try Site(count: 5, urls: 3)
        let mine = "<urlset>my own</urlset>"
        try site.output.write("sitemap-part-2.xml", Array(mine.utf8))
        let warnings = Events()
        try await site.build { event in warnings.list.withLock { $0.append(event) } }
        #expect(try site.output.read("sitemap-part-2.xml") == mine)
        #expect(!FileManager.default.fileExists(atPath: site.output.path + "/sitemap.xml"))
        #expect(try Self.locations(site.output, "sitemap-2.xml") == (1...3).map { "https://example.org/photos/sitemap-2-part-\($0).xml" })
        #expect(try Self.locations(site.output, "sitemap-2-part-1.xml").count == 3)
        let said = warnings.list.withLock { list in
            list.contains { event in
                if case .warning(let text) = event { return text.contains("sitemap-part-2.xml") && text.contains("sitemap-2.xml") }
                return false
            }
        }
        #expect(said)
    }
}
