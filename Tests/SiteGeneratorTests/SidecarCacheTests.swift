import Foundation
import GRDB
import Testing
import TestSupport

@testable import SiteGenerator

/// The catalog keeps each XMP sidecar's fields by the file's identity: a rebuild takes an
/// unchanged sidecar's from there, reads an edited one again, and forgets a removed one.
@Suite("Sidecars kept in the catalog")
struct SidecarCacheTests {
    /// A photo folder, an output folder and a catalog beside them.
    final class Site {
        let source: TemporaryFolder
        let output: TemporaryFolder
        let folder: TemporaryFolder
        var catalog: String { folder.path + "/catalog.sqlite" }

        init() throws {
            (source, output, folder) = (try TemporaryFolder(), try TemporaryFolder(), try TemporaryFolder())
        }

        /// Builds the site; `settling` is how long before the build a sidecar must have last
        /// changed to be kept (negative: one changed since is kept too).
        @discardableResult
        func build(settling: Double = -3600, verify: Bool = false) async throws -> BuildReport {
            var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
            options.catalogPath = catalog
            options.sidecarSettling = settling
            options.verifyAlbumKeys = verify
            return try await SiteBuilder(options: options).build()
        }

        /// Builds the site in full: the last build's stamp is forgotten first (the photo folder
        /// is as it was, so the build would otherwise end as up to date).
        func rebuild() async throws {
            try database { db in try db.execute(sql: "DELETE FROM last_build") }
            try await build()
        }

        func database<T>(_ body: (Database) throws -> T) throws -> T {
            try DatabaseQueue(path: catalog).write(body)
        }

        /// The sidecars the catalog keeps, with their titles.
        func kept() throws -> [String: String?] {
            try database { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT path, title FROM sidecar").map { ($0[0] as String, $0[1] as String?) })
            }
        }
    }

    static func titled(_ title: String) -> String {
        xmpSidecar(#"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">\#(title)</rdf:li></rdf:Alt></dc:title>"#)
    }

    @Test("an unchanged sidecar's fields come from the catalog; an edited one is read again; a removed one is forgotten")
    func keptByIdentity() async throws {
        let site = try Site()
        try site.source.photo("a/p.jpg", width: 300, height: 200)
        try site.source.photo("a/q.jpg", width: 200, height: 300)
        try site.source.write("a/p.xmp", Self.titled("First title"))
        try await site.build()
        #expect(try site.kept() == ["a/p.xmp": "First title"])
        #expect(try site.output.read("a/p.html").contains("First title"))

        // The catalog's fields, not the file's, make the page while the file is as it was.
        try site.database { db in try db.execute(sql: "UPDATE sidecar SET title = 'Title from the catalog'") }
        try await site.rebuild()
        #expect(try site.output.read("a/p.html").contains("Title from the catalog"))

        // Edited: read again, and kept anew.
        try site.source.write("a/p.xmp", Self.titled("Third title"))
        try await site.build()
        #expect(try site.output.read("a/p.html").contains("Third title"))
        #expect(try site.kept() == ["a/p.xmp": "Third title"])

        // A second sidecar is kept beside it; a removed one is forgotten.
        try site.source.write("a/q.xmp", Self.titled("Q"))
        try await site.build()
        #expect(try site.kept() == ["a/p.xmp": "Third title", "a/q.xmp": "Q"])
        try FileManager.default.removeItem(atPath: site.source.path + "/a/p.xmp")
        try await site.build()
        #expect(try site.kept() == ["a/q.xmp": "Q"])
        #expect(try !site.output.read("a/p.html").contains("Third title"))
    }

    @Test("a sidecar that cannot be read is not kept, nor one changed just before the build; the check reads every sidecar")
    func notKept() async throws {
        let site = try Site()
        try site.source.photo("p.jpg", width: 300, height: 200)
        try site.source.photo("q.jpg", width: 300, height: 200)
        try site.source.write("p.xmp", "<x:xmpmeta><broken")
        try site.source.write("q.xmp", Self.titled("Q"))
        // Changed within the settling time before the build: read, shown, not kept.
        try await site.build(settling: 3600)
        #expect(try site.kept().isEmpty)
        #expect(try site.output.read("q.html").contains("<h1 class=\"photo-title\">Q</h1>"))
        try await site.build()
        #expect(try site.kept() == ["q.xmp": "Q"])
        // With the test hook on, a sidecar is read even when the catalog has it (and the two
        // must agree, or the program stops).
        try site.database { db in try db.execute(sql: "DELETE FROM last_build") }
        try await site.build(verify: true)
        #expect(try site.output.read("q.html").contains("<h1 class=\"photo-title\">Q</h1>"))
        #expect(try site.kept() == ["q.xmp": "Q"])
    }
}
