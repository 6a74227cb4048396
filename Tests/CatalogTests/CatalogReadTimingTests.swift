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

    /// The output folder's records of a site of N photos (an album folder of 1,000 photos' pages
    /// and a `thumbs` folder of their 6 images each): written whole, read, and written again
    /// after one photo changed (one folder's row).
    @Test("the output folder's records of a site of N photos are written and read", .enabled(if: !sizes.isEmpty))
    func outputState() throws {
        for count in Self.sizes {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-timing-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let catalog = try Catalog(path: folder + "/catalog.sqlite") { Issue.record("\($0)") }
            var random = UInt64(count)
            func next() -> UInt64 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return random
            }
            var folders: [String: OutputFolder] = ["": OutputFolder(sums: [1, 2, 3], files: [4], subfolders: [])]
            for album in 0..<max(1, count / 1_000) {
                let pages = min(1_000, count - album * 1_000)
                folders["album-\(album)"] = OutputFolder(sums: [next(), next(), UInt64(pages + 1)], files: (0..<pages).map { _ in next() }.sorted(), subfolders: [])
                folders["album-\(album)/thumbs"] = OutputFolder(sums: [next(), next(), UInt64(6 * pages)], files: (0..<6 * pages).map { _ in next() }.sorted(), subfolders: [])
            }
            let written = ContinuousClock.now
            try catalog.recordOutputState(hex: "first", folders: folders)
            let writeTime = ContinuousClock.now - written
            let read = ContinuousClock.now
            let back = try catalog.outputState()
            let readTime = ContinuousClock.now - read
            #expect(back == folders)
            folders["album-0/thumbs"]?.sums[0] &+= 1
            let again = ContinuousClock.now
            try catalog.recordOutputState(hex: "second", folders: folders)
            let againTime = ContinuousClock.now - again
            // The block of bytes catalogs before version 8 kept, read as they read it, to compare.
            var bytes = OldOutputState.header
            for (path, record) in folders {
                for value in [UInt64(path.utf8.count)] { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
                bytes += Array(path.utf8)
                for value in record.sums + [UInt64(record.files.count)] + record.files { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
            }
            let decoded = ContinuousClock.now
            #expect(OldOutputState.decode(bytes)?.count == folders.count)
            let oldTime = ContinuousClock.now - decoded
            let files = folders.values.reduce(0) { $0 + $1.files.count }
            print("output records of \(count) photos (\(folders.count) folders, \(files) files): written in \(writeTime.formatted(.units(allowed: [.milliseconds]))), read in \(readTime.formatted(.units(allowed: [.milliseconds]))), one folder written again in \(againTime.formatted(.units(allowed: [.milliseconds]))); the old block decoded in \(oldTime.formatted(.units(allowed: [.milliseconds])))")
        }
    }
}
