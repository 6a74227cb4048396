import ArgumentParser
import Foundation
import Imaging
import SiteGenerator

@main
struct Cascade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cascade",
        abstract: "Turn a folder of photos into a static waterfall gallery.",
        discussion: """
            Folders become albums (nested), photos keep their true aspect ratio in a \
            Pinterest-style waterfall, and the site is plain static files you can publish \
            on any web host.
            """,
        subcommands: [Build.self]
    )
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site from a photo folder.",
        discussion: """
            The photo folder is only read, never written to. Files that are not usable photos \
            are skipped with a message naming the file and the reason; the build goes on with \
            the rest. Exit status 0 means the site was written.
            """
    )

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

    @Flag(name: .shortAndLong, help: "Print only problems and errors.")
    var quiet = false

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive") }
        guard jobs >= 0 else { throw ValidationError("--jobs cannot be negative") }
        guard ["jpeg", "jpg", "webp"].contains(format.lowercased()) else {
            throw ValidationError("--format must be jpeg or webp")
        }
    }

    func run() throws {
        let imageFormat: EncodeFormat = format.lowercased() == "webp" ? .webp(quality: quality) : .jpeg(quality: quality)
        let name = URL(fileURLWithPath: source).standardizedFileURL.lastPathComponent
        let options = SiteOptions(
            sourceDirectory: source, outputDirectory: output, templatesDirectory: templates,
            title: title ?? (name.isEmpty ? "Photos" : name), imageFormat: imageFormat,
            limits: DecodeLimits(maxPixels: maxMegapixels * 1_000_000), jobs: jobs)
        let quiet = self.quiet
        let start = Date()
        do {
            let report = try SiteBuilder(options: options).build { event in
                switch event {
                case .scanned(let photos, let albums):
                    if !quiet { print("Found \(photos) photos in \(albums) albums") }
                case .skipped(let problem):
                    FileHandle.standardError.write(Data("skipped \(problem.path): \(problem.reason)\n".utf8))
                case .photoProcessed(let done, let total):
                    if !quiet, done == total || done % 50 == 0 { print("Processed \(done)/\(total) photos") }
                }
            }
            let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
            let skipped = report.skipped.isEmpty ? "" : ", \(report.skipped.count) file(s) skipped"
            if !quiet || !report.skipped.isEmpty {
                print("Wrote \(report.photos) photos in \(report.albums) albums (\(report.pagesWritten) pages, \(report.imagesWritten) images) to \(report.outputDirectory) in \(seconds) s\(skipped)")
            }
        } catch {
            FileHandle.standardError.write(Data("cascade: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}
