import Support
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells when something may have changed below some folders, and in which folders, without
/// looking at them: an inotify watch on every folder (Linux). A thread of its own waits on the
/// inotify descriptor and reports each burst of events as one value of ``events``; nothing runs
/// while nothing changes. The folders whose entries the events name (hidden names left out)
/// are gathered for ``takeChangedFolders()``, so that the watcher reads those folders again and
/// not the whole tree.
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
    /// The watched folders' paths by watch, and what the events since the last
    /// ``takeChangedFolders()`` named.
    private let named = Mutex(Named())

    /// What the events named since the folders were last taken.
    private struct Named {
        /// Each watch's folder, by the path it was watched at.
        var folders: [Int32: String] = [:]
        /// The folders whose entries events named.
        var changed: Set<String> = []
        /// Whether events may have been missed: the kernel's queue overflowed, an event came
        /// from a watch of no known folder, or a watched folder itself went away.
        var lost = false
    }

    /// When the last burst of events was read, on the clock of ``now()``: a folder with no
    /// event since a moment has not changed since then (events are read as they come).
    var lastEvent: UInt64 { lastBurst.load(ordering: .acquiring) }

    /// The monotonic clock's time in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The folders (by the paths they were watched at) whose entries events named since the
    /// last call, which starts gathering anew; nil when events may have been missed since then
    /// (only a look at every folder will tell what changed).
    func takeChangedFolders() -> Set<String>? {
        named.withLock { named in
            defer {
                named.changed = []
                named.lost = false
            }
            return named.lost ? nil : named.changed
        }
    }

    #if os(Linux)
    init?(directories: [String], meter: any WatchingMeter = Unmeasured()) {
        let raw = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard raw >= 0 else { return nil }
        let descriptor = Descriptor(owning: raw)
        self.descriptor = descriptor
        self.directories = directories
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        events = stream
        let roots = Set(directories)
        let thread = Thread { [descriptor, weak self] in
            // (Large enough for any event: its header and a name of up to 255 bytes and a NUL.)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while self?.stopping.load(ordering: .acquiring) == false {
                meter.measureWaiting {
                    var entry = pollfd(fd: descriptor.raw, events: Int16(POLLIN), revents: 0)
                    guard poll(&entry, 1, 500) > 0 else { return }
                    // Read everything there is (the descriptor does not block); a read gives whole events.
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(descriptor.raw, $0.baseAddress, $0.count) }
                        guard count > 0, let self else { break }
                        buffer.withUnsafeBytes { bytes in
                            self.named.withLock { Self.note(UnsafeRawBufferPointer(rebasing: bytes[..<count]), in: &$0, roots: roots) }
                        }
                    }
                    self?.lastBurst.store(Self.now(), ordering: .releasing)
                    continuation.yield()
                }
            }
            continuation.finish()
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Notes the folders that the inotify events in `bytes` name.
    private static func note(_ bytes: UnsafeRawBufferPointer, in named: inout Named, roots: Set<String>) {
        // Each event: the watch (Int32), the mask, a cookie, the name's length (UInt32s), then
        // the name, padded with NULs.
        var offset = 0
        while offset + 16 <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let name = offset + 16
            offset = name + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                named.lost = true
            } else if mask & UInt32(IN_IGNORED) != 0 {
                named.folders[watch] = nil  // the watch is gone with its folder
            } else if let folder = named.folders[watch] {
                if length > 0 && name < bytes.count {
                    // (A hidden name changes nothing the watcher records.)
                    if bytes[name] != UInt8(ascii: ".") { named.changed.insert(folder) }
                } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 && roots.contains(folder) {
                    // A watched folder itself went away (a folder below it is named by its parent's event).
                    named.lost = true
                }
            } else {
                named.lost = true
            }
        }
    }

    /// Watches the folder at `path` (not the folders in it); false when it cannot be watched.
    func watch(folder path: String) -> Bool {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO)
            | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        // (The watch is known before any of its events is read: they are read under the same lock.)
        return named.withLock { named in
            let watch = inotify_add_watch(descriptor.raw, path, mask)
            guard watch >= 0 else { return false }
            named.folders[watch] = path
            return true
        }
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
        guard watch(folder: directory) else { return false }
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
    init?(directories: [String], meter: any WatchingMeter = Unmeasured()) { return nil }
    func watchAll() -> Bool { false }
    func watch(folder path: String) -> Bool { false }
    var lastEvent: UInt64 { 0 }
    static func now() -> UInt64 { 0 }
    #endif

    /// Stops the thread (within half a second).
    func stop() { stopping.store(true, ordering: .releasing) }

    deinit { stop() }
}
