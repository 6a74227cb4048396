import Foundation
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// A photo whose colour profile cannot be read is still published, with a warning naming it.
@Suite("Colour profile warnings")
struct ColourWarningTests {
    @Test func damagedProfileIsAWarningNamingThePhoto() async throws {
        let source = try TemporaryFolder()
        var image = try Image(width: 300, height: 200)
        image.fill(x: 0, y: 0, width: 300, height: 200, red: 200, green: 80, blue: 60)
        let jpeg = try image.encoded(as: .jpeg(quality: 90))
        // Part 1 of 2 of an ICC profile, and no part 2, right after SOI.
        let body = Array("ICC_PROFILE".utf8) + [0, 1, 2] + [UInt8](repeating: 0x41, count: 200)
        let segment: [UInt8] = [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        try source.write("A/damaged.jpg", Array(jpeg[..<2]) + segment + Array(jpeg[2...]))
        try source.write("A/plain.jpg", jpeg)

        let output = try TemporaryFolder()
        let options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", imageFormat: .jpeg(quality: 82), jobs: 2)
        let events = Events()
        let report = try await SiteBuilder(options: options).build { event in events.list.withLock { $0.append(event) } }
        #expect(report.photosMade == 2)
        let warnings = events.list.withLock { $0.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("A/damaged.jpg: ") == true && warnings.first?.contains("colour profile") == true, "\(warnings)")
    }
}
