import ArgumentParser
import Foundation
import Imaging
import SiteGenerator
import Video

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
        version: CascadeVersion.current,
        subcommands: [Build.self, Serve.self, Init.self, Store.self]
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

    @Option(help: "Make only shard K of N (counted from 0) of the images, into --store, and no site; auto takes K and N from a Slurm job array or a Kubernetes Indexed Job (see the README).")
    var shard: String?

    @Option(help: "What chooses a photo's shard: content (its content hash: each shard reads every photo; copies are made once) or path (each shard reads only its own photos) (default: content).")
    var shardBy: ShardSpec.Assignment?

    @Option(help: "A store of images shared by the shards of a build (a folder on a shared file system): shards make images into it, the final build (with --output) takes them from it.", completion: .directory)
    var store: String?

    @Flag(name: .shortAndLong, help: "Print only problems and errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print every photo made or reused and every file removed.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
        if shardBy != nil, shard == nil { throw ValidationError("--shard-by goes with --shard") }
        if shard != nil {
            guard store != nil else { throw ValidationError("--shard needs --store: a shard writes its images into the store") }
            guard site.output == nil else {
                throw ValidationError("--shard makes images into the store only; build the site afterwards with --output and --store, without --shard")
            }
        }
    }

    func run() async throws {
        StopSignals.install(note: "; the files written are whole, and the next build completes the site")
        var options = try site.siteOptions()
        let reporter = ProgressReporter(verbosity: quiet ? .quiet : verbose ? .verbose : .normal)
        let start = Date()
        if let shard, let store {
            var spec: ShardSpec
            do {
                spec = try ShardSpec(parsing: shard, environment: ProcessInfo.processInfo.environment)
                spec.assignment = shardBy ?? .content
            } catch {
                Interruption.parkIfInterrupted()
                FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
                throw ExitCode.failure
            }
            do {
                let report = try await ShardBuilder(options: options, shard: spec, store: store).build { reporter.handle($0) }
                Interruption.parkIfInterrupted()
                reporter.finish(report, seconds: Date().timeIntervalSince(start))
            } catch {
                Interruption.parkIfInterrupted()
                FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
                throw ExitCode.failure
            }
            return
        }
        options.storeDirectory = store
        do {
            let report = try await SiteBuilder(options: options).build { reporter.handle($0) }
            // Interrupted at the very end: the process ends with the signal's status, not 0.
            Interruption.parkIfInterrupted()
            reporter.finish(report, seconds: Date().timeIntervalSince(start))
        } catch {
            Interruption.parkIfInterrupted()
            FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
            throw ExitCode.failure
        }
    }
}
