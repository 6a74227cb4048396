import Support
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of a folder tree at one moment: every path with its size, modification time and
/// inode. Hidden files and folders (names starting with `.`) are left out, and so is everything
/// inside a hidden folder. Symbolic links are followed; a folder reached twice is listed once.
///
/// It is kept folder by folder, so that the folders an event names can be read again alone
/// (``refresh(_:willList:)``) and compared alone (``changes(since:in:)``): in a library of
/// 100,000 photos, a whole snapshot and its comparison take half a second.
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

    /// A folder the snapshot listed: the path it is read at, which watched folder it is under
    /// (the first, or a further one), and its device and inode (a folder reached again through
    /// a link is not listed again under the same watched folder).
    private struct ListedFolder: Sendable {
        var path: String
        var root: Int
        var identity: [UInt64]
    }

    /// Each listed folder's entries by name, by the folder's key: its path relative to the
    /// watched folder ("" for the folder itself), or a further watched folder's path and the
    /// path below it.
    private var folders: [String: [String: Entry]] = [:]
    /// The listed folders, by key.
    private var listed: [String: ListedFolder] = [:]
    /// The listed folders' keys, by the path they are read at.
    private var keys: [String: String] = [:]

    /// Paths relative to the folder, `/`-separated, to what was recorded of them.
    public var entries: [String: Entry] {
        var all: [String: Entry] = [:]
        for (key, names) in folders {
            for (name, entry) in names { all[Self.path(name, in: key)] = entry }
        }
        return all
    }

    /// An empty snapshot (a folder that is gone).
    public init() {}

    /// Whether both record the same entries.
    public static func == (left: SourceSnapshot, right: SourceSnapshot) -> Bool { left.folders == right.folders }

    /// Adds the entries of `other` (a snapshot of the further watched folder number `root`)
    /// with their paths under `prefix` (the folder's path, no slash at its end).
    mutating func add(_ other: SourceSnapshot, under prefix: String, root: Int) {
        func moved(_ key: String) -> String { key.isEmpty ? prefix : prefix + "/" + key }
        for (key, names) in other.folders { folders[moved(key)] = names }
        for (key, var folder) in other.listed {
            let moved = moved(key)
            folder.root = root
            listed[moved] = folder
            keys[folder.path] = moved
        }
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
        let identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
        var visited: Set<[UInt64]> = [identity]
        var read: Set<String> = []
        snapshot.walk(ListedFolder(path: directory, root: 0, identity: identity), key: "", visited: &visited, read: &read) { _ in }
        return snapshot
    }

    /// Reads again the listed folders at `paths` (as ``DirectoryEvents`` names them): their
    /// entries, sub-folders that are new (listed whole, each after `willList` was told of its
    /// path, so that a watch set then sees every later change) and sub-folders that are gone
    /// (dropped with all below them). Returns the keys of the folders read or dropped, which
    /// ``changes(since:in:)`` compares; nil when a path is not a folder this snapshot lists
    /// (only a new snapshot will then do).
    mutating func refresh(_ paths: Set<String>, willList: (String) -> Void) -> Set<String>? {
        guard paths.allSatisfy({ keys[$0] != nil }) else { return nil }
        var read: Set<String> = []
        // (A folder may be dropped with its parent on the way: then it is not read.)
        for path in paths.sorted() {
            guard let key = keys[path], let folder = listed[key] else { continue }
            relist(folder, key: key, read: &read, willList: willList)
        }
        return read
    }

    /// What differs from an earlier snapshot.
    public func changes(since earlier: SourceSnapshot) -> SourceChange {
        changes(since: earlier, in: allFolders(and: earlier))
    }

    /// What differs from an earlier snapshot in the folders whose keys are `read` (what
    /// ``refresh(_:willList:)`` returned): the others are taken to be as they were.
    func changes(since earlier: SourceSnapshot, in read: Set<String>) -> SourceChange {
        var change = SourceChange()
        for key in read {
            let now = folders[key] ?? [:]
            let before = earlier.folders[key] ?? [:]
            for (name, entry) in now {
                if let old = before[name] {
                    if old != entry { change.modified.append(Self.path(name, in: key)) }
                } else {
                    change.added.append(Self.path(name, in: key))
                }
            }
            for name in before.keys where now[name] == nil { change.removed.append(Self.path(name, in: key)) }
        }
        change.added.sort()
        change.modified.sort()
        change.removed.sort()
        return change
    }

    /// Lists `folder` under `key`, then its sub-folders not `visited` yet, depth first, adding
    /// each key to `read`; `willList` is told of each folder before it is read.
    private mutating func walk(
        _ folder: ListedFolder, key: String, visited: inout Set<[UInt64]>, read: inout Set<String>, willList: (String) -> Void
    ) {
        willList(folder.path)
        let (names, subfolders) = Self.list(folder.path)
        folders[key] = names
        listed[key] = folder
        keys[folder.path] = key
        read.insert(key)
        for (name, identity) in subfolders where visited.insert(identity).inserted {
            let child = ListedFolder(path: folder.path + "/" + name, root: folder.root, identity: identity)
            walk(child, key: Self.path(name, in: key), visited: &visited, read: &read, willList: willList)
        }
    }

    /// Reads the listed `folder` again: sub-folders gone (or now another folder, or a file) are
    /// dropped with all below them; new ones are listed whole.
    private mutating func relist(_ folder: ListedFolder, key: String, read: inout Set<String>, willList: (String) -> Void) {
        let old = folders[key] ?? [:]
        let (names, subfolders) = Self.list(folder.path)
        folders[key] = names
        read.insert(key)
        for (name, entry) in old where entry.isDirectory && names[name] != entry {
            drop(Self.path(name, in: key), read: &read)
        }
        var visited = Set(listed.values.lazy.filter { $0.root == folder.root }.map(\.identity))
        for (name, identity) in subfolders where listed[Self.path(name, in: key)] == nil && visited.insert(identity).inserted {
            let child = ListedFolder(path: folder.path + "/" + name, root: folder.root, identity: identity)
            walk(child, key: Self.path(name, in: key), visited: &visited, read: &read, willList: willList)
        }
    }

    /// Forgets the listed folder `key` and every folder below it, adding their keys to `read`.
    private mutating func drop(_ key: String, read: inout Set<String>) {
        let below = key + "/"
        for (listedKey, folder) in listed where listedKey == key || listedKey.hasPrefix(below) {
            listed[listedKey] = nil
            folders[listedKey] = nil
            if keys[folder.path] == listedKey { keys[folder.path] = nil }
            read.insert(listedKey)
        }
    }

    /// The entries of the folder at `path` by name (none when it cannot be read), and its
    /// sub-folders' names with their device and inode, in the order the folder lists them.
    private static func list(_ path: String) -> (names: [String: Entry], subfolders: [(String, [UInt64])]) {
        var names: [String: Entry] = [:]
        var subfolders: [(String, [UInt64])] = []
        // Each entry examined relative to the open folder (`fstatat`, following links as
        // `stat` does), without resolving the folder's path again for each of its files.
        guard let folder = opendir(path) else { return (names, subfolders) }
        defer { closedir(folder) }
        while let item = readdir(folder) {
            let bytes = directoryEntryName(item)
            guard bytes.first != UInt8(ascii: ".") else { continue }  // hidden, and `.` and `..`
            // (Gone meanwhile, or a dangling link: left out.)
            guard let status = directoryEntryStatus(bytes, in: folder, followingLinks: true) else { continue }
            let name = String(decoding: bytes, as: UTF8.self)
            if status.st_mode & S_IFMT == S_IFDIR {
                names[name] = Entry(size: 0, modified: 0, inode: UInt64(status.st_ino), isDirectory: true)
                subfolders.append((name, [UInt64(status.st_dev), UInt64(status.st_ino)]))
            } else {
                #if canImport(Darwin)
                let time = status.st_mtimespec
                #else
                let time = status.st_mtim
                #endif
                names[name] = Entry(
                    size: Int(status.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec),
                    inode: UInt64(status.st_ino), isDirectory: false)
            }
        }
        return (names, subfolders)
    }

    /// The keys of every folder listed here or in `other` (what a comparison of two whole
    /// snapshots goes through).
    func allFolders(and other: SourceSnapshot) -> Set<String> {
        Set(folders.keys).union(other.folders.keys)
    }

    /// The path of `name` in the folder whose key is `folder`.
    private static func path(_ name: String, in folder: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
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
/// way, what changed is found by comparing snapshots (``SourceSnapshot``): with events, only
/// the folders they name are read again and compared (a whole snapshot of a large library
/// takes half a second; it is taken only when events may have been missed). The rebuild
/// waits until the folder has been quiet for `quietPeriod` (so a copy of many files gives one
/// rebuild, not one per file); then it calls the rebuild closure and, when it succeeded,
/// `afterRebuild` (the preview server's live-reload signal). Rebuilds never overlap; changes
/// made during one lead to another.
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
    /// Measures the watching (snapshots, watches, reading events) for the tests of its cost.
    var meter: any WatchingMeter = Unmeasured()
    /// How long the folder must stay unchanged before the rebuild starts.
    public let quietPeriod: Duration
    /// Waits out one quiet period (a sleep; the tests hold it to make changes inside it).
    var waitQuietPeriod: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// The snapshot that changes are measured against at the start of ``run(afterRebuild:rebuild:)``.
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
        for (root, other) in directories.enumerated().dropFirst() {
            snapshot.add(try take(other), under: other, root: root)
        }
        return snapshot
    }

    /// Watches until the task is cancelled.
    /// - Parameters:
    ///   - afterRebuild: called after every rebuild that returned `true`.
    ///   - rebuild: called with what changed; returns whether the rebuild succeeded.
    public func run(afterRebuild: @Sendable () -> Void = {}, rebuild: @Sendable (SourceChange) async -> Bool) async {
        let events = usesEvents ? DirectoryEvents(directories: directories, meter: meter) : nil
        defer { events?.stop() }
        var iterator = events?.events.makeAsyncIterator()
        // The first look sets the watches and takes a whole snapshot: a change after the
        // baseline is seen either way.
        var watching = false
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
            var taken = DirectoryEvents.now()
            var current = last
            // The keys of the folders read since `last` (nil: the whole tree was read).
            var read = look(at: &current, events: events, watching: &watching)
            var change = current.changes(since: last, in: read ?? current.allFolders(and: last))
            if change.isEmpty {
                last = current  // (the same entries; the folders' paths as they are now)
                continue
            }
            // Wait for the folder to settle: with every folder watched, until no event came for
            // the quiet period since the last look was begun (the snapshot is then what the
            // folder holds); else until two snapshots the quiet period apart are the same.
            while true {
                guard (try? await waitQuietPeriod(quietPeriod)) != nil else { return }
                if watching, let events, events.lastEvent < taken { break }
                taken = DirectoryEvents.now()
                let before = current
                let again = look(at: &current, events: events, watching: &watching)
                read = read.flatMap { read in again.map { read.union($0) } }
                change = current.changes(since: last, in: read ?? current.allFolders(and: last))
                if !watching || events == nil, again == nil, current == before { break }
            }
            last = current
            if change.isEmpty { continue }
            if await rebuild(change) { afterRebuild() }
        }
    }

    /// Brings `snapshot` up to date. With every folder watched and the events' folders known,
    /// only those folders are read again (with the folders new in them, each watched before it
    /// is read): in a large library, a few folders instead of every file. Otherwise every folder
    /// gets its watch (where events are available), then the whole tree is read. Returns the keys
    /// of the folders read, nil when the whole tree was.
    private func look(at snapshot: inout SourceSnapshot, events: DirectoryEvents?, watching: inout Bool) -> Set<String>? {
        meter.measure {
            if watching, let events, let named = events.takeChangedFolders() {
                var watchedAll = true
                if let read = snapshot.refresh(named, willList: { watchedAll = events.watch(folder: $0) && watchedAll }) {
                    watching = watchedAll
                    return read
                }
            }
            // New folders get their watch before the snapshot, so nothing made in them is missed.
            watching = events?.watchAll() ?? false
            _ = events?.takeChangedFolders()  // the snapshot that follows sees what they name
            snapshot = takeSnapshot()
            return nil
        }
    }

    /// The folders' snapshot now; a folder that is gone or unreadable has no entries (every
    /// file removed).
    private func takeSnapshot() -> SourceSnapshot {
        Self.snapshot(of: directories) { (try? SourceSnapshot.take(of: $0)) ?? SourceSnapshot() }
    }
}
