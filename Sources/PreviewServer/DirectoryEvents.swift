import DirectoryEntries
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells when something may have changed below some folders, without looking at them: an
/// inotify watch on every folder (Linux). A thread of its own waits on the inotify descriptor
/// and reports each burst of events as one value of ``events``; nothing runs while nothing
/// changes. Names are not reported: the watcher compares snapshots to see what changed, and
/// hidden files wake it but change nothing.
///
/// `nil` from ``init(directories:)`` where inotify is not available; ``watchAll()`` answers
/// `false` when a folder could not be watched (gone, or the system's watch limit reached), so
/// the watcher polls instead.
final class DirectoryEvents: Sendable {
    /// One value per burst of events (buffered to one: several bursts read as one).
    let events: AsyncStream<Void>
    private let directories: [String]
    private let descriptor: Descriptor
    private let stopping = Atomic<Bool>(false)
    /// When the last burst of events was read (``now()``); 0 before the first.
    private let lastBurst = Atomic<UInt64>(0)

    /// When the last burst of events was read, on the clock of ``now()``: a folder with no
    /// event since a moment has not changed since then (events are read as they come).
    var lastEvent: UInt64 { lastBurst.load(ordering: .acquiring) }

    /// The monotonic clock's time in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    #if os(Linux)
    init?(directories: [String], meter: CPUMeter = CPUMeter()) {
        let raw = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard raw >= 0 else { return nil }
        let descriptor = Descriptor(owning: raw)
        self.descriptor = descriptor
        self.directories = directories
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        events = stream
        let thread = Thread { [descriptor, weak self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while self?.stopping.load(ordering: .acquiring) == false {
                var entry = pollfd(fd: descriptor.raw, events: Int16(POLLIN), revents: 0)
                let start = CPUMeter.threadTime()
                defer { meter.add(nanoseconds: CPUMeter.threadTime() - start) }
                guard poll(&entry, 1, 500) > 0 else { continue }
                // Read everything there is (the descriptor does not block).
                while buffer.withUnsafeMutableBytes({ read(descriptor.raw, $0.baseAddress, $0.count) }) > 0 {}
                self?.lastBurst.store(Self.now(), ordering: .releasing)
                continuation.yield()
            }
            continuation.finish()
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Adds a watch to every folder below the watched ones (following links, skipping hidden
    /// names, as ``SourceSnapshot`` does); folders already watched keep their watch. Call it
    /// before taking a snapshot, so that any change after the snapshot wakes the watcher.
    func watchAll() -> Bool {
        var visited = Set<[UInt64]>()
        return directories.allSatisfy { directory in
            // A watched folder that is gone: poll until it is back (no event would tell).
            var status = stat()
            guard stat(directory, &status) == 0 else { return false }
            return watch(directory, visited: &visited)
        }
    }

    private func watch(_ directory: String, visited: inout Set<[UInt64]>) -> Bool {
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
            visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted
        else { return true }  // gone meanwhile, or seen
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO)
            | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(descriptor.raw, directory, mask) >= 0 else { return false }
        // The sub-folders, by the kinds `readdir` gives: only a link or an entry of unknown
        // kind is asked about (a folder of 1,000 photos took 1,000 `stat`s on every change).
        guard let folder = opendir(directory) else { return true }
        var subfolders: [String] = []
        while let entry = readdir(folder) {
            let name = String(decoding: directoryEntryName(entry), as: UTF8.self)
            guard !name.hasPrefix(".") else { continue }
            let kind = directoryEntryType(entry)
            if kind == UInt8(DT_DIR) {
                subfolders.append(directory + "/" + name)
            } else if kind == UInt8(DT_LNK) || kind == UInt8(DT_UNKNOWN) {
                var child = stat()
                let path = directory + "/" + name
                if stat(path, &child) == 0, child.st_mode & S_IFMT == S_IFDIR { subfolders.append(path) }
            }
        }
        closedir(folder)
        for path in subfolders {
            guard watch(path, visited: &visited) else { return false }
        }
        return true
    }
    #else
    init?(directories: [String], meter: CPUMeter = CPUMeter()) { return nil }
    func watchAll() -> Bool { false }
    var lastEvent: UInt64 { 0 }
    static func now() -> UInt64 { 0 }
    #endif

    /// Stops the thread (within half a second).
    func stop() { stopping.store(true, ordering: .releasing) }

    deinit { stop() }
}
