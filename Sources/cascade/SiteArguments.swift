import ArgumentParser
import Foundation
import GalleryConfig
import Imaging
import SiteGenerator

/// The options every command that builds the site shares (`build`, `serve`).
struct SiteArguments: ParsableArguments {
    @Argument(help: "The photo folder.", completion: .directory)
    var source: String

    @Option(name: .shortAndLong, help: "Where to write the site (must not overlap the photo folder; default: _site).", completion: .directory)
    var output: String?

    @Option(help: "The site's title (default: the photo folder's name).")
    var title: String?

    @Option(help: "A theme folder whose files override the default theme (templates/ layout).", completion: .directory)
    var templates: String?

    @Option(help: "Image formats of the generated images: jpeg, webp or avif, or several separated by commas (jpeg,avif): then the page offers each browser the best it supports (default: cascade.yml's, else jpeg).")
    var format: ImageFormatList?

    @Option(help: "Image quality, 1-100 (default: cascade.yml's, else 82).")
    var quality: Int?

    @Option(help: "Refuse photos larger than this many megapixels, before decoding (default: cascade.yml's, else 200).")
    var maxMegapixels: Int?

    @Option(help: "Order of photos and albums: date, date-desc, name or name-desc (default: cascade.yml's, else date).")
    var sort: AlbumSortOrder?

    @Option(help: "The language of the pages, a BCP 47 tag: fr, de, pt-BR, zh-Hans, ar (default: cascade.yml's, else en).")
    var language: String?

    @Flag(help: "Keep the photos' GPS positions in the published JPEG images (they are stripped by default).")
    var keepGPS = false

    @Option(help: "How many photos to process at once (default: one per core).")
    var jobs: Int = 0

    @Option(help: "The catalog of what earlier builds made (default: in $XDG_CACHE_HOME/cascade/catalogs/, by the output folder).", completion: .file())
    var catalog: String?

    @Flag(help: "Fail at once, rather than wait, while another build of the same output folder runs.")
    var noWait = false

    func validate() throws {
        if let quality, !SettingRange.quality.contains(quality) {
            throw ValidationError("--quality must be \(SettingRange.text(SettingRange.quality))")
        }
        if let maxMegapixels, !SettingRange.maxMegapixels.contains(maxMegapixels) {
            throw ValidationError("--max-megapixels must be \(SettingRange.text(SettingRange.maxMegapixels))")
        }
        guard jobs >= 0 else { throw ValidationError("--jobs cannot be negative") }
        if let language, LanguageTag(language) == nil {
            throw ValidationError("--language must be a BCP 47 language tag such as fr, de, pt-BR, zh-Hans or ar, not \"\(language)\"")
        }
    }

    /// The build's options: `cascade.yml` in the photo folder (when there is one), with the
    /// command line's options taking precedence. A bad configuration file is reported (file,
    /// line, key, reason) and ends the command.
    func siteOptions() throws -> SiteOptions {
        let configuration: SiteConfiguration
        do {
            configuration = try SiteConfiguration.load(folder: source)
        } catch {
            FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
            throw ExitCode.failure
        }
        let name = URL(fileURLWithPath: source).standardizedFileURL.lastPathComponent
        var options = SiteOptions(
            configuration: configuration, sourceDirectory: source, outputDirectory: output ?? "_site",
            title: name.isEmpty ? "Photos" : name, jobs: jobs)
        if let title { options.title = title }
        options.templatesDirectory = templates
        // --format and --quality each override cascade.yml's.
        let formats = SiteOptions.encodeFormats(format?.formats ?? configuration.formats, quality: quality ?? configuration.quality)
        options.imageFormat = formats.image
        options.sourceFormats = formats.sources
        if let maxMegapixels { options.limits = DecodeLimits(maxPixels: maxMegapixels * 1_000_000) }
        if let sort { options.sort = sort }
        if keepGPS { options.keepGPS = true }
        if let language, let tag = LanguageTag(language) { options.language = tag }
        options.catalogPath = catalog.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        options.waitForLock = !noWait
        return options
    }
}
