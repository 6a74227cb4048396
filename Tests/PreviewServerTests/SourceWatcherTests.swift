import Foundation
import Synchronization
import Testing
import TestSupport

import PreviewServer
@testable import SourceWatching

/// Runs a fast watcher on `folder`, does `action`, and returns the first change it reports
/// (`nil` if none within `timeout`), and whether the reload channel was signalled.
func firstChange(
    in folder: TemporaryFolder, alsoWatching others: [String] = [], rebuildSucceeds: Bool = true,
    timeout: Duration = .seconds(20), after action: () throws -> Void
) async throws -> (change: SourceChange?, reloaded: Bool) {
    let watcher = try SourceWatcher(directory: folder.path, alsoWatching: others, interval: .milliseconds(40), quietPeriod: .milliseconds(40))
    let reload = LiveReload()
    let before = reload.version
    let (changes, continuation) = AsyncStream.makeStream(of: SourceChange.self)
    let task = Task {
        await watcher.run(afterRebuild: { reload.signal() }) { change in
            continuation.yield(change)
            return rebuildSucceeds
        }
    }
    try action()
    let change = await firstValue(within: timeout) { await changes.first { _ in true } }
    // Once `run` has returned, a rebuild that succeeded has had its `afterRebuild` (the
    // watcher calls it before it looks at cancellation): no time to wait for it.
    task.cancel()
    await task.value
    continuation.finish()
    return (change, reload.version != before)
}

@Suite struct SourceWatcherTests {
    @Test func aNewFileIsSeenAndTheReloadSignalled() async throws {
        let folder = try TemporaryFolder()
        try folder.write("album/a.jpg", "a")
        let (change, reloaded) = try await firstChange(in: folder) {
            try folder.write("album/b.jpg", "bb")
        }
        #expect(change?.added == ["album/b.jpg"])
        #expect(change?.modified == [])
        #expect(change?.removed == [])
        #expect(reloaded)
    }

    @Test func aChangeInAFurtherFolderIsSeenUnderItsPath() async throws {
        let folder = try TemporaryFolder()
        let theme = try TemporaryFolder()
        try folder.write("a.jpg", "a")
        try theme.write("album.mustache", "<html>")
        let (change, reloaded) = try await firstChange(in: folder, alsoWatching: [theme.path]) {
            try theme.write("photo.mustache", "<html>")
        }
        #expect(change?.added == [theme.path + "/photo.mustache"])
        #expect(reloaded)
        #expect(throws: SourceWatcherError.self) {
            try SourceWatcher(directory: folder.path, alsoWatching: ["/nonexistent/theme"])
        }
    }

    @Test func aModifiedFileIsSeen() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.jpg", "first")
        // Lets time pass for a later modification time (a slow machine only makes it later).
        try await Task.sleep(for: .milliseconds(50))
        let (change, _) = try await firstChange(in: folder) {
            try folder.write("a.jpg", "other")  // same size: only the time tells
        }
        #expect(change?.modified == ["a.jpg"])
        #expect(change?.added == [])
    }

    @Test func aDeletedFileIsSeen() async throws {
        let folder = try TemporaryFolder()
        try folder.write("album/a.jpg", "a")
        try folder.write("album/b.jpg", "b")
        let (change, _) = try await firstChange(in: folder) {
            try folder.remove("album/a.jpg")
        }
        #expect(change?.removed == ["album/a.jpg"])
        #expect(change?.summary == "album/a.jpg removed")
    }

    /// The hidden file is written, then a visible one: the first rebuild has the visible one
    /// alone. (Waiting a while for no change would pass untested when a loaded machine's
    /// watcher had not looked yet; the visible file shows that it has.)
    @Test(arguments: [".DS_Store", ".a.jpg.swp", ".hidden/photo.jpg", "album/.thumbs/photo.jpg", "album/.tmp"])
    func hiddenFilesAreIgnored(path: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write("album/a.jpg", "a")
        try folder.makeFolder(".hidden")
        try folder.makeFolder("album/.thumbs")
        let (change, reloaded) = try await firstChange(in: folder) {
            try folder.write(path, "hidden")
            try folder.write("album/seen.jpg", "visible")
        }
        #expect(change?.added == ["album/seen.jpg"])
        #expect(change?.modified == [])
        #expect(change?.removed == [])
        #expect(reloaded)
    }

    @Test func aFailedRebuildDoesNotReload() async throws {
        let folder = try TemporaryFolder()
        let (change, reloaded) = try await firstChange(in: folder, rebuildSucceeds: false) {
            try folder.write("a.jpg", "a")
        }
        #expect(change?.added == ["a.jpg"])
        #expect(!reloaded)
    }

    /// Changes made while the watcher waits for the folder to settle join the change it saw:
    /// one rebuild for the lot. The quiet period is held open until the other files are
    /// written, so no machine's speed decides what falls inside it.
    @Test func manyChangesAtOnceGiveOneRebuild() async throws {
        let folder = try TemporaryFolder()
        var watcher = try SourceWatcher(directory: folder.path, interval: .milliseconds(40), quietPeriod: .milliseconds(40))
        let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        let (released, releasedContinuation) = AsyncStream.makeStream(of: Void.self)
        let pauses = Atomic<Int>(0)
        watcher.waitQuietPeriod = { period in
            // The first quiet period lasts until the test says; later ones are as usual.
            if pauses.add(1, ordering: .relaxed).oldValue == 0 {
                enteredContinuation.yield()
                for await _ in released { break }
            }
            try await Task.sleep(for: period)
        }
        let (changes, continuation) = AsyncStream.makeStream(of: SourceChange.self)
        let task = Task { [watcher] in
            await watcher.run { change in
                continuation.yield(change)
                return true
            }
        }
        try folder.write("photo-0.jpg", "x")
        // The watcher has seen the first file and waits for the folder to settle.
        let waiting = await firstValue(within: .seconds(60)) { await entered.first { _ in true } }
        #expect(waiting != nil, "the watcher never began to wait for the folder to settle")
        for index in 1..<5 {
            try folder.write("photo-\(index).jpg", "x")
        }
        releasedContinuation.yield()
        let first = await firstValue(within: .seconds(60)) { await changes.first { _ in true } }
        task.cancel()
        await task.value
        continuation.finish()
        #expect(first?.added.sorted() == (0..<5).map { "photo-\($0).jpg" })
    }

    @Test func snapshotsFollowLinksOnceAndSkipHiddenNames() throws {
        let folder = try TemporaryFolder()
        try folder.write("album/a.jpg", "a")
        try folder.write(".git/config", "x")
        try folder.link("album/loop", to: "..")  // a cycle
        let snapshot = try SourceSnapshot.take(of: folder.path)
        #expect(snapshot.entries["album/a.jpg"]?.size == 1)
        #expect(snapshot.entries.keys.allSatisfy { !$0.contains(".git") })
        #expect(snapshot.entries["album/loop"]?.isDirectory == true)
        #expect(snapshot.entries["album/loop/album/a.jpg"] == nil)
    }

    @Test func anUnreadableFolderIsReportedByName() {
        #expect(throws: SourceWatcherError.unreadable(path: "/nonexistent/photos", reason: "No such file or directory")) {
            try SourceWatcher(directory: "/nonexistent/photos")
        }
        #expect(throws: SourceWatcherError.self) {
            try SourceWatcher(directory: "/tmp", interval: .zero)
        }
    }
}

