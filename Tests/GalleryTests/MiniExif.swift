/// A minimal EXIF block (big-endian TIFF: IFD0 with ImageDescription, the EXIF directory with
/// DateTimeOriginal), inserted as APP1 right after a JPEG's SOI marker. A trimmed copy of
/// `ExifBuilder` in Tests/ImagingTests/TestImages.swift, which another test target cannot import.
struct MiniExif {
    var description: String?
    var dateTimeOriginal: String?

    func inserted(into jpeg: [UInt8]) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff()
        return Array(jpeg[0..<2]) + [0xFF, 0xE1] + be16(payload.count + 2) + payload + Array(jpeg[2...])
    }

    private func tiff() -> [UInt8] {
        typealias Entry = (tag: Int, type: Int, count: Int, data: [UInt8])
        func ascii(_ tag: Int, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return (tag, 2, bytes.count, bytes)
        }
        var ifd0: [Entry] = []
        if let description { ifd0.append(ascii(270, description)) }
        var exif: [Entry] = []
        if let dateTimeOriginal { exif.append(ascii(36867, dateTimeOriginal)) }
        if !exif.isEmpty { ifd0.append((34665, 4, 1, [0, 0, 0, 0])) }
        func size(_ entries: [Entry]) -> Int {
            2 + entries.count * 12 + 4 + entries.reduce(0) { $0 + ($1.data.count > 4 ? $1.data.count : 0) }
        }
        let exifOffset = 8 + size(ifd0)
        for index in ifd0.indices where ifd0[index].tag == 34665 { ifd0[index].data = be32(exifOffset) }
        func write(_ entries: [Entry], at offset: Int) -> [UInt8] {
            var out = be16(entries.count)
            var extra: [UInt8] = []
            let extraStart = offset + 2 + entries.count * 12 + 4
            for entry in entries {
                out += be16(entry.tag) + be16(entry.type) + be32(entry.count)
                if entry.data.count > 4 {
                    out += be32(extraStart + extra.count)
                    extra += entry.data
                } else {
                    out += entry.data + Array(repeating: 0, count: 4 - entry.data.count)
                }
            }
            return out + [0, 0, 0, 0] + extra
        }
        var result: [UInt8] = Array("MM".utf8) + [0, 42] + be32(8) + write(ifd0, at: 8)
        if !exif.isEmpty { result += write(exif, at: exifOffset) }
        return result
    }

    private func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    private func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
