import Catalog
import Gallery
import Synchronization

extension LastBuild {
    /// The report of a build that found the site up to date: every photo's images reused,
    /// nothing written or removed. The scan's events are sent to `progress` again first.
    func replay(output: String, progress: @Sendable (BuildEvent) -> Void) -> BuildReport {
        progress(.scanned(photos: scannedPhotos, albums: scannedAlbums))
        var skipped: [ScanProblem] = []
        for event in events {
            switch event {
            case .warning(let text): progress(.warning(text))
            case .skipped(let path, let reason, let line):
                let problem = ScanProblem(path: path, reason: reason, line: line)
                skipped.append(problem)
                progress(.skipped(problem))
            }
        }
        var report = BuildReport(
            albums: albums, photos: photos, photosMade: 0, photosReused: photos, imagesWritten: 0,
            pagesWritten: 0, pages: pages, filesRemoved: 0, skipped: skipped.sorted { $0.path < $1.path },
            outputDirectory: output)
        report.videos = videos
        report.upToDate = true
        return report
    }
}

/// Keeps the warnings and skipped files a build's scan reports, for its ``LastBuild``.
final class ScanEventRecorder: Sendable {
    private let state = Mutex((events: [LastBuild.Event](), recording: true))

    /// Keeps `event` if it is a warning or a skipped file and ``stop()`` was not called.
    func record(_ event: BuildEvent) {
        state.withLock { state in
            guard state.recording else { return }
            switch event {
            case .warning(let text): state.events.append(.warning(text))
            case .skipped(let problem): state.events.append(.skipped(path: problem.path, reason: problem.reason, line: problem.line))
            default: break
            }
        }
    }

    /// Stops keeping events (the scan is over: what later stages report is not kept).
    func stop() {
        state.withLock { $0.recording = false }
    }

    /// What was kept.
    var events: [LastBuild.Event] {
        state.withLock { $0.events }
    }
}
