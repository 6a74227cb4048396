/// Reads an image's format, size, orientation and metadata from its header, without decoding.
public enum ImageProbe {
    /// The version of what a probe reads: raised whenever a probe learns to read more (the
    /// IPTC caption: 2; XMP, IPTC title and keywords, camera settings, rating: 3; EXIF time
    /// zones, partial and unreadable dates, credits, face regions, places, tools' internal
    /// keywords left out: 4), so that header information kept from an earlier build is read
    /// again.
    public static let version = 4

    /// Probes an image held in memory.
    public static func probe(_ bytes: [UInt8]) throws(ImagingError) -> ImageInfo {
        try probe(ByteReader(bytes))
    }

    /// Probes a file, reading its first 64 KiB and, only when the header points further
    /// (a long JPEG preamble, a TIFF directory at the end, HEIF boxes), the blocks it needs.
    public static func probe(fileAtPath path: String) throws(ImagingError) -> ImageInfo {
        try probe(ByteReader(path: path))
    }

    /// Probes a file already opened and checked (``SourceFile``), through its descriptor;
    /// `path` names it in errors.
    public static func probe(_ file: SourceFile, path: String) throws(ImagingError) -> ImageInfo {
        try probe(ByteReader(file: file, path: path))
    }

    static func probe(_ reader: ByteReader) throws(ImagingError) -> ImageInfo {
        guard reader.count > 0 else { throw .empty }
        guard let format = ImageFormat.sniff(try reader.prefix(256)) else { throw .unrecognizedFormat }
        reader.format = format
        let info: ImageInfo
        switch format {
        case .jpeg: info = try jpeg(reader)
        case .png: info = try png(reader)
        case .gif: info = ImageInfo(format: .gif, width: try reader.u16le(6), height: try reader.u16le(8))
        case .webp: info = try webp(reader)
        case .bmp: info = try bmp(reader)
        case .tiff: info = try TIFFHeader.read(reader).info
        case .heif, .avif: info = try ISOMediaHeader.read(reader, format: format)
        }
        guard info.pixelWidth > 0, info.pixelHeight > 0, info.displayWidth > 0, info.displayHeight > 0 else {
            throw .headerUnreadable(format)
        }
        return info
    }

    // MARK: JPEG

    /// Start-of-frame markers (baseline, extended, progressive, lossless, arithmetic); not
    /// DHT (C4), JPG (C8) or DAC (CC), which share the range.
    static let startOfFrameMarkers: Set<UInt8> = [
        0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
    ]

    /// One marker segment of a JPEG header.
    struct JPEGSegment {
        var marker: UInt8
        /// Offset of the segment's data (after the length field).
        var dataStart: Int
        /// Offset just past the segment.
        var end: Int
    }

    /// Walks the marker segments after SOI up to and including the first start of scan (SOS),
    /// calling `visit` for each until it returns false.
    static func walkJPEG(_ reader: ByteReader, _ visit: (JPEGSegment) throws(ImagingError) -> Bool) throws(ImagingError) {
        var position = 2
        while true {
            guard try reader.u8(position) == 0xFF else { throw .headerUnreadable(.jpeg) }
            var marker = try reader.u8(position + 1)
            while marker == 0xFF {  // fill bytes before a marker
                position += 1
                marker = try reader.u8(position + 1)
            }
            position += 2
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 { throw .headerUnreadable(.jpeg) }  // end of image before any frame
            let length = try reader.u16be(position)
            guard length >= 2 else { throw .headerUnreadable(.jpeg) }
            let segment = JPEGSegment(marker: marker, dataStart: position + 2, end: position + length)
            guard try visit(segment), marker != 0xDA else { return }
            position = segment.end
        }
    }

