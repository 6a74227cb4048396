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

/// An XMP sidecar's fields as a shard read them, with the file's identity then: every shard
/// scans the whole photo folder, and reading 100,000 Lightroom sidecars again on each run
/// was most of a run's scan.
struct StoredSidecar: Codable, Sendable, Equatable {
    var identity: FileIdentity
    var fields: XMPMetadata
}

/// The shards' records of one photo folder in the store: `scans/<folder key>/<K>-of-<N>.json`,
/// one file per shard (its own photos, by path relative to the photo folder), and beside it
/// `<K>-of-<N>.sidecars.json` (the sidecars whose path falls in the shard, ``ShardSpec/contains(path:)``,
/// by path), each written whole (temporary file and rename) at the end of the shard.
struct ShardScan {
    var store: RenditionStore
    /// The photo folder, absolute and real (its path keys the records, as the catalog's key
    /// the output folder).
    var source: String

    private var folder: String { store.root + "/scans/" + Catalog.key(output: source) }

    private static let sidecarsSuffix = ".sidecars.json"

    /// Writes shard `shard`'s records: its photos, and the sidecars of `sidecars` whose path
    /// falls in it (each sidecar is kept by one shard; every shard reads them all).
    func save(_ photos: [String: ScannedPhoto], sidecars: [ScannedSidecar], shard: ShardSpec) throws(SiteError) {
        for path in [store.root + "/scans", folder] where mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .store(path: path, reason: String(cString: strerror(errno)))
        }
        var own: [String: StoredSidecar] = [:]
        for sidecar in sidecars where shard.contains(path: sidecar.relativePath) {
            own[sidecar.relativePath] = StoredSidecar(identity: sidecar.identity, fields: sidecar.fields)
        }
        let name = folder + "/\(shard.index)-of-\(shard.count)"
        try store.replaceFile(name + ".json", with: try encoded(photos))
        try store.replaceFile(name + Self.sidecarsSuffix, with: try encoded(own))
    }

    private func encoded(_ value: some Encodable) throws(SiteError) -> [UInt8] {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return Array(try encoder.encode(value))
        } catch {
            throw .store(path: folder, reason: "\(error)")
        }
    }

    /// Every record the shards left for this photo folder (a record whose file changed since
    /// is not used: its identity differs).
    func load() -> [String: ScannedPhoto] {
        merged { !$0.hasSuffix(Self.sidecarsSuffix) }
    }

    /// Every sidecar's fields the shards left for this photo folder, by the sidecar's path
    /// (used only while the file's identity is the same).
    func loadSidecars() -> [String: StoredSidecar] {
        merged { $0.hasSuffix(Self.sidecarsSuffix) }
    }

    /// The records of the files of this folder's that `named` is true of, merged (a file that
    /// cannot be read or decoded is left out: what it held is read from the photo folder again).
    private func merged<Value: Decodable>(_ named: (String) -> Bool) -> [String: Value] {
        var result: [String: Value] = [:]
        let decoder = JSONDecoder()
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where name.hasSuffix(".json") && named(name) {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name),
                let values = try? decoder.decode([String: Value].self, from: data)
            else { continue }
            result.merge(values) { _, new in new }
        }
        return result
    }
}
