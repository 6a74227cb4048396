import CExif

/// The EXIF fields Cascade uses.
struct ExifFields: Equatable {
    var orientation: Orientation = .up
    var metadata = PhotoMetadata()
}

/// Reads EXIF with libexif. Each `ExifData` is owned by one call and released before it returns.
enum ExifReader {
    /// The largest EXIF block handed to libexif (a JPEG APP1 segment holds at most 64 KiB).
    static let maximumSize = 4 * 1024 * 1024

    /// Parses an EXIF block: a JPEG APP1 payload (`Exif\0\0` then a TIFF structure) or a
    /// bare TIFF structure. Nil when libexif finds nothing in it.
    static func read(_ block: [UInt8]) -> ExifFields? {
        let header: [UInt8] = Array("Exif".utf8) + [0, 0]
        guard block.count >= 8, block.count <= maximumSize else { return nil }
        let payload = block.starts(with: header) ? block : header + block
        guard let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        // Without this option libexif "fixes" the data to the specification while loading it:
        // it adds the tags the standard makes mandatory, with default values, and drops tags
        // found in a directory where they do not belong. Cascade wants what the camera wrote.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        payload.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(buffer.count))
        }
        let order = exif_data_get_byte_order(data)
        let ifds = data.pointee.ifd
        let main = ifds.0
        let exif = ifds.2
        let gps = ifds.3
        let found = [main, exif, gps].contains { ($0?.pointee.count ?? 0) > 0 }
        guard found else { return nil }

        var fields = ExifFields()
        if let entry = exif_content_get_entry(main, EXIF_TAG_ORIENTATION), let value = entry.pointee.data,
            entry.pointee.components >= 1
        {
            let raw: Int? =
                switch entry.pointee.format {
                case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: Int(exif_get_short(value, order))
                case EXIF_FORMAT_LONG where entry.pointee.size >= 4: Int(exif_get_long(value, order))
                default: nil
                }
            fields.orientation = raw.flatMap(Orientation.init(rawValue:)) ?? .up
        }
        fields.metadata.dateTaken =
            text(exif_content_get_entry(exif, EXIF_TAG_DATE_TIME_ORIGINAL))
            ?? text(exif_content_get_entry(main, EXIF_TAG_DATE_TIME))
        fields.metadata.description = text(exif_content_get_entry(main, EXIF_TAG_IMAGE_DESCRIPTION))
        fields.metadata.artist = text(exif_content_get_entry(main, EXIF_TAG_ARTIST))
        fields.metadata.hasGPS = (gps?.pointee.count ?? 0) > 0
        return fields
    }

    /// The text of an ASCII entry up to its first NUL, without surrounding blanks; nil when empty.
    /// Invalid UTF-8 is repaired rather than refused.
    private static func text(_ entry: UnsafeMutablePointer<ExifEntry>?) -> String? {
        guard let entry, let data = entry.pointee.data, entry.pointee.size > 0,
            entry.pointee.format == EXIF_FORMAT_ASCII || entry.pointee.format == EXIF_FORMAT_UNDEFINED
        else { return nil }
        let buffer = UnsafeBufferPointer(start: data, count: Int(entry.pointee.size))
        return cleanText(Array(buffer.prefix { $0 != 0 }))
    }

    /// Text from EXIF bytes, trimmed of blanks; nil when nothing is left.
    static func cleanText(_ bytes: [UInt8]) -> String? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let value = String(decoding: bytes, as: UTF8.self)
        guard let first = value.firstIndex(where: { !blank($0) }), let last = value.lastIndex(where: { !blank($0) }) else {
            return nil
        }
        return String(value[first...last])
    }
}