@Suite struct SourceWatcherFallbackTests {
    /// A watched folder removed and made again is seen again (inotify loses its watch with
    /// the folder; the watcher polls until the folder is back, then watches it anew).
    @Test func aFolderRemovedAndMadeAgainIsStillWatched() async throws {
        let parent = try TemporaryFolder()
        try parent.write("photos/a.jpg", "a")
        let path = parent.path + "/photos"
        let watcher = try RecordingWatcher(path)
        // The folder is watched before it goes, so that its watch really is lost.
        try await watcher.firstLook()
        try FileManager.default.removeItem(atPath: path)
        #expect(try await watcher.change(1)?.removed == ["a.jpg"])
        try parent.write("photos/b.jpg", "b")
        #expect(try await watcher.change(2)?.added == ["b.jpg"])
        await watcher.stop()
    }
}

/// The changes a watcher reported, in order.
final class SeenChanges: Sendable {
    let list = Mutex<[SourceChange]>([])
}

/// A fast watcher of the folder at a path that records every change it reports.
struct RecordingWatcher {
    private let seen = SeenChanges()
    private let task: Task<Void, Never>
    /// Counts the watcher's looks at the folders (its meter).
    private let meter = CPUMeter()

    /// Starts watching `path` (polling every 40 ms where it must, quiet for 40 ms).
    init(_ path: String) throws {
        var watcher = try SourceWatcher(directory: path, interval: .milliseconds(40), quietPeriod: .milliseconds(40))
        watcher.meter = meter
        let seen = self.seen
        task = Task {
            await watcher.run { change in
                seen.list.withLock { $0.append(change) }
                return true
            }
        }
    }

    /// Waits until the watcher has taken its first look: its watches are set (with events)
    /// and a change from now on is a change it sees happen.
    func firstLook(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await waitUntil("the watcher's first look", sourceLocation: sourceLocation) { meter.pieces >= 1 }
    }

    /// Waits for the `count`th change (throws when it does not come within 30 s).
    func change(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SourceChange? {
        try await waitUntil("change \(count) to be reported", sourceLocation: sourceLocation) {
            seen.list.withLock { $0.count } >= count
        }
        return seen.list.withLock { $0[count - 1] }
    }

    /// Stops watching.
    func stop() async {
        task.cancel()
        await task.value
    }
}
