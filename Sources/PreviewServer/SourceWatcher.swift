import DirectoryEntries
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of a folder tree at one moment: every path with its size, modification time and
/// inode. Hidden files and folders (names starting with `.`) are left out, and so is everything
/// inside a hidden folder. Symbolic links are followed; a folder reached twice is listed once.
public struct SourceSnapshot: Sendable, Equatable {
    /// What is recorded of one file or folder.
    public struct Entry: Sendable, Equatable {
        /// Size in bytes (0 for folders).
        public var size: Int
        /// Modification time in nanoseconds since 1970 (0 for folders: their time changes
        /// whenever a hidden file inside them is written, which is no change of the source).
        public var modified: Int64
        /// The inode, so a file replaced by another of the same size and time is seen too.
        public var inode: UInt64
        /// Whether it is a folder.
        public var isDirectory: Bool
    }

    /// Paths relative to the folder, `/`-separated, to what was recorded of them.
    public private(set) var entries: [String: Entry]

    /// An empty snapshot (a folder that is gone).
    public init() { entries = [:] }

    /// Adds the entries of `other` with their paths under `prefix` (a folder's name, no slash).
    mutating func add(_ other: SourceSnapshot, under prefix: String) {
        for (path, entry) in other.entries { entries[prefix + "/" + path] = entry }
    }

    /// Records the tree below `directory`.
    /// - Throws: ``SourceWatcherError/unreadable(path:reason:)`` when the folder itself cannot
    ///   be listed; unreadable sub-folders are recorded without their contents.
    public static func take(of directory: String) throws(SourceWatcherError) -> SourceSnapshot {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw .unreadable(path: directory, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .unreadable(path: directory, reason: "it is not a folder") }
        guard (try? FileManager.default.contentsOfDirectory(atPath: directory)) != nil else {
            throw .unreadable(path: directory, reason: "the folder cannot be listed")
        }
        var snapshot = SourceSnapshot()
        var visited: Set<[UInt64]> = [[UInt64(status.st_dev), UInt64(status.st_ino)]]
        snapshot.walk(directory, relative: "", visited: &visited)
        return snapshot
    }

    private mutating func walk(_ directory: String, relative: String, visited: inout Set<[UInt64]>) {
        // Each entry examined relative to the open folder (`fstatat`, following links as
        // `stat` does), without resolving the folder's path again for each of its files.
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        while let item = readdir(folder) {
            let bytes = directoryEntryName(item)
            guard bytes.first != UInt8(ascii: ".") else { continue }  // hidden, and `.` and `..`
            let name = String(decoding: bytes, as: UTF8.self)
            let path = directory + "/" + name
            let key = relative.isEmpty ? name : relative + "/" + name
            // (Gone meanwhile, or a dangling link: left out.)
            guard let status = directoryEntryStatus(bytes, in: folder, followingLinks: true) else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                entries[key] = Entry(size: 0, modified: 0, inode: UInt64(status.st_ino), isDirectory: true)
                if visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted {
                    walk(path, relative: key, visited: &visited)
                }
            } else {
                #if canImport(Darwin)
                let time = status.st_mtimespec
                #else
                let time = status.st_mtim
                #endif
                entries[key] = Entry(
                    size: Int(status.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec),
                    inode: UInt64(status.st_ino), isDirectory: false)
            }
        }
    }

    /// What differs from an earlier snapshot.
    public func changes(since earlier: SourceSnapshot) -> SourceChange {
        var change = SourceChange()
        for (path, entry) in entries {
            if let before = earlier.entries[path] {
                if before != entry { change.modified.append(path) }
            } else {
                change.added.append(path)
            }
        }
        change.removed = earlier.entries.keys.filter { entries[$0] == nil }
        change.added.sort()
        change.modified.sort()
        change.removed.sort()
        return change
    }
}

/// The paths that differ between two snapshots, each list sorted.
public struct SourceChange: Sendable, Equatable {
    /// Paths that are new.
    public var added: [String] = []
    /// Paths whose size, time, inode or kind changed.
    public var modified: [String] = []
    /// Paths that are gone.
    public var removed: [String] = []

    /// Creates an empty change.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && modified.isEmpty && removed.isEmpty }

    /// A short line such as `photo.jpg changed` or `3 files added, 1 removed`.
    public var summary: String {
        let all = added + modified + removed
        if all.count == 1 {
            let verb = !added.isEmpty ? "added" : !modified.isEmpty ? "changed" : "removed"
            return "\(all[0]) \(verb)"
        }
        var parts: [String] = []
        if !added.isEmpty { parts.append("\(added.count) added") }
        if !modified.isEmpty { parts.append("\(modified.count) changed") }
        if !removed.isEmpty { parts.append("\(removed.count) removed") }
        return parts.joined(separator: ", ")
    }
}

