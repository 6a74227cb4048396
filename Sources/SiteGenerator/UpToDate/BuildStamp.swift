import Catalog
import Synchronization
import Support
import Foundation
import Gallery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a build's result depends on, in two fingerprints cheap enough to take before every
/// build of a large library: when both are what the last complete build recorded, the site is
/// already what this build would make, and it ends there (``SiteBuilder``; a no-op rebuild of
/// 100,000 photos is then two directory walks instead of a scan, a plan and every album).
///
/// - ``inputs``: the program (its version and its file's identity), every option that shapes
///   the site, the theme's fingerprint, the time zone and locale, and every entry of the photo
///   folder: its path, kind and identity (size, modification and change time, inode: what tells
///   one version of a file from another without reading it, see `FileIdentity`). Hidden files
///   count too, so nothing the scan could read is missed; a photo folder with a symbolic link
///   in it has no stamp (a link's target may change without the folder showing it), and is
///   always built in full.
/// - ``output``: every entry of the output folder, by path and kind, and each file's size and
///   modification time (``OutputStamp``): a file deleted, added, left behind
///   (a killed build's temporary folder) or changed in place (a truncated image, an edited page)
///   makes the build run in full, which puts the site right (the files changed since the last
///   build made them are made again: ``OutputStamp/changedFiles``).
extension BuildStamp {
    /// Bumped when what a stamp covers changes, so older stamps never match.
    static let version = 2

    /// The fingerprint of everything the build of `options` is made from, for the photo folder
    /// `source` (absolute, real) and the theme whose fingerprint is `theme`; nil when the folder
    /// cannot be fingerprinted (it holds a symbolic link, or cannot be read) or when the build
    /// depends on something outside it (a sharded build's store, the album-key test hook).
    /// With the stamp come the photo folder's entries as the walk found them, for the scan.
    ///
    /// With them come each folder's input fingerprint, by its path relative to `source` (`""`
    /// for `source`): everything above but the other folders (``TreeFingerprint/folders``), so
    /// that a folder whose fingerprint is what the last complete build recorded has the same
    /// entries, files and settings as then.
    static func inputs(options: SiteOptions, source: String, theme: String) -> (stamp: String, listings: FolderListings, folders: [String: String])? {
        guard options.storeDirectory == nil, !options.verifyAlbumKeys else { return nil }
        guard let program = programIdentity(), let tree = TreeFingerprint(
                root: source, identities: true, listing: true,
                jobs: options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount),
              let listings = tree.listings, let folders = tree.folders?.all else { return nil }
        var stable = options
        stable.jobs = 0
        stable.catalogPath = nil
        stable.waitForLock = true
        var hasher = FingerprintHasher()
        hasher.combine("cascade build stamp \(version)")
        hasher.combine(program)
        hasher.combine(String(reflecting: stable))
        hasher.combine(theme)
        let environment = ProcessInfo.processInfo.environment
        for name in ["TZ", "LC_ALL", "LC_TIME", "LANG"] { hasher.combine(name + "=" + (environment[name] ?? "")) }
        let settings = hasher.hex
        hasher.combine(tree.hex)
        let keys = folders.mapValues { folder in
            var key = FingerprintHasher()
            key.combine(settings)
            key.combine(folder)
            return key.hex
        }
        return (hasher.hex, listings, keys)
    }

    /// The fingerprint of the output folder `root`'s entries and files (``OutputStamp``); the
    /// root's sub-folders are walked `jobs` at a time. Nil when a folder cannot be read. (The
    /// end of a build, which keeps the files' hashes for the catalog, asks
    /// ``OutputStamp/atEnd(root:jobs:start:touched:)``.)
    static func output(root: String, jobs: Int = 1) -> OutputStamp? {
        OutputStamp(root: root, jobs: jobs)
    }

    /// The running program's file: its path and identity (a new build of Cascade is another
    /// program, whatever its version says).
    private static func programIdentity() -> String? {
        guard let path = Bundle.main.executablePath, let status = FileStatus(path: path) else { return nil }
        let identity = status.identity
        return "\(path) \(identity.size) \(identity.modificationTime) \(identity.changeTime) \(identity.inode)"
    }
}

