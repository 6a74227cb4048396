/// The first image directory (IFD0) of a TIFF file: size, orientation, metadata, and where the
/// pixel data lies. libgd decodes the first directory, so that is the one that counts.
struct TIFFHeader {
    var info: ImageInfo
    var bitsPerSample = 1
    var samplesPerPixel = 1
    var photometric: Int?
    /// The ICC profile of tag 34675 (InterColorProfile), read only when asked for.
    var iccProfile: [UInt8]?
    /// The strips' or tiles' (offset, byte count) pairs, read only when asked for.
    var dataExtents: [(offset: Int, count: Int)] = []

    /// The most entries read from one directory or value array (a sane file has far fewer).
    private static let maximumCount = 1 << 20

    /// Whether libgd reads this image through libtiff's RGBA interface, which already applies
    /// the orientation's mirroring (but not its transposition); libgd's own line reader, used
    /// only for 1-bit black-and-white images, applies nothing.
    var decoderMirrors: Bool {
        // gd takes a missing photometric tag for min-is-black or min-is-white (0 or 1).
        !(bitsPerSample == 1 && samplesPerPixel == 1 && (photometric ?? 0) <= 1)
    }

    /// What the decoder has already done of the orientation: libtiff, asked for bottom-up rows
    /// that gd then turns over, treats orientations 5 to 8 like 1 to 4 (mirrors only).
    var orientationAppliedByDecoder: Orientation {
        guard decoderMirrors else { return .up }
        return switch info.orientation {
        case .up, .leftMirrored: .up
        case .upMirrored, .right: .upMirrored
        case .down, .rightMirrored: .down
        case .downMirrored, .left: .downMirrored
        }
    }

    static func read(_ reader: ByteReader, extents: Bool = false, profile: Bool = false) throws(ImagingError) -> TIFFHeader {
        let bigEndian = try reader.u8(0) == 0x4D
        func u16(_ offset: Int) throws(ImagingError) -> Int { Int(try reader.u16(offset, bigEndian: bigEndian)) }
        func u32(_ offset: Int) throws(ImagingError) -> Int { Int(try reader.u32(offset, bigEndian: bigEndian)) }

        struct Entry {
            var tag: Int
            var type: Int
            var count: Int
            /// Where the value is: inside the entry when it fits in four bytes, else at an offset.
            var valueOffset: Int
        }
        func entries(at offset: Int) throws(ImagingError) -> [Entry] {
            guard offset >= 8 else { throw .headerUnreadable(.tiff) }
            let count = try u16(offset)
            var result: [Entry] = []
            for index in 0..<count {
                let position = offset + 2 + index * 12
                let type = try u16(position + 2)
                let count = try u32(position + 4)
                let size = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4][type < 14 ? type : 0] * count
                let valueOffset = size <= 4 ? position + 8 : try u32(position + 8)
                result.append(Entry(tag: try u16(position), type: type, count: count, valueOffset: valueOffset))
            }
            return result
        }
        func integer(_ entry: Entry, index: Int = 0) throws(ImagingError) -> Int {
            switch entry.type {
            case 1, 7: Int(try reader.u8(entry.valueOffset + index))
            case 3: try u16(entry.valueOffset + index * 2)
            case 4, 13: try u32(entry.valueOffset + index * 4)
            default: throw .headerUnreadable(.tiff)
            }
        }
        func integers(_ entry: Entry) throws(ImagingError) -> [Int] {
            guard entry.count <= maximumCount else { throw .headerUnreadable(.tiff) }
            var values: [Int] = []
            values.reserveCapacity(entry.count)
            for index in 0..<entry.count { values.append(try integer(entry, index: index)) }
            return values
        }
        func text(_ entry: Entry?) throws(ImagingError) -> String? {
            guard let entry, entry.type == 2 || entry.type == 7, entry.count > 0 else { return nil }
            let length = min(entry.count, 64 * 1024)
            let bytes = try reader.bytes(entry.valueOffset..<(entry.valueOffset + length))
            return ExifReader.cleanText(Array(bytes.prefix { $0 != 0 }))
        }

        let ifd0 = try entries(at: try u32(4))
        func first(_ tag: Int) -> Entry? { ifd0.first { $0.tag == tag && $0.count >= 1 } }
        guard let widthEntry = first(256), let heightEntry = first(257) else { throw .headerUnreadable(.tiff) }
        let width = try integer(widthEntry)
        let height = try integer(heightEntry)
        let orientation = try first(274).map { entry throws(ImagingError) in try integer(entry) }.flatMap(Orientation.init(rawValue:)) ?? .up