/// Watches folders for changes: on Linux it waits for inotify events (``DirectoryEvents``), so
/// nothing runs while nothing changes; elsewhere, or when a folder cannot be watched that way
/// (the system's limit of watches, a folder that is gone), it polls every `interval`. Either
/// way, what changed is found by comparing snapshots (``SourceSnapshot``), and the rebuild
/// waits until the folder has been quiet for `quietPeriod` (so a copy of many files gives one
/// rebuild, not one per file); then it calls the rebuild closure and, when it succeeded,
/// signals the live-reload channel. Rebuilds never overlap; changes made during one lead to
/// another.
///
/// Hidden files (editors' swap files, `.DS_Store`) never trigger a rebuild.
public struct SourceWatcher: Sendable {
    /// The watched folder.
    public var directory: String { directories[0] }
    /// The watched folders: ``directory`` and any others (a theme folder); changes in the
    /// others are named by their path.
    public let directories: [String]
    /// Time between two snapshots when polling.
    public let interval: Duration
    /// Whether inotify events are waited for where available (`false`: always poll).
    public let usesEvents: Bool
    /// The processor time the watching took (snapshots, watches, reading events).
    let meter = CPUMeter()
    /// How long the folder must stay unchanged before the rebuild starts.
    public let quietPeriod: Duration
    /// The snapshot that changes are measured against at the start of ``run(reload:rebuild:)``.
    public let baseline: SourceSnapshot

    /// Takes the first snapshot now, so that a change made right after this returns is seen.
    /// `alsoWatching` are further folders whose changes also lead to a rebuild.
    /// - Throws: ``SourceWatcherError`` when a folder cannot be listed or a time is not positive.
    public init(
        directory: String, alsoWatching others: [String] = [],
        interval: Duration = .milliseconds(500), quietPeriod: Duration = .milliseconds(300),
        usesEvents: Bool = true
    ) throws(SourceWatcherError) {
        self.usesEvents = usesEvents
        guard interval > .zero else { throw .invalidInterval("the polling interval must be positive") }
        guard quietPeriod >= .zero else { throw .invalidInterval("the quiet period cannot be negative") }
        self.directories = [directory] + others
        self.interval = interval
        self.quietPeriod = quietPeriod
        self.baseline = try Self.snapshot(of: directories, taking: SourceSnapshot.take(of:))
    }

    /// The snapshot of the first folder, with those of the others under their paths; `take`
    /// reads one folder.
    private static func snapshot<Failure: Error>(
        of directories: [String], taking take: (String) throws(Failure) -> SourceSnapshot
    ) throws(Failure) -> SourceSnapshot {
        var snapshot = try take(directories[0])
        for other in directories.dropFirst() {
            snapshot.add(try take(other), under: other)
        }
        return snapshot
    }

    /// Watches until the task is cancelled.
    /// - Parameters:
    ///   - reload: signalled after every rebuild that returned `true`.
    ///   - rebuild: called with what changed; returns whether the rebuild succeeded.
    public func run(reload: LiveReload? = nil, rebuild: @Sendable (SourceChange) async -> Bool) async {
        let events = usesEvents ? DirectoryEvents(directories: directories, meter: meter) : nil
        defer { events?.stop() }
        var iterator = events?.events.makeAsyncIterator()
        // Watching before the first comparison: a change after the baseline is seen either way.
        var watching = meter.measure { events?.watchAll() ?? false }
        var last = baseline
        // The first look is at once: changes made between the baseline and the watches.
        var lookNow = true
        while !Task.isCancelled {
            if lookNow {
                lookNow = false
            } else if watching, iterator != nil {
                guard await iterator!.next() != nil else { return }  // cancelled
            } else {
                guard (try? await Task.sleep(for: interval)) != nil else { return }
            }
            // New folders get their watch before the snapshot, so nothing made in them is missed.
            watching = meter.measure { events?.watchAll() ?? false }
            var taken = DirectoryEvents.now()
            var current = currentSnapshot()
            if current == last { continue }
            // Wait for the folder to settle: with every folder watched, until no event came for
            // the quiet period since the snapshot was begun (the snapshot is then what the folder
            // holds); else until two snapshots the quiet period apart are the same. (A snapshot
            // of a large library is a `stat` of every file: not taken twice when once will do.)
            while true {
                guard (try? await Task.sleep(for: quietPeriod)) != nil else { return }
                if watching, let events, events.lastEvent < taken { break }
                watching = meter.measure { events?.watchAll() ?? false }
                taken = DirectoryEvents.now()
                let again = currentSnapshot()
                if !watching || events == nil, again == current { break }
                current = again
            }
            let change = current.changes(since: last)
            last = current
            if await rebuild(change) { reload?.signal() }
        }
    }

    /// The folders' snapshot now; a folder that is gone or unreadable has no entries (every
    /// file removed).
    private func currentSnapshot() -> SourceSnapshot {
        meter.measure { takeSnapshot() }
    }

    private func takeSnapshot() -> SourceSnapshot {
        Self.snapshot(of: directories) { (try? SourceSnapshot.take(of: $0)) ?? SourceSnapshot() }
    }
}
