import ArgumentParser
import Foundation
import Imaging
import SiteGenerator

@main
struct Cascade: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cascade",
        abstract: "Turn a folder of photos into a static waterfall gallery.",
        discussion: """
            Folders become albums (nested), photos keep their true aspect ratio in a \
            Pinterest-style waterfall, and the site is plain static files you can publish \
            on any web host.
            """,
        subcommands: [Build.self, Serve.self]
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

    @OptionGroup var site: SiteArguments

    @Flag(name: .shortAndLong, help: "Print only problems and errors.")
    var quiet = false

    func run() throws {
        let options = site.siteOptions()
        let quiet = self.quiet
        let start = Date()
        do {
            let report = try SiteBuilder(options: options).build(progress: BuildOutput.progress(quiet: quiet))
            BuildOutput.summary(report, since: start, quiet: quiet)
        } catch {
            FileHandle.standardError.write(Data("cascade: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// What `build` and `serve` print while building.
enum BuildOutput {
    /// Prints the progress of a build; skipped files always go to standard error.
    static func progress(quiet: Bool) -> @Sendable (BuildEvent) -> Void {
        { event in
            switch event {
            case .scanned(let photos, let albums):
                if !quiet { print("Found \(photos) photos in \(albums) albums") }
            case .skipped(let problem):
                FileHandle.standardError.write(Data("skipped \(problem.path): \(problem.reason)\n".utf8))
            case .photoProcessed(let done, let total):
                if !quiet, done == total || done % 50 == 0 { print("Processed \(done)/\(total) photos") }
            }
        }
    }

    /// Prints the line that ends a build (also when quiet, if files were skipped).
    static func summary(_ report: BuildReport, since start: Date, quiet: Bool) {
        let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
        let skipped = report.skipped.isEmpty ? "" : ", \(report.skipped.count) file(s) skipped"
        if !quiet || !report.skipped.isEmpty {
            print("Wrote \(report.photos) photos in \(report.albums) albums (\(report.pagesWritten) pages, \(report.imagesWritten) images) to \(report.outputDirectory) in \(seconds) s\(skipped)")
        }
    }
}
