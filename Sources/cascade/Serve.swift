import Catalog
import ArgumentParser
import Foundation
import PreviewServer
import SiteGenerator
import SourceWatching
import Video

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on 127.0.0.1 and rebuild it when the photos change.",
        discussion: """
            For previewing only: the server listens on 127.0.0.1 (this computer) and serves \
            nothing but the output folder. Open pages reload after every rebuild (the reload \
            script is added by the server, never written into the site). Each rebuild reads \
            cascade.yml again. A rebuild that fails prints the error and the last good site \
            stays served. Stop with Ctrl-C.
            """
    )

    @OptionGroup var site: SiteArguments

    @Option(name: .shortAndLong, help: "The port to listen on (on 127.0.0.1; 0 picks a free one).")
    var port: Int = 8000

    @Flag(name: .shortAndLong, help: "Print only problems, errors and the address.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        let site = self.site
        // A signal stops a rebuild under way as it stops a build, then the server (held reload
        // polls are answered, connections closed) before the process ends.
        let (stopRequests, requestStop) = AsyncStream.makeStream(of: Void.self)
        let stopped = DispatchSemaphore(value: 0)
        StopSignals.install(note: "") { _ in
            requestStop.yield()
            _ = stopped.wait(timeout: .now() + 1.5)
        }
        let options = try site.siteOptions()
        let quiet = self.quiet
        // What the catalog holds, read while the server waits for a change: a rebuild then
        // starts without reading it (when nothing else wrote to it meanwhile).
        let readAhead = CatalogReadAhead()

        // The first snapshot comes before the first build, so edits made during it are seen.
        let watcher: SourceWatcher
        do {
            // A theme folder is watched too: an edited template shows at the next reload.
            watcher = try SourceWatcher(directory: options.sourceDirectory, alsoWatching: options.templatesDirectory.map { [$0] } ?? [])
        } catch {
            Self.fail(error.description)
        }
        // A busy port is reported before the build, not after it.
        do {
            try PreviewServer.probeAddress(host: "127.0.0.1", port: port)
        } catch {
            Self.fail(error.description)
        }

        let report: BuildReport
        switch await Self.build(options, quiet: quiet, readAhead: readAhead) {
        case .success(let built): report = built
        case .failure(let error): Self.fail(error.description)
        }

        let server: PreviewServer
        do {
            server = try PreviewServer(configuration: .init(root: report.outputDirectory, port: port))
        } catch {
            Self.fail(error.description)
        }

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await server.run { listening in
                        print("Serving \(report.outputDirectory) at \(listening.url) (press Ctrl-C to stop)")
                        flushOutput()
                    }
                }
                let reload = server.liveReload
                group.addTask {
                    await watcher.run(afterRebuild: { reload.signal() }) { change in
                        print("\(change.summary): rebuilding")
                        flushOutput()
                        // cascade.yml is read again: a change to it applies to this build.
                        let current: SiteOptions
                        do {
                            current = try site.siteOptions()
                        } catch {
                            Self.printError("cascade.yml has the error above; still serving the last good site")
                            return false
                        }
                        switch await Self.build(current, quiet: quiet, readAhead: readAhead) {
                        case .success: return true
                        case .failure(let error):
                            Self.printError("\(error.description) (still serving the last good site)")
                            return false
                        }
                    }
                }
                group.addTask {
                    for await _ in stopRequests { return }
                }
                // The server only returns or throws when it cannot go on; stop watching then.
                try await group.next()
                group.cancelAll()
            }
        } catch {
            Interruption.parkIfInterrupted()
            Self.fail(String(describing: error))
        }
        stopped.signal()
        Interruption.parkIfInterrupted()
    }

    /// Builds, printing what `build` prints.
    private static func build(_ options: SiteOptions, quiet: Bool, readAhead: CatalogReadAhead) async -> Result<BuildReport, SiteError> {
        let reporter = ProgressReporter(verbosity: quiet ? .quiet : .normal)
        let start = Date()
        do throws(SiteError) {
            let report = try await SiteBuilder(options: options, catalogReadAhead: readAhead).build { reporter.handle($0) }
            Interruption.parkIfInterrupted()
            reporter.finish(report, seconds: Date().timeIntervalSince(start))
            flushOutput()
            return .success(report)
        } catch {
            Interruption.parkIfInterrupted()
            return .failure(error)
        }
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("cascade: \(ProgressReporter.printable(message))\n".utf8))
    }

    private static func fail(_ message: String) -> Never {
        printError(message)
        Serve.exit(withError: ExitCode.failure)
    }
}

/// Writes out what `print` buffered: the output of a server that runs for hours may go to a
/// pipe or a log file, where lines would otherwise wait for a full buffer.
private func flushOutput() {
    fflush(nil)
}