    private static func jpeg(_ reader: ByteReader) throws(ImagingError) -> ImageInfo {
        var exif: ExifFields?
        var photoshopResources: [UInt8] = []
        var size: (width: Int, height: Int)?
        var xmp = EmbeddedXMP.JPEGPackets()
        try walkJPEG(reader) { segment throws(ImagingError) in
            if segment.marker == 0xE1, segment.end - segment.dataStart > EmbeddedXMP.standardSignature.count,
                try reader.u8(segment.dataStart) == UInt8(ascii: "h")
            {
                xmp.take(try reader.bytes(segment.dataStart..<segment.end))
            }
            let headerSize = IPTCReader.header.count
            if segment.marker == 0xED, segment.end - segment.dataStart > headerSize,
                try reader.bytes(segment.dataStart..<(segment.dataStart + headerSize)) == IPTCReader.header
            {
                photoshopResources += try reader.bytes((segment.dataStart + headerSize)..<segment.end)
            }
            if segment.marker == 0xE1, exif == nil, segment.end - segment.dataStart > 14,
                try reader.bytes(segment.dataStart..<(segment.dataStart + 6)) == Array("Exif".utf8) + [0, 0]
            {
                exif = ExifReader.read(try reader.bytes(segment.dataStart..<segment.end)) ?? ExifFields()
            }
            if startOfFrameMarkers.contains(segment.marker) {
                // precision (1), height (2), width (2)
                size = (try reader.u16be(segment.dataStart + 3), try reader.u16be(segment.dataStart + 1))
                return false
            }
            if segment.marker == 0xDA { throw .headerUnreadable(.jpeg) }  // a scan before any frame header
            return true
        }
        guard let size else { throw .headerUnreadable(.jpeg) }
        var fields = exif ?? ExifFields()
        // What EXIF lacks, from IPTC, where most photo tools write the caption; then the XMP
        // packet's fields over both.
        let iptc = IPTCReader.fields(inResources: photoshopResources)
        fields.metadata.description = fields.metadata.description ?? iptc.caption
        fields.metadata.title = iptc.title
        fields.metadata.keywords = iptc.keywords.isEmpty ? nil : iptc.keywords
        fields.metadata.artist = fields.metadata.artist ?? iptc.byline
        fields.metadata.copyright = fields.metadata.copyright ?? iptc.copyright
        (fields.metadata.sublocation, fields.metadata.city, fields.metadata.state, fields.metadata.country) =
            (iptc.sublocation, iptc.city, iptc.state, iptc.country)
        fields.metadata.apply(EmbeddedXMP.read(xmp))
        return ImageInfo(format: .jpeg, width: size.width, height: size.height, orientation: fields.orientation, metadata: fields.metadata)
    }

    // MARK: PNG

    private static func png(_ reader: ByteReader) throws(ImagingError) -> ImageInfo {
        guard try reader.u32be(8) >= 13, try reader.fourCC(12) == "IHDR" else { throw .headerUnreadable(.png) }
        var metadata = PhotoMetadata()
        metadata.apply(EmbeddedXMP.read(EmbeddedXMP.png(reader)))
        return ImageInfo(format: .png, width: try reader.u32be(16), height: try reader.u32be(20), metadata: metadata)
    }

    // MARK: WebP

    private static func webp(_ reader: ByteReader) throws(ImagingError) -> ImageInfo {
        let width: Int
        let height: Int
        switch try reader.fourCC(12) {
        case "VP8 ":  // lossy: frame tag (3), start code 9D 01 2A, 14-bit sizes
            guard try reader.bytes(23..<26) == [0x9D, 0x01, 0x2A] else { throw .headerUnreadable(.webp) }
            width = try reader.u16le(26) & 0x3FFF
            height = try reader.u16le(28) & 0x3FFF
        case "VP8L":  // lossless: signature 2F, then 14 bits each of width - 1 and height - 1
            guard try reader.u8(20) == 0x2F else { throw .headerUnreadable(.webp) }
            let bits = try reader.u32le(21)
            width = (bits & 0x3FFF) + 1
            height = ((bits >> 14) & 0x3FFF) + 1
        case "VP8X":  // extended: 24-bit canvas width - 1 and height - 1
            width = (try reader.u16le(24) | Int(try reader.u8(26)) << 16) + 1
            height = (try reader.u16le(27) | Int(try reader.u8(29)) << 16) + 1
        default:
            throw .headerUnreadable(.webp)
        }
        return ImageInfo(format: .webp, width: width, height: height)
    }

    // MARK: BMP

    private static func bmp(_ reader: ByteReader) throws(ImagingError) -> ImageInfo {
        let headerSize = try reader.u32le(14)
        if headerSize == 12 {  // OS/2 1.x: 16-bit sizes
            return ImageInfo(format: .bmp, width: try reader.u16le(18), height: try reader.u16le(20))
        }
        let width = Int(Int32(truncatingIfNeeded: try reader.u32le(18)))
        let height = Int(Int32(truncatingIfNeeded: try reader.u32le(22)))  // negative: stored top-down
        guard width > 0, height != 0 else { throw .headerUnreadable(.bmp) }
        return ImageInfo(format: .bmp, width: width, height: abs(height))
    }
}