/// A fingerprint of a folder tree: every entry's path relative to the root and its kind, and
/// with `identities` each file's size, times and inode (`lstat`), combined so that the order a
/// folder lists its entries in does not matter. Folders are read with `openat`/`readdir` and
/// entries examined with `fstatat` relative to their folder, without building absolute paths.
struct TreeFingerprint {
    /// Two 64-bit sums over the entries (of their hashes, and of a mix of each), and their number.
    private var first: UInt64 = 0
    private var second: UInt64 = 0
    private var count: UInt64 = 0

    /// The fingerprint as 48 hex digits.
    var hex: String {
        Self.hex(first: first, second: second, count: count)
    }

    /// Every folder's entries, by the folder's absolute path, when the walk was asked to keep
    /// them (the scan then need not read the folders again).
    let listings: FolderListings?
    /// With the listings, each folder's own fingerprint by its path relative to the root (`""`
    /// for the root): its entries' names, kinds and files' identities, but not what its
    /// sub-folders hold, nor their identities (a folder's time changes with its entries: an
    /// album's sub-album changing is not a change to the album's own folder).
    let folders: FolderFingerprints?
    private let root: String

    /// Walks `root`; nil when a folder of it cannot be read, or (with `identities`) when it holds
    /// a symbolic link. With `listing` (which needs `identities`), keeps every folder's entries
    /// in ``listings``. The root's sub-folders are walked `jobs` at a time (the sums do not
    /// depend on the order entries are added in).
    init?(root: String, identities: Bool, listing: Bool = false, jobs: Int = 1) {
        self.root = root
        listings = listing && identities ? FolderListings() : nil
        folders = listing && identities ? FolderFingerprints() : nil
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var prefix: [UInt8] = []
        guard walk(descriptor, prefix: &prefix, identities: identities, jobs: jobs) else { return nil }
    }

    /// A fingerprint of nothing yet, for part of a walk.
    private init(root: String, listings: FolderListings?, folders: FolderFingerprints?) {
        self.root = root
        self.listings = listings
        self.folders = folders
    }

