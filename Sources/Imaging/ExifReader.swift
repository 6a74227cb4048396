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
        // The rating (0x4746, written by Windows and many photo tools) is not in libexif's list
        // of tags: kept only when unknown tags are.
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
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
        // Each date with its own zone (EXIF 2.31's OffsetTimeOriginal 0x9011, OffsetTime 0x9010);
        // an unreadable DateTimeOriginal leaves the date to DateTime.
        fields.metadata.dateTaken = CaptureDateText.firstDate(
            CaptureDateText.exifDate(text(exif_content_get_entry(exif, EXIF_TAG_DATE_TIME_ORIGINAL)),
                                     offset: text(exif_content_get_entry(exif, ExifTag(rawValue: 0x9011)))),
            CaptureDateText.exifDate(text(exif_content_get_entry(main, EXIF_TAG_DATE_TIME)),
                                     offset: text(exif_content_get_entry(exif, ExifTag(rawValue: 0x9010)))))
        fields.metadata.description = text(exif_content_get_entry(main, EXIF_TAG_IMAGE_DESCRIPTION))
        fields.metadata.artist = text(exif_content_get_entry(main, EXIF_TAG_ARTIST))
        // (The photographer's notice; an editor's, after a NUL, is not read.)
        fields.metadata.copyright = text(exif_content_get_entry(main, EXIF_TAG_COPYRIGHT))
        fields.metadata.hasGPS = (gps?.pointee.count ?? 0) > 0
        // Windows writes 0 to 5 stars; anything else (65535 included) is no rating, said in a
        // warning, rather than a rejection that would leave the photo out without a word.
        if let rating = integer(exif_content_get_entry(main, ExifTag(rawValue: 0x4746)), order) {
            switch CheckedNumber.integer(rating, field: "EXIF Rating", in: -1...5) {
            case .success(let value): fields.metadata.rating = value
            case .failure(let problem): fields.metadata.fieldProblems = [problem.description]
            }
        }
        var camera = CameraSettings()
        camera.make = text(exif_content_get_entry(main, EXIF_TAG_MAKE))
        camera.model = text(exif_content_get_entry(main, EXIF_TAG_MODEL))
        camera.lens = text(exif_content_get_entry(exif, EXIF_TAG_LENS_MODEL)) ?? text(exif_content_get_entry(exif, EXIF_TAG_LENS_MAKE))
        camera.focalLength = rational(exif_content_get_entry(exif, EXIF_TAG_FOCAL_LENGTH), order).flatMap { $0.value }
        camera.focalLength35mm = integer(exif_content_get_entry(exif, EXIF_TAG_FOCAL_LENGTH_IN_35MM_FILM), order).flatMap { $0 > 0 ? $0 : nil }
        camera.fNumber = rational(exif_content_get_entry(exif, EXIF_TAG_FNUMBER), order).flatMap { $0.value }
        camera.exposureTime = rational(exif_content_get_entry(exif, EXIF_TAG_EXPOSURE_TIME), order)
        camera.iso = integer(exif_content_get_entry(exif, EXIF_TAG_ISO_SPEED_RATINGS), order).flatMap { $0 > 0 ? $0 : nil }
        camera.exposureBias = rational(exif_content_get_entry(exif, EXIF_TAG_EXPOSURE_BIAS_VALUE), order).flatMap { $0.value }
        if camera.focalLength.map({ !($0 > 0 && $0 < 100_000) }) ?? false { camera.focalLength = nil }
        if camera.fNumber.map({ !($0 > 0 && $0 < 1000) }) ?? false { camera.fNumber = nil }
        if camera.exposureTime.map({ !($0.numerator > 0 && ($0.value ?? 0) > 0) }) ?? false { camera.exposureTime = nil }
        if camera.exposureBias.map({ !(abs($0) <= 100) }) ?? false { camera.exposureBias = nil }
        fields.metadata.camera = camera.isEmpty ? nil : camera
        return fields
    }

    /// The first value of a SHORT or LONG entry.
    private static func integer(_ entry: UnsafeMutablePointer<ExifEntry>?, _ order: ExifByteOrder) -> Int? {
        guard let entry, let value = entry.pointee.data, entry.pointee.components >= 1 else { return nil }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: return Int(exif_get_short(value, order))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4: return Int(exif_get_long(value, order))
        default: return nil
        }
    }

    /// The first value of a RATIONAL or SRATIONAL entry, with a non-zero denominator.
    private static func rational(_ entry: UnsafeMutablePointer<ExifEntry>?, _ order: ExifByteOrder) -> CameraSettings.Fraction? {
        guard let entry, let value = entry.pointee.data, entry.pointee.components >= 1, entry.pointee.size >= 8 else { return nil }
        let fraction: CameraSettings.Fraction
        switch entry.pointee.format {
        case EXIF_FORMAT_RATIONAL:
            let r = exif_get_rational(value, order)
            fraction = CameraSettings.Fraction(numerator: Int(r.numerator), denominator: Int(r.denominator))
        case EXIF_FORMAT_SRATIONAL:
            let r = exif_get_srational(value, order)
            fraction = CameraSettings.Fraction(numerator: Int(r.numerator), denominator: Int(r.denominator))
        default: return nil
        }
        return fraction.denominator == 0 ? nil : fraction
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
