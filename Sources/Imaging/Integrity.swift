/// Cheap structural checks on the complete data, made after the pixel limit and before libgd
/// decodes anything. Some of gd's decoders accept damaged data silently (a truncated GIF or
/// TIFF comes back partly empty; a truncated JPEG only warns, and only if no other warning came
/// first), and some allocate the whole picture before noticing that the data is missing.
enum Integrity {
    /// What the checks learnt that decoding needs.
    struct Findings {
        /// A GIF's first frame, which gd decodes without its place on the logical screen.
        var gifFrame: (left: Int, top: Int, width: Int, height: Int)?
        /// A TIFF's directory, for the orientation gd's decoder has already applied.
        var tiff: TIFFHeader?
    }

    static func check(_ reader: ByteReader, info: ImageInfo) throws(ImagingError) -> Findings {
        var findings = Findings()
        switch info.format {
        case .jpeg: try jpeg(reader)
        case .png: try png(reader, info: info)
        case .gif: findings.gifFrame = try gif(reader)
        case .webp: try webp(reader)
        case .bmp: try bmp(reader, info: info)
        case .tiff: findings.tiff = try tiff(reader)
        case .heif, .avif: break  // libheif and libavif check their data
        }
        return findings
    }

    /// The image must end with an EOI marker after its first scan. Inside entropy-coded data
    /// FF is always followed by 00 or a restart marker, so an FF D9 after the scan header is
    /// the real end; anything after it (a trailer, a motion photo) is ignored.
    private static func jpeg(_ reader: ByteReader) throws(ImagingError) {
        var scanStart: Int?
        try ImageProbe.walkJPEG(reader) { segment throws(ImagingError) in
            if segment.marker == 0xDA { scanStart = segment.end }
            return true
        }
        guard let scanStart, try reader.lastOffset(of: 0xFF, 0xD9, in: scanStart..<reader.count) != nil else {
            throw .truncated(.jpeg)
        }
    }

    /// Deflate compresses at most about 1032:1, so a PNG shorter than its raw pixel rows divided
    /// by that cannot hold them. This refuses tiny files that claim huge sizes before gd
    /// allocates the picture (libpng would notice the missing data only afterwards).
    private static func png(_ reader: ByteReader, info: ImageInfo) throws(ImagingError) {
        let bitDepth = Int(try reader.u8(24))
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(try reader.u8(25))] ?? 4
        let rowBytes = (info.pixelWidth * channels * max(bitDepth, 1) + 7) / 8 + 1
        let raw = Double(rowBytes) * Double(info.pixelHeight)
        guard Double(reader.count) >= raw / 1032 else { throw .truncated(.png) }
    }

    /// The first image's LZW data must be complete; gd decodes a cut one without complaint.
    private static func gif(_ reader: ByteReader) throws(ImagingError) -> (left: Int, top: Int, width: Int, height: Int) {
        var position = 13
        let flags = try reader.u8(10)
        if flags & 0x80 != 0 { position += 3 << (Int(flags & 7) + 1) }  // global colour table
        while true {
            switch try reader.u8(position) {
            case 0x21:  // extension: label, then data sub-blocks
                position = try skipSubBlocks(reader, from: position + 2)
            case 0x2C:  // image descriptor
                let frame = (
                    left: try reader.u16le(position + 1), top: try reader.u16le(position + 3),
                    width: try reader.u16le(position + 5), height: try reader.u16le(position + 7))
                let imageFlags = try reader.u8(position + 9)
                position += 10
                if imageFlags & 0x80 != 0 { position += 3 << (Int(imageFlags & 7) + 1) }  // local colour table
                position += 1  // LZW minimum code size
                _ = try skipSubBlocks(reader, from: position)
                return frame
            case 0x3B:  // trailer before any image
                throw .decodeFailed(.gif, detail: "there is no picture in it")
            default:  // like gd, skip a stray byte
                position += 1
            }
        }
    }

    private static func skipSubBlocks(_ reader: ByteReader, from start: Int) throws(ImagingError) -> Int {
        var position = start
        while true {
            let length = Int(try reader.u8(position))
            position += 1
            if length == 0 { return position }
            position += length
            guard position <= reader.count else { throw .truncated(.gif) }
        }
    }

    /// The RIFF container's size must fit in the data, and the picture must not be animated:
    /// gd decodes still WebP only, and for an animation it reports a failed allocation, which
    /// would send the user looking for a memory problem.
    private static func webp(_ reader: ByteReader) throws(ImagingError) {
        guard try reader.u32le(4) + 8 <= reader.count else { throw .truncated(.webp) }
        // VP8X flags: ICC 0x20, alpha 0x10, EXIF 0x08, XMP 0x04, animation 0x02.
        if try reader.fourCC(12) == "VP8X", try reader.u8(20) & 0x02 != 0 {
            throw .decodeFailed(.webp, detail: "animated WebP is not supported; export a still image or a GIF")
        }
    }

    /// Uncompressed rows must all be there (gd would allocate the picture, then fail).
    private static func bmp(_ reader: ByteReader, info: ImageInfo) throws(ImagingError) {
        let headerSize = try reader.u32le(14)
        guard headerSize >= 40 else { return }
        let compression = try reader.u32le(30)
        guard compression == 0 || compression == 3 else { return }  // RGB or bit fields; RLE can be tiny
        let bitCount = try reader.u16le(28)
        let dataOffset = try reader.u32le(10)
        let rowBytes = (info.pixelWidth * bitCount + 31) / 32 * 4
        guard Double(reader.count) >= Double(dataOffset) + Double(rowBytes) * Double(info.pixelHeight) else {
            throw .truncated(.bmp)
        }
    }

    /// Every strip or tile must lie inside the data (libtiff would fill missing ones with nothing).
    private static func tiff(_ reader: ByteReader) throws(ImagingError) -> TIFFHeader {
        let header = try TIFFHeader.read(reader, extents: true)
        for extent in header.dataExtents {
            guard extent.offset >= 0, extent.count >= 0, extent.offset + extent.count <= reader.count else {
                throw .truncated(.tiff)
            }
        }
        return header
    }
}
