import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One entry of a folder, as ``FolderEntries/read(_:)`` found it.
public struct FolderEntry: Sendable {
    /// The entry's name.
    public var name: String
    /// What `lstat` says of it; nil when it cannot be read, or when the name is not UTF-8 (the
    /// rest of the scan goes by path strings, which cannot name such a file).
    public var status: FileStatus?

    /// An entry named by the bytes `name`, which `lstat` described as `status` (nil when it
    /// could not): without a status when the name is not UTF-8.
    public init(name: [UInt8], status: FileStatus?) {
        if let text = String(validating: name, as: UTF8.self) {
            self.name = text
            self.status = status
        } else {
            self.name = String(decoding: name, as: UTF8.self)
            self.status = nil
        }
    }

    init(name: String, status: FileStatus?) {
        self.name = name
        self.status = status
    }
}

/// Folders' entries read once and handed on, by the folder's absolute path: a build fingerprints
/// the photo folder before it scans it (`BuildStamp`), and the scan takes each folder's entries
/// from here instead of reading every folder again (a large library's walk is mostly `fstatat`).
/// Entries are as they were when they were read: a file changed since is seen by the next build.
/// A folder's entries are let go of as the scan takes them.
public final class FolderListings: Sendable {
    private let folders = Mutex<[String: [FolderEntry]]>([:])

    public init() {}

    /// Adds the entries of the folder at `path` (absolute, as the scan joins it: the root's path
    /// and each sub-folder's name after a `/`).
    /// (Kept in the order they come in: they are sorted when taken, so that a build found up to
    /// date, which takes none, does not sort a large library's every name.)
    public func add(folder path: String, entries: [FolderEntry]) {
        folders.withLock { $0[path] = entries }
    }

    /// How many folders' entries are held.
    public var count: Int { folders.withLock { $0.count } }

    /// How many entries the folders held have, together.
    public var entryCount: Int { folders.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// The entries of the folder at `path`, by name in byte order, as ``FolderEntries/read(_:)``
    /// gives them, and no longer held here; nil when they are not.
    public func take(_ path: String) -> [FolderEntry]? {
        folders.withLock { $0.removeValue(forKey: path) }?.sorted { $0.name < $1.name }
    }

    /// About `count` paths of the files held, relative to `root` (with `/`), spread evenly over
    /// all of them (every n-th file, folder by folder), and how many files are held: for a
    /// reader that shares out work by path.
    public func sampleFiles(relativeTo root: String, count: Int) -> (paths: [String], files: Int) {
        folders.withLock { folders in
            let files = folders.values.reduce(0) { total, entries in total + entries.count { $0.status?.kind == .regular } }
            let step = max(1, files / max(1, count))
            var paths: [String] = []
            var seen = 0
            for (folder, entries) in folders {
                guard folder == root || folder.hasPrefix(root + "/") else { continue }
                let prefix = folder == root ? "" : String(folder.dropFirst(root.count + 1)) + "/"
                for entry in entries where entry.status?.kind == .regular {
                    if seen % step == 0 { paths.append(prefix + entry.name) }
                    seen += 1
                }
            }
            return (paths, files)
        }
    }
}

/// The entries of one folder and their status, read with `readdir` and `fstatat` relative to the
/// open folder: what `FileManager.contentsOfDirectory` and an `lstat` of each joined path did,
/// without resolving the folder's path again for every entry (a library's scan reads 100,000).
enum FolderEntries {
    /// The entries of the folder at `path` but `.` and `..`, by name in byte order; nil when the
    /// folder cannot be opened or read.
    static func read(_ path: String) -> [FolderEntry]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var entries: [FolderEntry] = []
        while true {
            // `readdir` says an error only through `errno` (an `fstatat` below may have set it).
            errno = 0
            guard let entry = readdir(directory) else { break }
            let bytes = directoryEntryName(entry)
            if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                entries.append(FolderEntry(name: bytes, status: nil))
                continue
            }
            let status = directoryEntryStatus(bytes, in: directory, followingLinks: false)
            entries.append(FolderEntry(name: name, status: status.map(FileStatus.init)))
        }
        guard errno == 0 else { return nil }
        entries.sort { $0.name < $1.name }
        return entries
    }
}

/// The extension of the file name `name` (no `/` in it): what follows its last dot, or "" when
/// it has none or its only dot starts it. The same as `NSString.pathExtension` for such names,
/// without bridging the name to `NSString` (the scan asks it of every file).
public func pathExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name != ".." else { return "" }
    return String(name[name.index(after: dot)...])
}
