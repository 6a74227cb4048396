import HTTPCore

/// The request parsing of the preview server (`HTTPCore`'s request head, then the site's path),
/// for the fuzz targets (`scripts/fuzz`). Takes any
/// bytes and returns; a crash, a trap or a hang is a bug. Not API: `@_spi(Fuzzing) import`.
@_spi(Fuzzing) public enum PreviewServerFuzzing {
    /// A request head as the connection reads it (the bytes before the empty line), then its
    /// path, query and `Range` header as the responder reads them.
    public static func request(_ bytes: [UInt8]) {
        guard let head = try? RequestHead.parse(bytes[...]) else { return }
        _ = head.keepsAlive
        _ = head.queryParameter("reload")
        if let path = try? SitePath.parse(head.path) {
            _ = path.encoded
            if let name = path.segments.last { _ = MediaTypes.type(forFileName: name) }
        }
        for size in [0, 1, 1000, Int.max] {
            _ = ByteRange(header: head["range"], size: size)
        }
    }
}
