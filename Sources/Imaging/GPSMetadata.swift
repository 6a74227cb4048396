import CExif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Carries a photo's GPS position over into a generated JPEG, for sites that choose to publish
/// it: re-encoding drops all metadata, and this puts back the GPS directory alone (no camera,
/// no orientation: the pixels are already upright).
public enum GPSMetadata {
    /// An EXIF block (`Exif\0\0` and a TIFF structure) holding only the GPS directory of the
    /// JPEG `bytes`, or nil when it has none.
    public static func block(fromJPEG bytes: [UInt8]) -> [UInt8]? {
        guard let payload = exifPayload(ofJPEG: bytes) else { return nil }
        guard let source = exif_data_new() else { return nil }
        defer { exif_data_unref(source) }
        exif_data_unset_option(source, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        payload.withUnsafeBufferPointer { exif_data_load_data(source, $0.baseAddress, UInt32($0.count)) }
        guard let gps = source.pointee.ifd.3, gps.pointee.count > 0 else { return nil }

        guard let target = exif_data_new() else { return nil }
        defer { exif_data_unref(target) }
        exif_data_unset_option(target, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_byte_order(target, exif_data_get_byte_order(source))
        guard let targetGPS = target.pointee.ifd.3 else { return nil }
        // libexif adds only entries that belong to no directory yet: copy each one. Entry data
        // is freed by libexif's default allocator, which is the C library's.
        for index in 0..<Int(gps.pointee.count) {
            guard let entry = gps.pointee.entries[index], let copy = exif_entry_new() else { continue }
            defer { exif_entry_unref(copy) }  // the directory holds its own reference
            copy.pointee.tag = entry.pointee.tag
            copy.pointee.format = entry.pointee.format
            copy.pointee.components = entry.pointee.components
            if entry.pointee.size > 0, let bytes = entry.pointee.data, let data = malloc(Int(entry.pointee.size)) {
                memcpy(data, bytes, Int(entry.pointee.size))
                copy.pointee.data = data.assumingMemoryBound(to: UInt8.self)
                copy.pointee.size = entry.pointee.size
            }
            exif_content_add_entry(targetGPS, copy)
        }
        var data: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(target, &data, &size)
        guard let data, size > 6 else { return nil }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    /// `jpeg` with `block` as its EXIF segment (APP1) right after the start marker; unchanged
    /// when it is not a JPEG or the block does not fit in a segment.
    public static func inserting(_ block: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8, block.count + 2 <= 0xFFFF else { return jpeg }
        let length = block.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + block + jpeg[2...]
    }

    /// The payload of the first APP1 segment that starts with `Exif\0\0`.
    static func exifPayload(ofJPEG bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xFF {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data: no EXIF before it
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let start = offset + 4
            if marker == 0xE1, length - 2 >= header.count, Array(bytes[start..<start + header.count]) == header {
                return Array(bytes[start..<offset + 2 + length])
            }
            offset += 2 + length
        }
        return nil
    }
}