    /// Adds the entries of the open folder `descriptor` (closed here) and of its sub-folders,
    /// `jobs` sub-folders at a time.
    private mutating func walk(_ descriptor: Int32, prefix: inout [UInt8], identities: Bool, jobs: Int = 1) -> Bool {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        defer { closedir(directory) }
        var subfolders: [[UInt8]] = []
        var entries: [FolderEntry] = []
        var own = TreeFingerprint(root: root, listings: nil, folders: nil)
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            var kind = directoryEntryType(entry)
            var details: [UInt64] = []
            if identities || kind == UInt8(DT_UNKNOWN) {
                guard let status = directoryEntryStatus(name, in: directory, followingLinks: false) else { return false }
                let file = FileStatus(status)
                if listings != nil { entries.append(FolderEntry(name: name, status: file)) }
                kind = file.kind.directoryEntryType
                if identities {
                    let identity = file.identity
                    details = [UInt64(bitPattern: Int64(identity.size)), identity.inode,
                               identity.modificationTime.bitPattern, identity.changeTime.bitPattern]
                }
            }
            if identities && kind == UInt8(DT_LNK) { return false }
            let hashes = add(prefix: prefix, name: name, kind: kind, details: details)
            if folders != nil {
                own.add(kind == UInt8(DT_DIR) ? Self.entryHashes(prefix: prefix, name: name, kind: kind, details: []) : hashes)
            }
            if kind == UInt8(DT_DIR) { subfolders.append(name) }
        }
        if listings != nil {
            let folder = prefix.isEmpty ? root : root + "/" + String(decoding: prefix.dropLast(), as: UTF8.self)
            listings?.add(folder: folder, entries: entries)
        }
        folders?.add(String(decoding: prefix.dropLast(), as: UTF8.self), own.hex)
        let folder = dirfd(directory)
        @Sendable func open(_ name: [UInt8]) -> Int32 {
            (name + [0]).withUnsafeBufferPointer { buffer in
                openat(folder, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
        }
        if jobs > 1 && subfolders.count > 1 {
            let (root, listings, folders, base) = (root, listings, folders, prefix)
            let parts = parallelMap(subfolders, jobs: jobs) { name -> TreeFingerprint? in
                var part = TreeFingerprint(root: root, listings: listings, folders: folders)
                let child = open(name)
                guard child >= 0 else { return nil }
                var prefix = base + name + [UInt8(ascii: "/")]
                return part.walk(child, prefix: &prefix, identities: identities) ? part : nil
            }
            for part in parts {
                guard let part else { return false }
                first = first &+ part.first
                second = second &+ part.second
                count += part.count
            }
            return true
        }
        for name in subfolders {
            let child = open(name)
            guard child >= 0 else { return false }
            let length = prefix.count
            prefix += name
            prefix.append(UInt8(ascii: "/"))
            let walked = walk(child, prefix: &prefix, identities: identities)
            prefix.removeSubrange(length...)
            guard walked else { return false }
        }
        return true
    }

    /// Adds one entry (``entryHashes(prefix:name:kind:details:)``) to the sums; returns its hashes.
    @discardableResult
    private mutating func add(prefix: [UInt8], name: [UInt8], kind: UInt8, details: [UInt64]) -> (UInt64, UInt64) {
        let hashes = Self.entryHashes(prefix: prefix, name: name, kind: kind, details: details)
        add(hashes)
        return hashes
    }

    /// Adds one entry's hashes to the sums.
    private mutating func add(_ hashes: (UInt64, UInt64)) {
        first = first &+ hashes.0
        second = second &+ hashes.1
        count += 1
    }

    /// One entry's two hashes, summed into a fingerprint's totals: the FNV-1a hash of its path
    /// (`prefix`, the folder's path relative to the root with a `/` after it, then `name`), kind
    /// and details, and a mix of that hash (SplitMix64's finaliser).
    static func entryHashes(prefix: [UInt8], name: [UInt8], kind: UInt8, details: [UInt64]) -> (UInt64, UInt64) {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        func feed(_ byte: UInt8) {
            a = (a ^ UInt64(byte)) &* prime
        }
        for byte in prefix { feed(byte) }
        for byte in name { feed(byte) }
        feed(0)
        feed(kind)
        for var value in details {
            for _ in 0..<8 {
                feed(UInt8(truncatingIfNeeded: value))
                value >>= 8
            }
        }
        var b = a &+ 0x9e37_79b9_7f4a_7c15
        b = (b ^ (b >> 30)) &* 0xbf58_476d_1ce4_e5b9
        b = (b ^ (b >> 27)) &* 0x94d0_49bb_1331_11eb
        b ^= b >> 31
        return (a, b)
    }

    /// The fingerprint's 48 hex digits for the sums `first` and `second` of `count` entries.
    static func hex(first: UInt64, second: UInt64, count: UInt64) -> String {
        [first, second, count].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}

extension FileStatus.Kind {
    /// The kind as `readdir` names it (`DT_REG`, `DT_DIR`, `DT_LNK`, else `DT_UNKNOWN`): what the
    /// fingerprints hash for an entry whose type `readdir` did not give.
    var directoryEntryType: UInt8 {
        switch self {
        case .regular: UInt8(DT_REG)
        case .directory: UInt8(DT_DIR)
        case .symbolicLink: UInt8(DT_LNK)
        case .other: UInt8(DT_UNKNOWN)
        }
    }
}

/// Each folder's own fingerprint as a tree's walk found it (``TreeFingerprint/folders``),
/// added from the cores that walk it.
final class FolderFingerprints: Sendable {
    private let folders = Mutex<[String: String]>([:])

    /// Adds the fingerprint of the folder at `path` (relative to the walk's root).
    func add(_ path: String, _ fingerprint: String) {
        folders.withLock { $0[path] = fingerprint }
    }

    /// Every folder's fingerprint, by its path.
    var all: [String: String] { folders.withLock { $0 } }
}
