import Catalog
import Foundation
import Gallery
import Synchronization
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A photo's images as the store holds them: what a site's pages need of them (display size,
/// placeholder colour, each image's size), and the size and content hash of each file and the
/// entry's own name, to check them by.
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
    /// Per image (as `renditions`), per format, the file's content hash (FNV-1a 64, as
    /// ``contentHash(_:)``); nil in entries of earlier releases, which are not trusted.
    var fileHashes: [[String]]? = nil
    /// The entry's name (``RenditionStore/key(hash:size:settings:)``): an entry found under
    /// another name (two entries' folders swapped) is damaged. Nil in earlier releases' entries.
    var key: String? = nil

    /// Why these values, read from the store as the entry `key`'s, cannot be used (nil when
    /// they can): each is checked before it reaches a page, a style or a file name. The
    /// display size is positive and, when `display` is given (the photo's, from its header),
    /// that size; each image is at most as large as it, at ascending widths; the colour is
    /// strictly `#rrggbb`; the extensions are plain names; there is a size and a hash per file.
    func problem(key expected: String, display: (width: Int, height: Int)?) -> String? {
        guard key == expected else { return key == nil ? "it has no record of its name" : "it holds another photo's images" }
        // (A photo is at most `max_megapixels`: no side reaches a million pixels.)
        let limit = 1 << 20
        guard width > 0, height > 0, width <= limit, height <= limit else { return "its display size \(width)x\(height) is not possible" }
        if let display, display.width != width || display.height != height {
            return "its display size \(width)x\(height) is not the photo's \(display.width)x\(display.height)"
        }
        guard Self.isColour(color) else { return "its colour is not #rrggbb" }
        var previous = 0
        for size in renditions {
            guard size.width > previous, size.height > 0, size.width <= width, size.height <= height else {
                return "an image of \(size.width)x\(size.height) does not fit the photo's \(width)x\(height)"
            }
            previous = size.width
        }
        guard !formats.isEmpty, formats.allSatisfy(Self.isExtension) else { return "a file extension is not a plain name" }
        guard let fileHashes, fileHashes.count == renditions.count, fileSizes.count == renditions.count else {
            return "it has no content hash of its files"
        }
        for (sizes, hashes) in zip(fileSizes, fileHashes) {
            guard sizes.count == formats.count, hashes.count == formats.count, sizes.allSatisfy({ $0 > 0 }) else {
                return "its files are not listed per image and format"
            }
        }
        return nil
    }

    /// Whether `text` is a colour as `#rrggbb` (lower-case hex digits), nothing else.
    static func isColour(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 7 && bytes[0] == UInt8(ascii: "#")
            && bytes.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// Whether `text` is a file extension the store can name a file by (1 to 8 lower-case
    /// letters and digits: no `/`, no `..`).
    static func isExtension(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return (1...8).contains(bytes.count)
            && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }
}

/// What the store holds under a name.
enum StoreLookup: Sendable, Equatable {
    /// Nothing (or what a writer left half made).
    case missing
    /// An entry that cannot be used, and why: it is made again.
    case damaged(String)
    /// The entry, checked.
    case found(StoredImages)

    /// The entry, when it was found whole.
    var images: StoredImages? {
        if case .found(let images) = self { images } else { nil }
    }
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

    /// The entry `key`, if the store holds it whole (its description readable, its values
    /// possible, ``StoredImages/problem(key:display:)``, and every file of the size it gives);
    /// nil otherwise. With `verify`, every file is also read and its content hash compared with
    /// the one the entry recorded (what a build takes is checked so: a file changed in place,
    /// even to the same size, makes the entry damaged).
    func lookup(_ key: String, verify: Bool = true, display: (width: Int, height: Int)? = nil) -> StoredImages? {
        check(key, verify: verify, display: display).images
    }

    /// What the store holds as entry `key`: missing, damaged (and why), or found. See
    /// ``lookup(_:verify:display:)``.
    func check(_ key: String, verify: Bool = true, display: (width: Int, height: Int)? = nil) -> StoreLookup {
        let folder = entryPath(key)
        guard let data = FileManager.default.contents(atPath: folder + "/images.json") else {
            return FileStatus(path: folder)?.kind == .directory ? .damaged("its images.json cannot be read") : .missing
        }
        guard let images = try? JSONDecoder().decode(StoredImages.self, from: data) else { return .damaged("its images.json is not what the store writes") }
        if let problem = images.problem(key: key, display: display) { return .damaged(problem) }
        for (position, rendition) in images.renditions.enumerated() {
            for (format, ext) in images.formats.enumerated() {
                let name = "\(rendition.width).\(ext)"
                let path = folder + "/" + name
                guard let status = FileStatus(path: path), status.kind == .regular, status.size == images.fileSizes[position][format] else {
                    return .damaged("its file \(name) is missing or not of the size it recorded")
                }
                guard verify else { continue }
                guard let hash = Self.fileHash(path), hash == images.fileHashes![position][format] else {
                    return .damaged("its file \(name) is not the content it recorded")
                }
            }
        }
        return .found(images)
    }

    /// The content hash of the file at `path` (``contentHash(_:)``), read whole; nil when it
    /// cannot be read.
    static func fileHash(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { contentHash(raw: $0) }
    }

    /// Adds entry `key`: `images` with its files `encoded` (per image, per format). Returns
    /// false when the store already held it whole (then nothing is changed). The entry is
    /// written into `tmp/`, synced, and renamed into place: another process adding the same
    /// entry at the same time leaves one of the two, complete.
    @discardableResult
    func put(_ key: String, images: StoredImages, encoded: [[[UInt8]]]) throws(SiteError) -> Bool {
        if lookup(key) != nil { return false }
        // The entry records its name and its files' hashes, so that what is taken is checked.
        var images = images
        images.key = key
        images.fileHashes = encoded.map { $0.map(contentHash) }
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

    /// What the store holds: every entry checked, its files read and hashed.
    func summary() -> StoreSummary {
        var summary = StoreSummary(root: root)
        for (key, _) in entries() {
            guard let images = lookup(key, verify: true) else {
                summary.damaged += 1
                summary.damagedKeys.append(key)
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
    /// record of is an error, and then nothing is removed. With `verify`, every kept entry's
    /// files are read and hashed too, and a damaged one is removed as well (the next build that
    /// needs it makes it again; a site's hard links to its files stay as they are).
    func collectGarbage(keep: [String], verify: Bool = false, temporaryAge: TimeInterval = 3600) throws(SiteError) -> StoreCollection {
        var kept = Set<String>()
        for site in keep {
            guard let keys = siteKeys(output: site) else {
                throw .store(path: root, reason: "no build of \(site) has used this store (build it with --store \(root) first); nothing was removed")
            }
            kept.formUnion(keys)
        }
        var collection = StoreCollection()
        for (key, path) in entries() {
            var bytes = 0
            if kept.contains(key) {
                guard verify, case .damaged = check(key, verify: true) else { continue }
                collection.damagedRemoved.append(key)
            } else {
                bytes = lookup(key, verify: false).map { $0.fileSizes.joined().reduce(0, +) } ?? 0
            }
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
    /// Entries that cannot be used (files lost or changed, found by hashing every file, or
    /// values that are not possible): made again when needed, removed by `gc`.
    public var damaged = 0
    /// Their names (folders under `objects/`).
    public var damagedKeys: [String] = []
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
    /// With `--verify`: the kept entries found damaged (by hashing their files) and removed.
    public var damagedRemoved: [String] = []
}

