import Foundation
import Gallery
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A photo's images as the store holds them: what a site's pages need of them (display size,
/// placeholder colour, each image's size) and the size of each file, to check them by.
struct StoredImages: Codable, Sendable, Equatable {
    /// One image width.
    struct Size: Codable, Sendable, Equatable {
        var width: Int
        var height: Int
    }

    /// The upright photo's display size.
    var width: Int
    var height: Int
    /// The placeholder colour (`#rrggbb`).
    var color: String
    /// The images, by ascending width.
    var renditions: [Size]
    /// The file extension of each format, in the order of the build's formats.
    var formats: [String]
    /// Per image (as `renditions`), per format, the file's size in bytes.
    var fileSizes: [[Int]]
    /// What the user should know about the images (a colour profile that cannot be read).
    var warnings: [String]
    /// Whether the photo's colours reach beyond sRGB, so that its images depend on the
    /// `colour` setting (nil in entries of earlier releases: no).
    var wideGamut: Bool? = nil
}

/// A content-addressed store of photos' images, shared by the shards of a build (a folder on a
/// shared file system) and the final build that places them into the site.
///
/// Each photo's images are one entry, named by the photo's content hash, its size and every
/// setting the images depend on (``ImageRecipe/settings``), so the same photo made with the
/// same settings is stored once, whoever makes it. An entry is written into `tmp/` and renamed
/// into `objects/` whole, after its files are on disk: an entry is there complete or not at
/// all, so a shard killed midway, run again, or run twice at once (on two machines) leaves the
/// store correct. Layout:
///
/// - `cascade-store`: marks the folder as a store (`gc` refuses any other folder);
/// - `objects/<2 hex digits>/<key>/`: an entry: `images.json` and `<width>.<ext>` per image;
/// - `tmp/`: entries being written (what a killed shard left is removed by `gc`);
/// - `sites/<site>.txt`: the entries each site built from the store uses, for `gc --keep`;
/// - `scans/<photo folder>/<K>-of-<N>.json`: each shard's photos' identities, content hashes
///   and headers (``ShardScan``), so that the final build does not read every photo again.
struct RenditionStore: Sendable {
    /// The store's folder, absolute.
    let root: String

    static let markerName = "cascade-store"
    static let markerText = "Cascade rendition store, version 1. Made by cascade build --store; remove with cascade store gc.\n"
    private static let counter = Atomic<Int>(0)

    /// Opens the store at `root` (absolute), making it when `create` is true.
    init(root: String, create: Bool) throws(SiteError) {
        self.root = root
        let marker = root + "/" + Self.markerName
        if FileStatus(path: marker)?.kind != .regular {
            guard create else { throw .store(path: root, reason: "it is not a Cascade store (no \(Self.markerName) file in it)") }
            // Several shards may make the store at once: only the store's own names may be there.
            let ours: Set<String> = [Self.markerName, "objects", "tmp", "sites"]
            if let contents = try? FileManager.default.contentsOfDirectory(atPath: root), !Set(contents).isSubset(of: ours) {
                throw .store(path: root, reason: "the folder is not empty and is not a Cascade store; give an empty or new folder")
            }
            do {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            } catch {
                throw .store(path: root, reason: (error as NSError).localizedDescription)
            }
            do {
                try Self.writeFile(Array(Self.markerText.utf8), to: marker, folder: root)
            } catch {
                // Another shard made it first.
                guard FileStatus(path: marker)?.kind == .regular else { throw error }
            }
        }
        for folder in ["objects", "tmp", "sites"] where mkdir(root + "/" + folder, 0o755) != 0 && errno != EEXIST {
            throw .store(path: root + "/" + folder, reason: String(cString: strerror(errno)))
        }
    }

    /// The name of the entry of a photo whose content hash is `hash` and size `size`, made with
    /// `settings` (per format, what its images depend on).
    static func key(hash: String, size: Int, settings: [String]) -> String {
        var hasher = FingerprintHasher()
        hasher.combine("store-entry-1")
        for setting in settings { hasher.combine(setting) }
        return "\(hash)-\(size)-\(hasher.hex)"
    }

    /// The entry's folder (absolute).
    func entryPath(_ key: String) -> String {
        root + "/objects/" + String(key.prefix(2)) + "/" + key
    }

    /// The file of image `width` in the format whose extension is `ext`, in entry `key`.
    func filePath(_ key: String, width: Int, ext: String) -> String {
        entryPath(key) + "/\(width).\(ext)"
    }

    /// The entry `key`, if the store holds it whole (its description readable and every file of
    /// the size it gives); nil otherwise.
    func lookup(_ key: String) -> StoredImages? {
        let folder = entryPath(key)
        guard let data = FileManager.default.contents(atPath: folder + "/images.json"),
            let images = try? JSONDecoder().decode(StoredImages.self, from: data),
            images.fileSizes.count == images.renditions.count
        else { return nil }
        for (rendition, sizes) in zip(images.renditions, images.fileSizes) {
            guard sizes.count == images.formats.count else { return nil }
            for (ext, size) in zip(images.formats, sizes) {
                guard let status = FileStatus(path: folder + "/\(rendition.width).\(ext)"), status.kind == .regular, status.size == size
                else { return nil }
            }
        }
        return images
    }

    /// Adds entry `key`: `images` with its files `encoded` (per image, per format). Returns
    /// false when the store already held it whole (then nothing is changed). The entry is
    /// written into `tmp/`, synced, and renamed into place: another process adding the same
    /// entry at the same time leaves one of the two, complete.
    @discardableResult
    func put(_ key: String, images: StoredImages, encoded: [[[UInt8]]]) throws(SiteError) -> Bool {
        if lookup(key) != nil { return false }
        let temporary = try temporaryPath()
        guard mkdir(temporary, 0o755) == 0 else { throw .store(path: temporary, reason: String(cString: strerror(errno))) }
        do {
            for (rendition, files) in zip(images.renditions, encoded) {
                for (ext, bytes) in zip(images.formats, files) {
                    try Self.writeFile(bytes, to: temporary + "/\(rendition.width).\(ext)", folder: nil)
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try Self.writeFile(Array(try encoder.encode(images)), to: temporary + "/images.json", folder: temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .store(path: temporary, reason: "\(error)")
        }
        let final = entryPath(key)
        let parent = (final as NSString).deletingLastPathComponent
        if mkdir(parent, 0o755) != 0, errno != EEXIST {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw .store(path: parent, reason: reason)
        }
        for attempt in 0..<2 {
            if rename(temporary, final) == 0 {
                Self.syncFolder(parent)
                return true
            }
            let failure = errno
            guard failure == EEXIST || failure == ENOTEMPTY, attempt == 0 else {
                try? FileManager.default.removeItem(atPath: temporary)
                throw .store(path: final, reason: String(cString: strerror(failure)))
            }
            // Someone else added it meanwhile: theirs stays. Only a damaged entry (a disk that
            // lost files) is set aside and replaced by ours.
            if lookup(key) != nil {
                try? FileManager.default.removeItem(atPath: temporary)
                return false
            }
            if let aside = try? temporaryPath(), rename(final, aside) == 0 {
                try? FileManager.default.removeItem(atPath: aside)
            }
        }
        try? FileManager.default.removeItem(atPath: temporary)
        return false
    }

    /// A new path in `tmp/`, unique across the machines that share the store.
    private func temporaryPath() throws(SiteError) -> String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let host = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "/", with: "_")
        return root + "/tmp/\(host)-\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
    }

    // MARK: Sites and garbage collection

    /// The record of the site at `output` (absolute, real).
    func siteRecordPath(output: String) -> String {
        root + "/sites/" + Catalog.key(output: output) + ".txt"
    }

    /// Records that the site at `output` uses the entries `keys` (replacing its earlier record).
    func recordSite(output: String, keys: some Sequence<String>) throws(SiteError) {
        let text = "# \(output)\n" + keys.sorted().joined(separator: "\n") + "\n"
        try replaceFile(siteRecordPath(output: output), with: Array(text.utf8))
    }

    /// Writes `bytes` as the file at `path` (absolute, in the store), whole: written and synced
    /// in `tmp/`, then renamed over the old one.
    func replaceFile(_ path: String, with bytes: [UInt8]) throws(SiteError) {
        let temporary = try temporaryPath()
        try Self.writeFile(bytes, to: temporary, folder: nil)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .store(path: path, reason: reason)
        }
    }

    /// The entries the site at `output` (absolute, real) uses, or nil when no build of it has
    /// used the store.
    func siteKeys(output: String) -> Set<String>? {
        guard let text = try? String(contentsOfFile: siteRecordPath(output: output), encoding: .utf8) else { return nil }
        return Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init))
    }

    /// Every entry's key, with its folder (absolute).
    func entries() -> [(key: String, path: String)] {
        let fileManager = FileManager.default
        var result: [(String, String)] = []
        for prefix in ((try? fileManager.contentsOfDirectory(atPath: root + "/objects")) ?? []).sorted() {
            let folder = root + "/objects/" + prefix
            for key in ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
                result.append((key, folder + "/" + key))
            }
        }
        return result
    }

    /// What the store holds.
    func summary() -> StoreSummary {
        var summary = StoreSummary(root: root)
        for (key, _) in entries() {
            guard let images = lookup(key) else {
                summary.damaged += 1
                continue
            }
            summary.entries += 1
            summary.files += images.fileSizes.joined().count
            summary.bytes += images.fileSizes.joined().reduce(0, +)
        }
        summary.temporary = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/tmp")) ?? []).count
        summary.sites = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/sites")) ?? []).count
        return summary
    }

    /// Removes every entry that none of the sites at `keep` (absolute, real paths) uses, the
    /// records of other sites, and what writers left in `tmp/` more than `temporaryAge`
    /// seconds ago (a shard that is still running keeps its files). A site the store has no
    /// record of is an error, and then nothing is removed.
    func collectGarbage(keep: [String], temporaryAge: TimeInterval = 3600) throws(SiteError) -> StoreCollection {
        var kept = Set<String>()
        for site in keep {
            guard let keys = siteKeys(output: site) else {
                throw .store(path: root, reason: "no build of \(site) has used this store (build it with --store \(root) first); nothing was removed")
            }
            kept.formUnion(keys)
        }
        var collection = StoreCollection()
        for (key, path) in entries() where !kept.contains(key) {
            let bytes = lookup(key).map { $0.fileSizes.joined().reduce(0, +) } ?? 0
            // Renamed out of `objects/` first: a reader never sees half an entry.
            guard let aside = try? temporaryPath(), rename(path, aside) == 0 else { continue }
            try? FileManager.default.removeItem(atPath: aside)
            collection.entriesRemoved += 1
            collection.bytesFreed += bytes
        }
        collection.entriesKept = entries().count
        let keptRecords = Set(keep.map { (siteRecordPath(output: $0) as NSString).lastPathComponent })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/sites")) ?? [] where !keptRecords.contains(name) {
            if unlink(root + "/sites/" + name) == 0 { collection.sitesForgotten += 1 }
        }
        let now = Date()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/tmp")) ?? [] {
            let path = root + "/tmp/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > temporaryAge
            else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { collection.temporaryRemoved += 1 }
        }
        return collection
    }

    // MARK: Files

    /// Writes `bytes` to a new file at `path` and syncs it to disk; then syncs `folder`, if given.
    private static func writeFile(_ bytes: [UInt8], to path: String, folder: String?) throws(SiteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .store(path: path, reason: String(cString: strerror(errno))) }
        var failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            unlink(path)
            throw .store(path: path, reason: String(cString: strerror(failure)))
        }
        if let folder { syncFolder(folder) }
    }

    /// Syncs a folder's entries (a new name in it) to disk.
    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// What a store holds (`cascade store info`).
public struct StoreSummary: Sendable, Equatable {
    /// The store's folder.
    public var root: String
    /// Photos whose images it holds.
    public var entries = 0
    /// Image files.
    public var files = 0
    /// Their bytes.
    public var bytes = 0
    /// Entries that cannot be used (files lost): made again when needed, removed by `gc`.
    public var damaged = 0
    /// Entries being written, or left by a writer that was killed.
    public var temporary = 0
    /// Sites whose builds recorded what they use.
    public var sites = 0
}

/// What `cascade store gc` did.
public struct StoreCollection: Sendable, Equatable {
    public var entriesRemoved = 0
    public var entriesKept = 0
    public var bytesFreed = 0
    public var sitesForgotten = 0
    public var temporaryRemoved = 0
}

