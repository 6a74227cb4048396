/// The output folder's records as catalogs before version 8 kept them, whole in the `folders`
/// column of `output_state`: the migration to rows (``CatalogOutputFolder``) reads them once;
/// nothing else does.
enum OldOutputState {
    /// What the records began with (records of another header were never read).
    static let header = Array("cascade output state 3\n".utf8)

    /// The records of `bytes`, as the rows that replace them: ``header``, then per folder its path's length and UTF-8, its
    /// three sums, the number of its files and their hashes (little endian). Nil when the bytes
    /// are not such records (the next build then finds no file changed by others, as a
    /// catalog without them).
    static func decode(_ bytes: [UInt8]) -> [CatalogOutputFolder]? {
        guard bytes.starts(with: header) else { return nil }
        var folders: [CatalogOutputFolder] = []
        var offset = header.count
        func take() -> UInt64? {
            guard offset + 8 <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
            offset += 8
            return value
        }
        while offset < bytes.count {
            guard let length = take(), length <= bytes.count - offset else { return nil }
            let path = String(decoding: bytes[offset..<offset + Int(length)], as: UTF8.self)
            offset += Int(length)
            guard let a = take(), let b = take(), let count = take(), let number = take(), number <= (bytes.count - offset) / 8 else { return nil }
            var files: [UInt64] = []
            files.reserveCapacity(Int(number))
            for _ in 0..<number { files.append(take()!) }
            folders.append(CatalogOutputFolder(path: path, sums: [a, b, count], files: files))
        }
        return folders
    }
}
