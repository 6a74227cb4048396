import Foundation
import GalleryConfig
import Testing
import TestSupport

@testable import Imaging
@testable import SiteGenerator

/// `colour: wide` in a site: the setting reaches the build, and switching it remakes the
/// images of wide-gamut photos alone.
@Suite("colour: wide")
struct WideColourSiteTests {
    @Test("cascade.yml's colour reaches the options; srgb is the default; other values are refused")
    func fromConfiguration() throws {
        #expect(SiteConfiguration().colour == .srgb)
        let wide = try SiteConfiguration.parse("colour: wide")
        #expect(wide.colour == .wide)
        #expect(SiteOptions(configuration: wide, sourceDirectory: "/s", outputDirectory: "/o", title: "T").colour == .wide)
        #expect(SiteOptions(configuration: SiteConfiguration(), sourceDirectory: "/s", outputDirectory: "/o", title: "T").colour == .sRGB)
        let error = try #require(throws: ConfigurationError.self) { try SiteConfiguration.parse("colour: p3") }
        #expect(error.description.contains("srgb") && error.description.contains("wide"))
    }

    func build(_ source: TemporaryFolder, _ output: TemporaryFolder, colour: OutputColour) async throws -> BuildReport {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  tileWidths: [100], photoWidths: [200], imageFormat: .jpeg(quality: 80), jobs: 2)
        options.colour = colour
        return try await SiteBuilder(options: options).build()
    }

    /// The images made from the photo whose file name starts with `stem`.
    func images(of stem: String, in output: TemporaryFolder) throws -> [[UInt8]] {
        let files = FileManager.default.enumerator(atPath: output.path)!.compactMap { $0 as? String }
            .filter { ($0 as NSString).lastPathComponent.hasPrefix(stem + "-") && $0.hasSuffix(".jpg") }
        return try files.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: output.path + "/" + $0))) }
    }

    @Test("switching colour remakes the wide-gamut photo's images and no other")
    func switchingRemakesOnlyWideGamutPhotos() async throws {
        let source = try TemporaryFolder()
        var image = try Image(width: 320, height: 200)
        image.fill(x: 0, y: 0, width: 320, height: 200, red: 240, green: 40, blue: 30)
        let plain = try image.encoded(as: .jpeg(quality: 90))
        try source.write("A/plain.jpg", plain)
        try source.write("A/wide.jpg", try ProfileEmbedding.jpeg(plain, profile: DisplayP3.iccProfile))
        let output = try TemporaryFolder()

        var report = try await build(source, output, colour: .sRGB)
        #expect(report.photosMade == 2 && report.skipped.isEmpty)
        for file in try images(of: "wide", in: output) + images(of: "plain", in: output) {
            #expect(try ColourProfileReader.read(file, format: .jpeg) == nil)
        }

        report = try await build(source, output, colour: .wide)
        #expect(report.photosMade == 1 && report.photosReused == 1, "made \(report.photosMade), reused \(report.photosReused)")
        let wideImages = try images(of: "wide", in: output)
        #expect(wideImages.count == 2)
        for file in wideImages {
            #expect(try ColourProfileReader.read(file, format: .jpeg) == .icc(DisplayP3.iccProfile))
        }
        for file in try images(of: "plain", in: output) { #expect(try ColourProfileReader.read(file, format: .jpeg) == nil) }

        report = try await build(source, output, colour: .wide)
        #expect(report.photosMade == 0)

        report = try await build(source, output, colour: .sRGB)
        #expect(report.photosMade == 1 && report.photosReused == 1, "made \(report.photosMade), reused \(report.photosReused)")
        for file in try images(of: "wide", in: output) { #expect(try ColourProfileReader.read(file, format: .jpeg) == nil) }
    }
}
