import Foundation

/// The photo records of catalogs before version 6, which kept each one whole in a `record`
/// column: as JSON (version 1) or in ``RecordCoder``'s binary form (versions 2 to 5). The
/// migration to tables reads each one once; nothing else does.
enum OldPhotoRecords {
    /// The record in `data`, or nil when it is neither form (its photo is then made anew).
    static func decode(_ data: Data) -> BuildManifest.PhotoRecord? {
        if data.first == UInt8(ascii: "{") { return try? JSONDecoder().decode(BuildManifest.PhotoRecord.self, from: data) }
        return try? RecordCoder.decode(BuildManifest.PhotoRecord.self, from: data)
    }
}
