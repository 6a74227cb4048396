import Foundation
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// Several image formats: every image is made in each, the pages offer the further ones
/// through `<picture>`, and rebuilds treat every format's files as the build's own.
@Suite("Images in several formats")
struct PictureFormatsTests {
    @Test(
        "the most widely supported listed format is the <img>; the others are <source>s, best first",
        arguments: [
            ([SiteConfiguration.ImageFormat.avif, .jpeg], "jpg", ["avif"]),
            ([.jpeg, .webp, .avif], "jpg", ["avif", "webp"]),
            ([.webp, .avif], "webp", ["avif"]),
            ([.avif], "avif", []),
            ([.webp], "webp", []),
            ([], "jpg", []),
        ])
    func formatOrder(listed: [SiteConfiguration.ImageFormat], image: String, sources: [String]) {
        let formats = SiteOptions.encodeFormats(listed, quality: 70)
        #expect(formats.image.fileExtension == image)
        #expect(formats.sources.map(\.fileExtension) == sources)
        #expect(formats.image.settingsKey.hasSuffix("70"))
    }

    @Test("cascade.yml's formats and quality reach the build's options")
    func fromConfiguration() throws {
        let configuration = try SiteConfiguration.parse("formats: [webp, avif, jpeg]\nquality: 64")
        let options = SiteOptions(configuration: configuration, sourceDirectory: "/s", outputDirectory: "/o", title: "T")
        #expect(options.imageFormat == .jpeg(quality: 64))
        #expect(options.sourceFormats == [.avif(quality: 64), .webp(quality: 64)])
        let keys = options.allImageFormats.map(options.imageSettingsKey(for:))
        #expect(zip(keys, ["jpeg64", "avif64", "webp64"]).allSatisfy { $0.stored.contains(";format=\($1);") })
        #expect(options.imageSettingsKey(for: .avif(quality: 64)).stored.contains(";format=avif64;"))
    }

    /// `<picture>` elements of an HTML text: each `<source>`'s type and srcset, and the `<img>`'s srcset.
    func pictures(in html: String) -> [(sources: [(type: String, srcset: String)], imgSrcset: String)] {
        html.components(separatedBy: "<picture>").dropFirst().map { part in
            let picture = String(part[..<part.range(of: "</picture>")!.lowerBound])
            let sources = picture.components(separatedBy: "<source ").dropFirst().map { source in
                (attributeValues("type", in: " " + source)[0], unescapeHTML(attributeValues("srcset", in: " " + source)[0]))
            }
            let img = String(picture[picture.range(of: "<img ")!.lowerBound...])
            return (sources, unescapeHTML(attributeValues("srcset", in: img)[0]))
        }
    }

