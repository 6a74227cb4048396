import CExif

/// The EXIF fields Cascade uses.
struct ExifFields {
    var orientation: Orientation = .up
    var metadata = PhotoMetadata()
}

/// Reads EXIF with libexif. The `ExifData` is owned here and released before returning.
enum ExifReader {
    /// Parses an APP1 payload that starts with `Exif\0\0`; nil when libexif finds no EXIF in it.
    static func read(exifSegment bytes: [UInt8]) -> ExifFields? {
        guard let data = bytes.withUnsafeBufferPointer({ buffer in
            exif_data_new_from_data(buffer.baseAddress, UInt32(buffer.count))
        }) else { return nil }
        defer { exif_data_unref(data) }
        let order = exif_data_get_byte_order(data)
        let ifds = data.pointee.ifd
        let main = ifds.0
        let exif = ifds.2
        let gps = ifds.3

        var fields = ExifFields()
        if let entry = exif_content_get_entry(main, EXIF_TAG_ORIENTATION), let value = entry.pointee.data,
           entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2
        {
            fields.orientation = Orientation(rawValue: Int(exif_get_short(value, order))) ?? .up
        }
        fields.metadata.dateTaken = text(exif_content_get_entry(exif, EXIF_TAG_DATE_TIME_ORIGINAL))
            ?? text(exif_content_get_entry(main, EXIF_TAG_DATE_TIME))
        fields.metadata.description = text(exif_content_get_entry(main, EXIF_TAG_IMAGE_DESCRIPTION))
        fields.metadata.artist = text(exif_content_get_entry(main, EXIF_TAG_ARTIST))
        fields.metadata.hasGPS = (gps?.pointee.count ?? 0) > 0
        return fields
    }

    /// The text of an ASCII entry, up to its first NUL, with surrounding blanks removed; nil when empty.
    private static func text(_ entry: UnsafeMutablePointer<ExifEntry>?) -> String? {
        guard let entry, let data = entry.pointee.data, entry.pointee.format == EXIF_FORMAT_ASCII else { return nil }
        let buffer = UnsafeBufferPointer(start: data, count: Int(entry.pointee.size))
        let bytes = buffer.prefix { $0 != 0 }
        let value = String(decoding: bytes, as: UTF8.self)
        let trimmed = value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        return trimmed.isEmpty ? nil : value.trimmingCharacters(in: " \n\r\t")
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
