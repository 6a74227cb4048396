import Foundation
import SiteGenerator
import Synchronization

/// Prints a build's progress: a bar with count, rate and ETA on a terminal, plain lines
/// otherwise; problems always go to standard error.
final class ProgressReporter: Sendable {
    enum Verbosity: Sendable { case quiet, normal, verbose }

    private struct State {
        var total = 0
        var done = 0
        /// The work done and in all, each item weighed by its cost (a video by its duration);
        /// 0 when the build does not weigh its items.
        var units = 0.0
        var totalUnits = 0.0
        var reused = 0
        /// When the first item of the work was finished, and the items and share done then:
        /// the rate and ETA go by the pace since.
        var firstDone: (time: Date, done: Int, fraction: Double)?
        var lastDraw = Date.distantPast
        var lastLine = Date.distantPast
        var barShown = false
        /// Before each progress line: which shard it is, for a sharded build's logs.
        var label = ""
    }

    private let verbosity: Verbosity
    private let terminal: Bool
    private let state = Mutex(State())

    /// `terminal`: whether standard output is a terminal (then a bar is drawn in place).
    init(verbosity: Verbosity, terminal: Bool = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb") {
        self.verbosity = verbosity
        self.terminal = terminal
    }

    func handle(_ event: BuildEvent) {
        state.withLock { state in
            switch event {
            case .scanned(let photos, let albums):
                state.total = photos
                state.firstDone = nil
                say("Found \(photos) photo\(photos == 1 ? "" : "s") in \(albums) album\(albums == 1 ? "" : "s")", &state)
            case .shard(let index, let count, let photos, let all):
                state.total = photos
                state.firstDone = nil
                state.label = "shard \(index)/\(count): "
                say("Shard \(index)/\(count): \(photos) of the \(all) photo\(all == 1 ? "" : "s") are this shard's", &state)
            case .skipped(let problem):
                report("skipped \(problem.path): \(problem.reason)", &state)
            case .warning(let text):
                report("warning: \(text)", &state)
            case .stage(let name, let seconds, let processorSeconds):
                if verbosity == .verbose { say(String(format: "%@: %.2f s (%.2f processor s)", name, seconds, processorSeconds), &state) }
            case .log(let text):
                if verbosity == .verbose { say(text, &state) }
            case .removed(let path):
                if verbosity == .verbose { say("removed \(path) (no longer part of the site)", &state) }
            case .photoDone(let done, let total, let path, let reused, let units, let totalUnits):
                state.done = done
                state.total = total
                state.units = units
                state.totalUnits = totalUnits
                if reused { state.reused += 1 }
                if state.firstDone == nil { state.firstDone = (Date(), done, fraction(state)) }
                if verbosity == .verbose { say("\(reused ? "reused" : "made") \(path)", &state) }
                guard verbosity != .quiet else { return }
                let now = Date()
                if terminal {
                    if done == total || now.timeIntervalSince(state.lastDraw) >= 0.1 {
                        state.lastDraw = now
                        draw(&state, now: now)
                    }
                } else if verbosity == .normal, done == total || now.timeIntervalSince(state.lastLine) >= 5 {
                    state.lastLine = now
                    print("\(state.label)Processed \(done)/\(total) photos\(rateAndETA(state, now: now))")
                }
            }
        }
    }

    /// Clears the bar and prints the summary.
    func finish(_ report: BuildReport, seconds: Double) {
        state.withLock { state in
            clearBar(&state)
            guard verbosity != .quiet || !report.skipped.isEmpty else { return }
            let stills = report.photos - report.videos
            let items = report.videos == 0 ? "\(stills) photo\(stills == 1 ? "" : "s")"
                : "\(stills) photo\(stills == 1 ? "" : "s") and \(report.videos) video\(report.videos == 1 ? "" : "s")"
            var parts = ["\(items) in \(report.albums) album\(report.albums == 1 ? "" : "s")"]
            if report.upToDate {
                parts.append("up to date: nothing changed since the last build")
            } else {
                parts.append("images made for \(report.photosMade), reused for \(report.photosReused)"
                    + (report.photosFromStore > 0 ? " (\(report.photosFromStore) from the store)" : ""))
                parts.append("\(report.pagesWritten) of \(report.pages) pages written")
            }
            if report.filesRemoved > 0 { parts.append("\(report.filesRemoved) stale file\(report.filesRemoved == 1 ? "" : "s") removed") }
            if !report.skipped.isEmpty { parts.append("\(report.skipped.count) file\(report.skipped.count == 1 ? "" : "s") skipped") }
            print("Built \(report.outputDirectory) in \(String(format: "%.1f", seconds)) s: " + parts.joined(separator: "; "))
        }
    }

    /// Clears the bar and prints a shard's summary.
    func finish(_ report: ShardReport, seconds: Double) {
        state.withLock { state in
            clearBar(&state)
            guard verbosity != .quiet || !report.skipped.isEmpty else { return }
            var parts = ["\(report.photosInShard) of \(report.photos) photos", "images made for \(report.photosMade), already in the store for \(report.photosAlreadyStored)"]
            if report.sidecars > 0 { parts.append("\(report.sidecarsRead) of \(report.sidecars) sidecar\(report.sidecars == 1 ? "" : "s") read") }
            if !report.skipped.isEmpty { parts.append("\(report.skipped.count) file\(report.skipped.count == 1 ? "" : "s") skipped") }
            print("Shard \(report.shard) into \(report.store) in \(String(format: "%.1f", seconds)) s: " + parts.joined(separator: "; "))
        }
    }

    private func say(_ line: String, _ state: inout State) {
        guard verbosity != .quiet else { return }
        clearBar(&state)
        print(Self.printable(line))
    }

    private func report(_ line: String, _ state: inout State) {
        clearBar(&state)
        FileHandle.standardError.write(Data((Self.printable(line) + "\n").utf8))
    }

    /// `text` with control and bidirectional-formatting characters written as `\u{…}`: a file
    /// name cannot move the cursor, clear the screen, start a new line or reverse the text.
    static func printable(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .format || category == .lineSeparator || category == .paragraphSeparator {
                output += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private func clearBar(_ state: inout State) {
        guard state.barShown else { return }
        FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
        state.barShown = false
    }

    private func draw(_ state: inout State, now: Date) {
        let width = 28
        let filled = Int(Double(width) * fraction(state))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardOutput.write(Data("\r\u{1B}[K\(state.label)[\(bar)] \(state.done)/\(state.total) photos\(rateAndETA(state, now: now))".utf8))
        state.barShown = true
    }

    /// The share of the work done: a video counts by its duration (``ProgressWeight``).
    private func fraction(_ state: State) -> Double {
        ProgressWeight.fraction(done: state.done, total: state.total, units: state.units, totalUnits: state.totalUnits)
    }

    /// The items per second and the time left, at the pace since the first item was finished.
    private func rateAndETA(_ state: State, now: Date) -> String {
        guard let first = state.firstDone,
            let pace = ProgressWeight.pace(
                elapsed: now.timeIntervalSince(first.time), since: (first.done, first.fraction),
                done: state.done, fraction: fraction(state))
        else { return "" }
        let eta = state.done < state.total ? pace.remaining.map { ", ETA \(Self.duration($0))" } ?? "" : ""
        return String(format: " (%.1f/s%@)", pace.rate, eta)
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600)h\(String(format: "%02d", total / 60 % 60))m" }
        if total >= 60 { return "\(total / 60)m\(String(format: "%02d", total % 60))s" }
        return "\(total)s"
    }
}
