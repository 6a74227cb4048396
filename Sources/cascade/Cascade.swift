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
        subcommands: [Build.self, Serve.self, Init.self]
    )
}

struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site from a photo folder.",
        discussion: """
            The photo folder is only read, never written to. Files that are not usable photos \
            are skipped with a message naming the file and the reason; the build goes on with \
            the rest. Videos are published too when ffmpeg and ffprobe are on the PATH (their \
            settings are in cascade.yml: video_max_height, video_quality, video_max_duration). \
            A rebuild makes images only for photos that changed, and deletes the \
            files an earlier build made that the site no longer needs (never other files). \
            Exit status 0 means the site was written.
            """
    )

    @OptionGroup var site: SiteArguments

    @Flag(name: .shortAndLong, help: "Print only problems and errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print every photo made or reused and every file removed.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
    }

    func run() async throws {
        let options = try site.siteOptions()
        let reporter = ProgressReporter(verbosity: quiet ? .quiet : verbose ? .verbose : .normal)
        let start = Date()
        do {
            let report = try await SiteBuilder(options: options).build { reporter.handle($0) }
            reporter.finish(report, seconds: Date().timeIntervalSince(start))
        } catch {
            FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
            throw ExitCode.failure
        }
    }
}
