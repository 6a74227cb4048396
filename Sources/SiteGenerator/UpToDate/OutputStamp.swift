import Catalog
import Support
import Foundation
import Gallery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output folder's fingerprint (``BuildStamp/output``): every entry by path and kind and,
/// for a regular file, its size and modification time (`fstatat` relative to its folder, in
/// the walk that lists the folder), combined so that the order entries are listed in does not
/// matter. A file deleted, added or changed in place (truncated, edited, even to the same size:
/// its modification time changes) changes it. (A file given back its old time after a
/// same-size edit, `touch -r`, is not seen; a copy with the same size and time is taken for
/// the same file, as a backup restored with its times should be.)
///
/// Every folder is read and every file examined on each walk: a file changed in place leaves
/// its folder's times as they were, so no folder can be skipped. (Earlier releases skipped the
/// folders whose times were unchanged, and so missed a page edited in the site.)
///
/// With each folder's sums the walk keeps, when asked, the hash of each of its regular files
/// (``Folder/files``): what the end of a build records in the catalog
/// (``Catalog/recordOutputState(hex:folders:)``, a row of plain columns per folder), so that the next full build can tell which files were
/// changed since (``changedFiles``) and make them again.
///
/// A file changed within the same tick of the file system's clock as the end of the build that
/// made it, to the same size and in place, may keep its time: such a change is not seen (as
/// Git's "racily clean" entries). Changes of another size, or made later, are.
struct OutputStamp: Sendable {
    /// What a walk found in one folder (the catalog's ``OutputFolder``).
    typealias Folder = OutputFolder

    /// The fingerprint.
    let hex: String
    /// Every folder's record by path relative to the root ("" for the root).
    let folders: [String: Folder]
    /// With a `reference`: the site-relative paths of the regular files that are not as the
    /// reference recorded them (changed, replaced or new since), in the folders whose sums
    /// differ from the reference's; a folder the reference does not have counts as changed.
    let changedFiles: [String]

    /// Walks `root`, the root's sub-folders `jobs` at a time. With `keepFiles`, keeps each
    /// folder's files' hashes (``Folder/files``); with `reference` (an earlier walk's folders,
    /// kept with their files), finds the files changed since (``changedFiles``). Nil when a
    /// folder cannot be read.
    init?(root: String, jobs: Int = 1, keepFiles: Bool = false, reference: [String: Folder]? = nil) {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var top = Walk(keepFiles: keepFiles, reference: reference)
        guard let subfolders = top.visit(descriptor, path: "", subtrees: false) else { return nil }
        // (The root's sub-folders are walked `jobs` at a time, each on its own.)
        let parts = parallelMap(subfolders, jobs: max(1, jobs)) { name -> Walk? in
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { return nil }
            defer { close(child) }
            var walk = Walk(keepFiles: keepFiles, reference: reference)
            return walk.visit(child, path: name, subtrees: true) == nil ? nil : walk
        }
        for part in parts {
            guard let part else { return nil }
            top.merge(part)
        }
        hex = TreeFingerprint.hex(first: top.sums[0], second: top.sums[1], count: top.sums[2])
        folders = top.folders
        changedFiles = top.changed
    }

    /// The stamp of `root` as it is now, from `earlier`, the folders a walk with their files
    /// kept (``Folder/files``) found at the start of this build, with the folders this build
    /// wrote into or deleted from (`touched`, site-relative, ``SiteWriter/touchedFolders``)
    /// listed again, every folder above them and the root too. A folder that is gone is
    /// forgotten with everything below it; one that is new is walked whole. A one-photo change
    /// in a large site so lists a handful of folders rather than stat every file. (The other
    /// folders are taken as the start of the build found them: a change someone made there
    /// during the build is then seen by the next build, and its files made again.) Nil when a
    /// folder cannot be read or is not reached without following a link: the caller walks.
    init?(root: String, updating earlier: [String: Folder], touched: Set<String>) {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var folders = earlier
        var pending: Set<String> = [""]
        for path in touched {
            var folder = Substring(path)
            while !folder.isEmpty, pending.insert(String(folder)).inserted {
                folder = folder.lastIndex(of: "/").map { folder[..<$0] } ?? ""
            }
        }
        func forget(_ path: String) {
            folders[path] = nil
            let prefix = path + "/"
            for key in folders.keys where key.hasPrefix(prefix) { folders[key] = nil }
        }
        // Parents first: a folder found gone or new takes its sub-folders with it.
        var done: Set<String> = []
        for path in pending.sorted() where !done.contains(path) {
            let folder = Self.openFolder(descriptor, path: path)
            if folder < 0 {
                guard errno == ENOENT else { return nil }
                forget(path)
                continue
            }
            defer { close(folder) }
            var walk = Walk(keepFiles: true, reference: nil)
            guard let subfolders = walk.visit(folder, path: path, subtrees: false) else { return nil }
            let before = Set(folders[path]?.subfolders ?? [])
            let prefix = path.isEmpty ? "" : path + "/"
            for name in before.subtracting(subfolders) { forget(prefix + name) }
            for name in subfolders where folders[prefix + name] == nil {
                let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { return nil }
                defer { close(child) }
                guard walk.visit(child, path: prefix + name, subtrees: true) != nil else { return nil }
            }
            for (walked, record) in walk.folders {
                folders[walked] = record
                done.insert(walked)
            }
        }
        // (The tree's sums are its folders' sums added up, as a walk adds them.)
        var total = Walk(keepFiles: false, reference: nil)
        for folder in folders.values { total.add(folder.sums) }
        hex = TreeFingerprint.hex(first: total.sums[0], second: total.sums[1], count: total.sums[2])
        self.folders = folders
        changedFiles = []
    }

