import Foundation
import Imaging
import Testing
import TestSupport

@testable import Catalog
@testable import SiteGenerator

/// `cascade serve` reads the catalog while it waits for a change (``CatalogReadAhead``); a
/// rebuild uses that read only when nothing wrote to the catalog since, and ends like a clean
/// build either way.
@Suite("Catalog read ahead")
struct CatalogReadAheadTests {
    let site = UpToDateTests()

    /// A photo of `width` in a colour of its own, as JPEG bytes.
    func photo(width: Int, red: UInt8) throws -> [UInt8] {
        var image = try Image(width: width, height: 200)
        image.fill(x: 0, y: 0, width: width, height: 200, red: red, green: 40, blue: 200)
        return try image.encoded(as: .jpeg(quality: 85))
    }

    func build(_ options: SiteOptions, _ readAhead: CatalogReadAhead?) async throws -> BuildReport {
        try await SiteBuilder(options: options, catalogReadAhead: readAhead).build()
    }

    /// A photo folder, an output folder and a folder for the catalog (kept alive by the caller),
    /// the options for them, and a first build with a read ahead.
    func firstBuild() async throws -> (folders: [TemporaryFolder], source: TemporaryFolder, options: SiteOptions, readAhead: CatalogReadAhead) {
        let source = try site.makeSource()
        let output = try TemporaryFolder()
        let catalog = try TemporaryFolder()
        var options = site.options(source, output.path)
        options.catalogPath = catalog.path + "/catalog.sqlite"
        let readAhead = CatalogReadAhead()
        _ = try await build(options, readAhead)
        return ([source, output, catalog], source, options, readAhead)
    }

    @Test("a rebuild after a change takes the read, and ends like a clean build")
    func readTaken() async throws {
        let (folders, source, options, readAhead) = try await firstBuild()
        defer { withExtendedLifetime(folders) {} }
        let output = options.outputDirectory
        for (step, red) in [UInt8(10), 220, 130].enumerated() {
            try source.write("A/photo 0.jpg", try photo(width: 320 + step, red: red))
            let report = try await build(options, readAhead)
            #expect(report.photosMade == 1 && report.photosReused == 3, "step \(step)")
            #expect(readAhead.readsUsed == step + 1)
            #expect(try snapshot(output) == (try await site.cleanBuild(options)), "step \(step)")
        }
        // Up to date: the read is kept for the next change.
        #expect(try await build(options, readAhead).upToDate)
        try source.write("B/photo 3.jpg", try photo(width: 300, red: 90))
        _ = try await build(options, readAhead)
        #expect(readAhead.readsUsed == 4)
        #expect(try snapshot(output) == (try await site.cleanBuild(options)))
    }

    @Test("a read is not taken when another build wrote to the catalog, or the catalog was made anew")
    func readNotTakenAfterAnotherWrite() async throws {
        let (folders, source, options, readAhead) = try await firstBuild()
        defer { withExtendedLifetime(folders) {} }
        let output = options.outputDirectory
        // Another build (another process, say) changes the catalog after the read began.
        try source.write("A/photo 0.jpg", try photo(width: 333, red: 10))
        _ = try await build(options, nil)
        try source.write("A/photo 2.jpg", try photo(width: 344, red: 250))
        let report = try await build(options, readAhead)
        #expect(readAhead.readsUsed == 0)
        #expect(report.photosMade == 1)
        #expect(try snapshot(output) == (try await site.cleanBuild(options)))

        // The catalog deleted and made anew by another build, after the read began.
        try FileManager.default.removeItem(atPath: options.catalogPath!)
        try source.write("B/photo 1.jpg", try photo(width: 355, red: 70))
        _ = try await build(options, nil)
        try source.write("B/photo 3.jpg", try photo(width: 366, red: 170))
        _ = try await build(options, readAhead)
        #expect(readAhead.readsUsed == 0)
        #expect(try snapshot(output) == (try await site.cleanBuild(options)))
    }
}