    func build(_ source: TemporaryFolder, _ output: TemporaryFolder, sources: [EncodeFormat]) async throws -> BuildReport {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  tileWidths: [100, 200], photoWidths: [300], imageFormat: .jpeg(quality: 80), jobs: 2)
        options.sourceFormats = sources
        return try await SiteBuilder(options: options).build()
    }

    @Test("every image is made in every format, and each <source> lists that format's files at the <img>'s widths")
    func pictureSources() async throws {
        let source = try TemporaryFolder()
        try source.photo("A/wide.jpg", width: 400, height: 250)
        try source.photo("A/tall.jpg", width: 150, height: 300)
        let output = try TemporaryFolder()
        let report = try await build(source, output, sources: [.avif(quality: 60), .webp(quality: 70)])
        #expect(report.photos == 2 && report.skipped.isEmpty)

        let expectedKinds: [String: ImageFormat] = ["image/avif": .avif, "image/webp": .webp]
        for page in ["a/index.html", "index.html", "a/wide.html", "a/tall.html"] {
            let found = pictures(in: try output.read(page))
            #expect(!found.isEmpty, "\(page) has no <picture>")
            for picture in found {
                #expect(picture.sources.map(\.type) == ["image/avif", "image/webp"], "\(page)")
                let imgWidths = picture.imgSrcset.components(separatedBy: ", ").map { $0.split(separator: " ")[1] }
                for (type, srcset) in picture.sources {
                    let entries = srcset.components(separatedBy: ", ").map { $0.split(separator: " ") }
                    #expect(entries.map { $0[1] } == imgWidths, "\(page): \(type) offers other widths than the <img>")
                    for entry in entries {
                        let path = resolve(String(entry[0]), from: page)
                        let bytes = try #require(FileManager.default.contents(atPath: output.path + "/" + path), "\(page): \(path) is missing")
                        #expect(ImageFormat.sniff([UInt8](bytes)) == expectedKinds[type], "\(path) is not \(type)")
                    }
                }
            }
        }
        // The frame data names the further formats, and the viewer's URLs for them exist.
        let frames = try JSONSerialization.jsonObject(with: Data(try output.read("a/frames.json").utf8)) as! [String: Any]
        let sources = try #require(frames["sources"] as? [[String: String]])
        #expect(sources.map { $0["type"] } == ["image/avif", "image/webp"])
        for source in sources {
            let url = try #require(source["imageURL"]).replacingOccurrences(of: "{id}", with: "wide").replacingOccurrences(of: "{width}", with: "200")
            #expect(FileManager.default.fileExists(atPath: output.path + "/a/" + url), "\(url)")
        }
        // As many files in each further format as in the main one: 100, 200, 300 px of the wide photo, 100 and 150 of the tall one.
        #expect(files(in: output.path, withExtension: "jpg").count == 5)
        #expect(files(in: output.path, withExtension: "avif").count == files(in: output.path, withExtension: "jpg").count)
        #expect(files(in: output.path, withExtension: "webp").count == files(in: output.path, withExtension: "jpg").count)
    }

    /// A photo folder with two photos, 400 and 300 px wide (images of 100, 200 and 300 px each),
    /// and an empty output folder.
    func twoPhotos() throws -> (source: TemporaryFolder, output: TemporaryFolder) {
        let source = try TemporaryFolder()
        try source.photo("A/one.jpg", width: 400, height: 250)
        try source.photo("A/two.jpg", width: 300, height: 300)
        return (source, try TemporaryFolder())
    }

    @Test("rebuilds reuse, move and remove the files of every format")
    func rebuilds() async throws {
        let (source, output) = try twoPhotos()
        let first = try await build(source, output, sources: [.webp(quality: 70)])
        #expect(first.imagesWritten == 2 * 3 + 2 * 3)  // widths 100, 200, 300 (two's own) in two formats
        let contents = try snapshot(output.path)

        let again = try await build(source, output, sources: [.webp(quality: 70)])
        #expect(again.photosReused == 2 && again.imagesWritten == 0 && again.pagesWritten == 0 && again.filesRemoved == 0)
        #expect(try snapshot(output.path) == contents)

        // Renamed: both formats are moved, none is made again.
        try FileManager.default.moveItem(atPath: source.path + "/A/one.jpg", toPath: source.path + "/A/uno.jpg")
        let renamed = try await build(source, output, sources: [.webp(quality: 70)])
        #expect(renamed.photosMade == 0 && renamed.photosReused == 2)
        for ext in ["jpg", "webp"] {
            #expect(FileManager.default.fileExists(atPath: output.path + "/a/thumbs/uno-200.\(ext)"))
            #expect(!FileManager.default.fileExists(atPath: output.path + "/a/thumbs/one-200.\(ext)"))
        }

        // Back to one format: the WebP files are the build's own and go; pages lose their <source>s.
        // The JPEG images were made with the same settings: they are kept as they are.
        let jpegs = try snapshot(output.path).filter { $0.key.hasSuffix(".jpg") }
        let single = try await build(source, output, sources: [])
        #expect(files(in: output.path, withExtension: "webp").isEmpty)
        #expect(single.filesRemoved == 6)
        #expect(single.imagesWritten == 0 && single.photosReused == 2)
        #expect(try snapshot(output.path).filter { $0.key.hasSuffix(".jpg") } == jpegs)
        #expect(!(try output.read("a/index.html")).contains("<source"))
        #expect(pictures(in: try output.read("a/uno.html")).allSatisfy { $0.sources.isEmpty })
    }

    @Test("adding a format makes only its images; changing its quality remakes only them")
    func addingAFormat() async throws {
        let (source, output) = try twoPhotos()
        _ = try await build(source, output, sources: [])
        let jpegs = try snapshot(output.path).filter { $0.key.hasSuffix(".jpg") }
        #expect(jpegs.count == 6)
        try await Task.sleep(for: .milliseconds(20))

        let added = try await build(source, output, sources: [.avif(quality: 50)])
        #expect(added.photosMade == 2 && added.imagesWritten == 6, "only the 6 AVIF images are made")
        #expect(files(in: output.path, withExtension: "avif").count == 6)
        #expect(try snapshot(output.path).filter { $0.key.hasSuffix(".jpg") } == jpegs, "the JPEG images were made again")
        let avifs = try snapshot(output.path).filter { $0.key.hasSuffix(".avif") }

        let requality = try await build(source, output, sources: [.avif(quality: 20)])
        #expect(requality.imagesWritten == 6)
        #expect(try snapshot(output.path).filter { $0.key.hasSuffix(".jpg") } == jpegs)
        #expect(try snapshot(output.path).filter { $0.key.hasSuffix(".avif") } != avifs, "the AVIF images were not made again")

        let again = try await build(source, output, sources: [.avif(quality: 20)])
        #expect(again.photosReused == 2 && again.imagesWritten == 0)
    }
}
