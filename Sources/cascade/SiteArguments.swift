import ArgumentParser
import Foundation
import Imaging
import SiteGenerator

/// The options every command that builds the site shares (`build`, `serve`).
struct SiteArguments: ParsableArguments {
    @Argument(help: "The photo folder.", completion: .directory)
    var source: String

    @Option(name: .shortAndLong, help: "Where to write the site (must not overlap the photo folder).", completion: .directory)
    var output: String = "_site"

    @Option(help: "The site's title (default: the photo folder's name).")
    var title: String?

    @Option(help: "A theme folder whose files override the default theme (templates/ layout).", completion: .directory)
    var templates: String?

    @Option(help: "Image format of the thumbnails: jpeg or webp.")
    var format: String = "jpeg"

    @Option(help: "Image quality, 1-100.")
    var quality: Int = 82

    @Option(help: "Refuse photos larger than this many megapixels (protects against decompression bombs).")
    var maxMegapixels: Int = 200

    @Option(help: "How many photos to process at once (default: one per core).")
    var jobs: Int = 0

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive") }
        guard jobs >= 0 else { throw ValidationError("--jobs cannot be negative") }
        guard ["jpeg", "jpg", "webp"].contains(format.lowercased()) else {
            throw ValidationError("--format must be jpeg or webp")
        }
    }

    /// The build's options from the command line.
    func siteOptions() -> SiteOptions {
        let imageFormat: EncodeFormat = format.lowercased() == "webp" ? .webp(quality: quality) : .jpeg(quality: quality)
        let name = URL(fileURLWithPath: source).standardizedFileURL.lastPathComponent
        return SiteOptions(
            sourceDirectory: source, outputDirectory: output, templatesDirectory: templates,
            title: title ?? (name.isEmpty ? "Photos" : name), imageFormat: imageFormat,
            limits: DecodeLimits(maxPixels: maxMegapixels * 1_000_000), jobs: jobs)
    }
}
