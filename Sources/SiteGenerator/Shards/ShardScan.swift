import Catalog
import Foundation
import Gallery
import Imaging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a shard learned of one photo while choosing its photos: the file's identity, its
/// content hash and its header. The final build takes them, while a file's identity is the
/// same, instead of reading every photo again (on a shared file system, for millions of
/// photos, that reading would be most of its time).
struct ScannedPhoto: Codable, Sendable, Equatable {
    var identity: FileIdentity
    var contentHash: String
    var info: ImageInfo
    /// The `ImageProbe.version` that read `info`.
    var probeVersion: Int

    /// The record's hash and header when `identity` is the one it was taken from.
    func matches(_ identity: FileIdentity) -> Bool { self.identity == identity }
}

/// The shards' records of one photo folder in the store: `scans/<folder key>/<K>-of-<N>.json`,
/// one file per shard (its own photos, by path relative to the photo folder), each written
/// whole (temporary file and rename) at the end of the shard.
struct ShardScan {
    var store: RenditionStore
    /// The photo folder, absolute and real (its path keys the records, as the catalog's key
    /// the output folder).
    var source: String

    private var folder: String { store.root + "/scans/" + Catalog.key(output: source) }

    /// Writes shard `shard`'s records.
    func save(_ photos: [String: ScannedPhoto], shard: ShardSpec) throws(SiteError) {
        for path in [store.root + "/scans", folder] where mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .store(path: path, reason: String(cString: strerror(errno)))
        }
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(photos)
        } catch {
            throw .store(path: folder, reason: "\(error)")
        }
        try store.replaceFile(folder + "/\(shard.index)-of-\(shard.count).json", with: Array(data))
    }

    /// Every record the shards left for this photo folder (a record whose file changed since
    /// is not used: its identity differs).
    func load() -> [String: ScannedPhoto] {
        var result: [String: ScannedPhoto] = [:]
        let decoder = JSONDecoder()
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where name.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name),
                let photos = try? decoder.decode([String: ScannedPhoto].self, from: data)
            else { continue }
            result.merge(photos) { _, new in new }
        }
        return result
    }
}
