import Foundation
import Imaging
import Testing

@testable import Catalog

/// How long reading a large catalog takes (what every rebuild does first), for BENCHMARKS.md:
/// run with `CASCADE_CATALOG_TIMING=25000,100000 swift test --filter CatalogReadTiming`. It
/// prints its times and asserts only that every record came back (never a time: this machine's
/// load varies).
@Suite("Catalog read timing")
struct CatalogReadTimingTests {
    static let sizes = ProcessInfo.processInfo.environment["CASCADE_CATALOG_TIMING"]?.split(separator: ",").compactMap { Int($0) } ?? []

    @Test("a catalog of N photos is read whole", .enabled(if: !sizes.isEmpty))
    func read() throws {
        for count in Self.sizes {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-timing-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let catalog = try Catalog(path: folder + "/catalog.sqlite") { Issue.record("\($0)") }
            // A library's photos: a header read, camera settings, a few keywords, three sizes in
            // two formats.
            var manifest = BuildManifest()
            var template = RecordCoderTests.record(sources: true, info: true)
            var metadata = template.info!.metadata
            var camera = CameraSettings()
            (camera.make, camera.model, camera.fNumber, camera.iso) = ("Canon", "EOS R5", 5.6, 400)
            camera.exposureTime = .init(numerator: 1, denominator: 250)
            metadata.camera = camera
            metadata.keywords = ["sand", "dune"]
            template.info!.metadata = metadata
            for index in 0..<count {
                let album = "album-\(index / 1_000)", name = "photo-\(index)"
                var record = template
                record.size = index
                record.renditions = [400, 800, 1600].map { .init(width: $0, height: $0 * 3 / 4, path: "\(album)/thumbs/\(name)-\($0).jpg") }
                record.sources = [.init(type: "image/webp", settings: "webp|q80", paths: [400, 800, 1600].map { "\(album)/thumbs/\(name)-\($0).webp" })]
                manifest.photos["\(album)/\(name).jpg"] = record
                for rendition in record.renditions { manifest.files.append(rendition.path) }
                manifest.files += record.sources![0].paths
                manifest.pages["\(album)/\(name).html"] = "key \(index)"
            }
            manifest.files.sort()
            let written = ContinuousClock.now
            try catalog.save(manifest, replacing: BuildManifest())
            let writeTime = ContinuousClock.now - written
            let sample = stride(from: 0, to: count, by: 97).map { "album-\($0 / 1_000)/photo-\($0).jpg" }
            var times: [Duration] = []
            for _ in 0..<3 {
                let started = ContinuousClock.now
                let (read, _) = try catalog.snapshotAndFileSet(fileSet: true, likelyPaths: (sample, count))
                times.append(ContinuousClock.now - started)
                #expect(read.photos.count == count)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/catalog.sqlite")[.size] as? Int) ?? 0
            print("catalog of \(count) photos: read \(times.map { $0.formatted(.units(allowed: [.milliseconds])) }), written in \(writeTime.formatted(.units(allowed: [.milliseconds]))), \(size / 1_048_576) MiB")
        }
    }
}
