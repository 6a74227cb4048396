import Foundation
import Gallery
import Imaging
import Support
import Testing

@testable import Catalog
@testable import SiteGenerator

@Suite("What a build holds per photo")
struct PerPhotoSizeTests {
    /// A build of 100,000 photos holds these values per photo, several at once (the catalog's
    /// records, the scan's photos, the published photos): inline, with a photo's metadata and a
    /// video's details, they took 700 to 1,500 bytes each and a rebuild peaked at 670 MiB.
    @Test("the per-photo values stay small inline: large, mostly empty parts are boxed")
    func inlineSizes() {
        #expect(MemoryLayout<BuildManifest.PhotoRecord>.size <= 256, "PhotoRecord: \(MemoryLayout<BuildManifest.PhotoRecord>.size) bytes")
        #expect(MemoryLayout<GalleryPhoto>.size <= 256, "GalleryPhoto: \(MemoryLayout<GalleryPhoto>.size) bytes")
        #expect(MemoryLayout<ImageInfo>.size <= 64, "ImageInfo: \(MemoryLayout<ImageInfo>.size) bytes")
        // A photo's place in the plan is copied into the published photo: its photo is boxed.
        #expect(MemoryLayout<SitePlan.Photo>.size <= 64, "SitePlan.Photo: \(MemoryLayout<SitePlan.Photo>.size) bytes")
        #expect(MemoryLayout<PublishedPhoto>.size <= 96, "PublishedPhoto: \(MemoryLayout<PublishedPhoto>.size) bytes")
    }

    struct Sample: Codable, Equatable {
        @BoxedOptional var maybe: [String]?
        @Boxed var always: PhotoMetadata
        var plain: Int
    }

    @Test("a boxed value encodes as the value itself; a nil optional one is left out and may be missing")
    func coding() throws {
        let full = Sample(maybe: ["a"], always: PhotoMetadata(dateTaken: "2024:07:14 10:00:00"), plain: 1)
        let empty = Sample(maybe: nil, always: PhotoMetadata(), plain: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(empty), as: UTF8.self)
        #expect(!json.contains("maybe"), "\(json)")
        #expect(try JSONDecoder().decode(Sample.self, from: Data(#"{"always":{"hasGPS":false},"plain":3}"#.utf8)).maybe == nil)
        for sample in [full, empty] {
            #expect(try JSONDecoder().decode(Sample.self, from: encoder.encode(sample)) == sample)
            #expect(try RecordCoder.decode(Sample.self, from: RecordCoder.encode(sample)) == sample)
        }
        var changed = full
        changed.maybe = ["b"]
        #expect(changed != full && full.maybe == ["a"])
    }
}
