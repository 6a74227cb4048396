import DirectoryEntries
import Foundation
import Gallery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output folder's fingerprint (``BuildStamp/output``): the same 48 hex digits as a walk of
/// every entry (``TreeFingerprint`` without identities), taken folder by folder with what the
/// last walk found in each. A folder whose identity (device, inode, modification and change
/// times) is what it was then holds the same entries, for an entry cannot be added, removed,
/// renamed or changed into another kind without changing its folder's times: it is not read
/// again, only its sub-folders are looked at. A large library's rebuild reads the few folders
/// it wrote to instead of half a million entries (a tenth of a second at the end of every
/// build, and as much in the up-to-date check).
///
/// A folder read within ``settleTime`` of its last change is not trusted the next time: a
/// change made in the same tick of the file system's clock, right after it was read, could
/// leave its times as they were (the "racy" entries Git's index knows too). The time is longer
/// than the coarsest clock of a file system an output folder is likely to be on (FAT's two
/// seconds).
struct OutputStamp: Sendable {
    /// What a walk found in one folder.
    struct Folder: Codable, Sendable, Equatable {
        /// The folder's device, inode, modification and change times (seconds, nanoseconds)
        /// when it was read; nil when it is not to be trusted (read too soon after a change, or
        /// a sub-folder's name is not UTF-8).
        var identity: [Int64]?
        /// The sums over its own entries: the two hash totals and their number.
        var sums: [UInt64]
        /// The names of its sub-folders.
        var subfolders: [String]
    }

    /// How long after a folder's last change its listing is trusted by the next walk.
    static let settleTime = 3.0

    /// The fingerprint.
    let hex: String
    /// Every folder's record by path relative to the root ("" for the root), for the next walk.
    let folders: [String: Folder]
    /// How many folders were read (not taken from `earlier`).
    let foldersRead: Int

    /// Walks `root`, taking each folder whose identity is the one recorded in `earlier` as it
    /// was; the root's sub-folders `jobs` at a time. Nil when a folder cannot be read.
    init?(root: String, earlier: [String: Folder]?, jobs: Int = 1) {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let earlier = earlier ?? [:]
        defer { close(descriptor) }
        var top = Walk()
        guard let subfolders = top.visit(descriptor, path: "", earlier: earlier, subtrees: false) else { return nil }
        // (The root's sub-folders are walked `jobs` at a time, each on its own.)
        let parts = parallelMap(subfolders, jobs: max(1, jobs)) { name -> Walk? in
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { return nil }
            defer { close(child) }
            var walk = Walk()
            return walk.visit(child, path: name, earlier: earlier, subtrees: true) == nil ? nil : walk
        }
        for part in parts {
            guard let part else { return nil }
            top.merge(part)
        }
        hex = TreeFingerprint.hex(first: top.sums[0], second: top.sums[1], count: top.sums[2])
        folders = top.folders
        foldersRead = top.read
    }

    /// The sums and records of part of the tree.
    private struct Walk: Sendable {
        var sums: [UInt64] = [0, 0, 0]
        var folders: [String: Folder] = [:]
        var read = 0

        mutating func merge(_ other: Walk) {
            add(other.sums)
            folders.merge(other.folders) { $1 }
            read += other.read
        }

        mutating func add(_ other: [UInt64]) {
            for index in 0..<3 { sums[index] = sums[index] &+ other[index] }
        }

        /// Adds the open folder `descriptor` (left open) at `path`, and with `subtrees` its
        /// sub-folders; returns the names of its sub-folders, or nil when a folder cannot be read.
        mutating func visit(_ descriptor: Int32, path: String, earlier: [String: Folder], subtrees: Bool) -> [String]? {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME_COARSE, &now)
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            let identity = [Int64(status.st_dev), Int64(status.st_ino),
                            Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec),
                            Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec)]
            let record: Folder
            if let known = earlier[path], known.identity == identity {
                record = known
            } else {
                guard let listed = Self.list(descriptor, path: path) else { return nil }
                read += 1
                func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
                let settled = max(seconds(status.st_mtim), seconds(status.st_ctim)) < seconds(now) - OutputStamp.settleTime
                record = Folder(identity: settled && listed.named ? identity : nil, sums: listed.sums, subfolders: listed.subfolders)
            }
            folders[path] = record
            add(record.sums)
            // (Without `subtrees`, the caller walks the sub-folders.)
            guard subtrees else { return record.subfolders }
            for name in record.subfolders {
                let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { return nil }
                defer { close(child) }
                guard visit(child, path: path + "/" + name, earlier: earlier, subtrees: true) != nil else { return nil }
            }
            return record.subfolders
        }

        /// The sums over the entries of the open folder `descriptor` at `path` (a duplicate of
        /// the descriptor is read; the descriptor stays open), the names of its sub-folders, and
        /// whether each of those is UTF-8. (One that is not is counted as an entry of its folder
        /// but not walked: it cannot be named again from the record. It is not the tool's, and
        /// nothing the tool makes is inside it; its folder is read again by every walk.)
        private static func list(_ descriptor: Int32, path: String) -> (sums: [UInt64], subfolders: [String], named: Bool)? {
            let copy = dup(descriptor)
            guard copy >= 0, let directory = fdopendir(copy) else {
                if copy >= 0 { close(copy) }
                return nil
            }
            defer { closedir(directory) }
            // (`readdir` goes on from where a read of the same open folder left off.)
            rewinddir(directory)
            let prefix = path.isEmpty ? [] : Array(path.utf8) + [UInt8(ascii: "/")]
            var sums: [UInt64] = [0, 0, 0]
            var subfolders: [String] = []
            var named = true
            while let entry = readdir(directory) {
                let name = directoryEntryName(entry)
                if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
                var kind = directoryEntryType(entry)
                if kind == UInt8(DT_UNKNOWN) {
                    guard let status = directoryEntryStatus(name, in: directory, followingLinks: false) else { return nil }
                    kind = FileStatus(status).kind.directoryEntryType
                }
                let (a, b) = TreeFingerprint.entryHashes(prefix: prefix, name: name, kind: kind, details: [])
                sums[0] = sums[0] &+ a
                sums[1] = sums[1] &+ b
                sums[2] += 1
                if kind == UInt8(DT_DIR) {
                    guard let text = String(validating: name, as: UTF8.self) else {
                        named = false
                        continue
                    }
                    subfolders.append(text)
                }
            }
            return (sums, subfolders, named)
        }
    }
}