        // Metadata is a bonus: a damaged EXIF or GPS directory does not make the image unreadable.
        var metadata = PhotoMetadata(description: try? text(first(270)), artist: try? text(first(315)))
        /// The first value of a RATIONAL (5) or SRATIONAL (10) entry, with a non-zero denominator.
        func rational(_ entry: Entry?) -> CameraSettings.Fraction? {
            guard let entry, entry.type == 5 || entry.type == 10, let numerator = try? u32(entry.valueOffset),
                let denominator = try? u32(entry.valueOffset + 4), denominator != 0
            else { return nil }
            return entry.type == 10
                ? CameraSettings.Fraction(numerator: Int(Int32(truncatingIfNeeded: numerator)), denominator: Int(Int32(truncatingIfNeeded: denominator)))
                : CameraSettings.Fraction(numerator: numerator, denominator: denominator)
        }
        var camera = CameraSettings()
        camera.make = try? text(first(271))
        camera.model = try? text(first(272))
        if let pointer = first(34665), let exifIFD = try? entries(at: try integer(pointer)) {
            func exif(_ tag: Int) -> Entry? { exifIFD.first { $0.tag == tag && $0.count >= 1 } }
            metadata.dateTaken = CaptureDateText.firstDate(
                CaptureDateText.exifDate(try? text(exif(36867)), offset: try? text(exif(36881))),
                CaptureDateText.exifDate(try? text(first(306)), offset: try? text(exif(36880))))
            camera.lens = (try? text(exif(42036))) ?? (try? text(exif(42035)))
            camera.exposureTime = rational(exif(33434)).flatMap { $0.numerator > 0 && ($0.value ?? 0) > 0 ? $0 : nil }
            camera.fNumber = rational(exif(33437))?.value.flatMap { $0 > 0 && $0 < 1000 ? $0 : nil }
            camera.focalLength = rational(exif(37386))?.value.flatMap { $0 > 0 && $0 < 100_000 ? $0 : nil }
            camera.exposureBias = rational(exif(37380))?.value.flatMap { abs($0) <= 100 ? $0 : nil }
            camera.iso = exif(34855).flatMap { try? integer($0) }.flatMap { $0 > 0 ? $0 : nil }
            camera.focalLength35mm = exif(41989).flatMap { try? integer($0) }.flatMap { $0 > 0 ? $0 : nil }
        }
        metadata.camera = camera.isEmpty ? nil : camera
        metadata.dateTaken = metadata.dateTaken ?? CaptureDateText.firstDate(try? text(first(306)))
        if let pointer = first(34853), let gpsIFD = try? entries(at: try integer(pointer)) {
            metadata.hasGPS = !gpsIFD.isEmpty
        }
        // Tag 700: the XMP packet (BYTE or UNDEFINED).
        if let entry = first(700), entry.type == 1 || entry.type == 7 {
            if entry.count > XMPReader.maximumSize {
                metadata.xmpProblem = XMPError.tooLarge(limit: XMPReader.maximumSize).description
            } else if let packet = try? reader.bytes(entry.valueOffset..<(entry.valueOffset + entry.count)) {
                metadata.apply(EmbeddedXMP.read(packet))
            }
        }

        var header = TIFFHeader(info: ImageInfo(format: .tiff, width: width, height: height, orientation: orientation, metadata: metadata))
        if let entry = first(258) { header.bitsPerSample = try integer(entry) }
        if let entry = first(277) { header.samplesPerPixel = try integer(entry) }
        if let entry = first(262) { header.photometric = try integer(entry) }
        if profile, let entry = first(34675), entry.type == 7 || entry.type == 1 {
            guard entry.count <= ColourProfileReader.maximumSize else { throw .decodeFailed(.tiff, detail: "the ICC profile is too large") }
            header.iccProfile = try reader.bytes(entry.valueOffset..<(entry.valueOffset + entry.count))
        }
        if extents {
            let pairs = [(273, 279), (324, 325)]  // strips, tiles
            for (offsetsTag, countsTag) in pairs {
                guard let offsets = first(offsetsTag), let counts = first(countsTag) else { continue }
                let starts = try integers(offsets)
                let lengths = try integers(counts)
                header.dataExtents += zip(starts, lengths).map { (offset: $0, count: $1) }
            }
        }
        return header
    }
}
