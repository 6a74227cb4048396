import ArgumentParser
import Foundation
import SiteGenerator

/// `cascade store`: the store of images a sharded build shares.
struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look after the image store of a sharded build (cascade build --shard K/N --store DIR).",
        subcommands: [StoreInfo.self, StoreGC.self]
    )
}

struct StoreInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Say what the store holds, every file read and checked against its recorded hash.")

    @Option(help: "The store's folder.", completion: .directory)
    var store: String

    func run() throws {
        do {
            let summary = try ShardBuilder.summary(store: store)
            var line = "\(summary.root): images of \(summary.entries) photo\(summary.entries == 1 ? "" : "s"), \(summary.files) files, \(Self.size(summary.bytes))"
            line += "; \(summary.sites) site\(summary.sites == 1 ? "" : "s") recorded"
            if summary.damaged > 0 { line += "; \(summary.damaged) damaged (made again when needed, removed by gc)" }
            if summary.temporary > 0 { line += "; \(summary.temporary) being written or left by a killed shard" }
            print(ProgressReporter.printable(line))
            for key in summary.damagedKeys { print(ProgressReporter.printable("damaged: objects/\(key.prefix(2))/\(key)")) }
        } catch {
            FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
            throw ExitCode.failure
        }
    }

    /// `bytes` in MB or GB, one decimal.
    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.1f GB", Double(bytes) / 1e9) : String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}

struct StoreGC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove the images no kept site uses.",
        discussion: """
            Keeps the images the last build of each --keep site took from the store (or made \
            into it) and removes the rest, with what killed shards left behind more than an \
            hour ago. A site no build with this store has recorded is an error, and then \
            nothing is removed. Do not run it while shards of a site that is not built yet \
            are writing into the store: their images would be removed too.
            """
    )

    @Option(help: "The store's folder.", completion: .directory)
    var store: String

    @Option(parsing: .upToNextOption, help: "The sites whose images stay (their output folders).", completion: .directory)
    var keep: [String] = []

    @Flag(help: "Also read every kept entry's files, check them against their recorded hashes, and remove the damaged entries.")
    var verify = false

    func validate() throws {
        if keep.isEmpty { throw ValidationError("name at least one site to keep with --keep SITE (gc never empties a store by itself)") }
    }

    func run() throws {
        do {
            let result = try ShardBuilder.collectGarbage(store: store, keep: keep, verify: verify)
            for key in result.damagedRemoved { print(ProgressReporter.printable("damaged, removed: objects/\(key.prefix(2))/\(key)")) }
            if verify {
                let count = result.damagedRemoved.count
                print("Checked every kept entry's files: \(count) damaged" + (count > 0 ? ", removed (made again by the next build that needs them)" : ""))
            }
            print("Removed the images of \(result.entriesRemoved) photo\(result.entriesRemoved == 1 ? "" : "s") (\(StoreInfo.size(result.bytesFreed))); kept \(result.entriesKept)"
                + (result.temporaryRemoved > 0 ? "; removed \(result.temporaryRemoved) left by killed shards" : ""))
        } catch {
            FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(error.description))\n".utf8))
            throw ExitCode.failure
        }
    }
}