    /// The stamp of `root` at the end of a build: updated from `start` (the walk at its start,
    /// files kept) where there was one, else walked whole. In debug builds (the tests) the
    /// update is checked against a whole walk: a folder the build changed without telling the
    /// writer stops the program there.
    static func atEnd(root: String, jobs: Int, start: [String: Folder]?, touched: Set<String>) -> OutputStamp? {
        guard let start, let updated = OutputStamp(root: root, updating: start, touched: touched) else {
            return OutputStamp(root: root, jobs: jobs, keepFiles: true)
        }
        assert({
            guard let whole = OutputStamp(root: root, jobs: jobs, keepFiles: true) else { return true }
            return whole.hex == updated.hex && whole.folders.count == updated.folders.count
                && whole.folders.allSatisfy { path, folder in
                    updated.folders[path].map { $0.sums == folder.sums && $0.files == folder.files } ?? false
                }
        }(), "the output folder's stamp updated from the build's start is not what a whole walk finds (touched: \(touched.sorted()))")
        return updated
    }

    /// The folder at the site-relative `path` opened below the open `root`, one name at a time
    /// and following no link (as a walk reaches it); -1 with `errno` set when it cannot be.
    private static func openFolder(_ root: Int32, path: String) -> Int32 {
        var current = dup(root)
        guard current >= 0, !path.isEmpty else { return current }
        for name in path.split(separator: "/", omittingEmptySubsequences: false) {
            let next = openat(current, String(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(current)
            guard next >= 0 else {
                errno = failure
                return -1
            }
            current = next
        }
        return current
    }

    /// The sums and records of part of the tree.
    private struct Walk: Sendable {
        let keepFiles: Bool
        let reference: [String: Folder]?
        var sums: [UInt64] = [0, 0, 0]
        var folders: [String: Folder] = [:]
        var changed: [String] = []

        init(keepFiles: Bool, reference: [String: Folder]?) {
            self.keepFiles = keepFiles
            self.reference = reference
        }

        mutating func merge(_ other: Walk) {
            add(other.sums)
            folders.merge(other.folders) { $1 }
            changed += other.changed
        }

        mutating func add(_ other: [UInt64]) {
            for index in 0..<3 { sums[index] = sums[index] &+ other[index] }
        }

        /// Adds the open folder `descriptor` (left open) at `path`, and with `subtrees` its
        /// sub-folders; returns the names of its sub-folders, or nil when a folder cannot be read.
        mutating func visit(_ descriptor: Int32, path: String, subtrees: Bool) -> [String]? {
            let known = reference?[path]
            // (With a reference, the files' hashes are needed to compare the folder's.)
            guard let listed = Self.list(descriptor, path: path, keepFiles: keepFiles || reference != nil) else { return nil }
            if reference != nil, known?.sums != listed.record.sums {
                let before = Set(known?.files ?? [])
                let prefix = path.isEmpty ? "" : path + "/"
                for (hash, name) in zip(listed.record.files, listed.names) where !before.contains(hash) {
                    changed.append(prefix + name)
                }
            }
            var record = listed.record
            if !keepFiles { record.files = [] }
            folders[path] = record
            add(record.sums)
            // (Without `subtrees`, the caller walks the sub-folders.)
            guard subtrees else { return record.subfolders }
            for name in record.subfolders {
                let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { return nil }
                defer { close(child) }
                guard visit(child, path: path + "/" + name, subtrees: true) != nil else { return nil }
            }
            return record.subfolders
        }

        /// The record of the open folder `descriptor` at `path` (a duplicate of the descriptor
        /// is read; the descriptor stays open): the sums over its entries, each regular file's
        /// size and time included, and with `keepFiles` its files' hashes, ascending, with their
        /// names in the same order. (A sub-folder whose name is not UTF-8 is counted as an entry
        /// but not walked: it is not the tool's, and nothing the tool makes is inside it.)
        private static func list(_ descriptor: Int32, path: String, keepFiles: Bool) -> (record: Folder, names: [String])? {
            let copy = dup(descriptor)
            guard copy >= 0, let directory = fdopendir(copy) else {
                if copy >= 0 { close(copy) }
                return nil
            }
            defer { closedir(directory) }
            // (`readdir` goes on from where a read of the same open folder left off.)
            rewinddir(directory)
            // The FNV-1a state after the folder's path, once per folder: each entry goes on from it.
            var base: UInt64 = 0xcbf2_9ce4_8422_2325
            if !path.isEmpty {
                for byte in path.utf8 { base = (base ^ UInt64(byte)) &* OutputStamp.fnvPrime }
                base = (base ^ UInt64(UInt8(ascii: "/"))) &* OutputStamp.fnvPrime
            }
            var sums: [UInt64] = [0, 0, 0]
            var subfolders: [String] = []
            var files: [(hash: UInt64, name: String)] = []
            while let entry = readdir(directory) {
                let name = directoryEntryName(entry)
                if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
                var kind = directoryEntryType(entry)
                var status: stat?
                if kind == UInt8(DT_REG) || kind == UInt8(DT_UNKNOWN) {
                    // A file that is gone since it was listed is left out (as if listed later).
                    guard let found = directoryEntryStatus(name, in: directory, followingLinks: false) else { continue }
                    if kind == UInt8(DT_UNKNOWN) { kind = FileStatus(found).kind.directoryEntryType }
                    if kind == UInt8(DT_REG) { status = found }
                }
                let (a, b) = OutputStamp.entryHashes(base: base, name: name, kind: kind, status: status)
                sums[0] = sums[0] &+ a
                sums[1] = sums[1] &+ b
                sums[2] += 1
                if keepFiles, kind == UInt8(DT_REG) { files.append((a, String(decoding: name, as: UTF8.self))) }
                if kind == UInt8(DT_DIR), let text = String(validating: name, as: UTF8.self) { subfolders.append(text) }
            }
            files.sort { $0.hash < $1.hash }
            return (Folder(sums: sums, files: files.map(\.hash), subfolders: subfolders), files.map(\.name))
        }
    }

    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

    /// One entry's two hashes, summed into the fingerprint: the FNV-1a hash of its path (`base`,
    /// the state after its folder's path and a `/`, fed with `name`), a 0 and its kind, with a
    /// regular file's size and modification time (`status`) mixed in a word at a time; and a mix of
    /// that hash (SplitMix64's finaliser). (Word by word rather than byte by byte: this is done
    /// for each of a large site's half a million files in every no-op rebuild.)
    static func entryHashes(base: UInt64, name: [UInt8], kind: UInt8, status: stat?) -> (UInt64, UInt64) {
        var a = base
        for byte in name { a = (a ^ UInt64(byte)) &* fnvPrime }
        a = (a ^ 0) &* fnvPrime
        a = (a ^ UInt64(kind)) &* fnvPrime
        if let status {
            func mix(_ value: Int64) {
                a = (a ^ UInt64(bitPattern: value)) &* 0x9e37_79b9_7f4a_7c15
                a ^= a >> 29
            }
            // Size and modification time only: a site restored from a backup that keeps times
            // (other inodes, other change times) is not taken for changed and made again.
            mix(Int64(status.st_size))
            mix(Int64(status.st_mtim.tv_sec))
            mix(Int64(status.st_mtim.tv_nsec))
        }
        var b = a &+ 0x9e37_79b9_7f4a_7c15
        b = (b ^ (b >> 30)) &* 0xbf58_476d_1ce4_e5b9
        b = (b ^ (b >> 27)) &* 0x94d0_49bb_1331_11eb
        b ^= b >> 31
        return (a, b)
    }
}
