/// The colour profile a photo carries: how its pixel values are to be read.
public enum ColourProfile: Sendable, Hashable {
    /// An ICC profile, as embedded (JPEG APP2 `ICC_PROFILE`, PNG `iCCP` once inflated, WebP
    /// `ICCP`, TIFF tag 34675, HEIF/AVIF `colr` of type `prof` or `rICC`).
    case icc([UInt8])
    /// A HEIF/AVIF `nclx` description (ITU-T H.273 code points).
    case nclx(primaries: Int, transfer: Int)
}

/// Why an embedded profile cannot be used.
public enum ColourProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The profile's container is damaged (missing parts, bad compression).
    case damaged(String)
    /// Little CMS cannot read the profile, or make a transform from it.
    case unreadable(String)

    public var description: String {
        switch self {
        case .damaged(let detail): "its colour profile is damaged (\(detail))"
        case .unreadable(let detail): "its colour profile cannot be read (\(detail))"
        }
    }
}

/// Finds the colour profile embedded in an image file, without decoding the picture.
enum ColourProfileReader {
    /// The largest profile read (camera and printer profiles are at most a few hundred KB).
    static let maximumSize = 4 * 1024 * 1024

    /// The profile of `bytes` (in `format`), nil when it carries none.
    static func read(_ bytes: [UInt8], format: ImageFormat) throws(ColourProfileError) -> ColourProfile? {
        let reader = ByteReader(bytes)
        reader.format = format
        do throws(ImagingError) {
            switch format {
            case .jpeg: return try jpeg(reader).map(ColourProfile.icc)
            case .png: return try png(reader)
            case .webp: return try webp(reader).map(ColourProfile.icc)
            case .heif, .avif: return try ISOMediaHeader.primaryImage(reader, format: format).colour
            case .tiff: return try TIFFHeader.read(reader, profile: true).iccProfile.map(ColourProfile.icc)
            case .gif, .bmp: return nil
            }
        } catch .decodeFailed(_, let detail) {
            throw .damaged(detail)
        } catch .truncated {
            throw .damaged("the file ends before it does")
        } catch {
            throw .damaged("\(error)")
        }
    }

    // MARK: JPEG

    /// The APP2 signature of an ICC profile part; a sequence number (1-based) and the number of
    /// parts follow.
    static let jpegSignature = Array("ICC_PROFILE".utf8) + [0]

    /// The profile in the JPEG's APP2 segments, reassembled in the order of their sequence numbers.
    static func jpeg(_ reader: ByteReader) throws(ImagingError) -> [UInt8]? {
        var parts: [Int: [UInt8]] = [:]
        var declaredCount: Int?
        var problem: String?
        try ImageProbe.walkJPEG(reader) { segment throws(ImagingError) in
            let headerSize = jpegSignature.count + 2
            guard segment.marker == 0xE2, segment.end - segment.dataStart >= headerSize,
                try reader.bytes(segment.dataStart..<(segment.dataStart + jpegSignature.count)) == jpegSignature
            else { return true }
            let sequence = Int(try reader.u8(segment.dataStart + jpegSignature.count))
            let count = Int(try reader.u8(segment.dataStart + jpegSignature.count + 1))
            if declaredCount == nil { declaredCount = count }
            if count != declaredCount || sequence < 1 || sequence > count || parts[sequence] != nil {
                problem = "part \(sequence) of \(count) does not fit the others"
            }
            parts[sequence] = try reader.bytes((segment.dataStart + headerSize)..<segment.end)
            return true
        }
        guard let declaredCount else { return nil }
        if let problem { throw .decodeFailed(.jpeg, detail: problem) }
        guard parts.count == declaredCount else {
            throw .decodeFailed(.jpeg, detail: "\(parts.count) of its \(declaredCount) parts are present")
        }
        return (1...declaredCount).flatMap { parts[$0]! }
    }

    // MARK: PNG

    /// The profile of a PNG's `iCCP` chunk, inflated (an `sRGB` chunk, like none, means sRGB: nil).
    static func png(_ reader: ByteReader) throws(ImagingError) -> ColourProfile? {
        var position = 8
        while position + 12 <= reader.count {
            let length = try reader.u32be(position)
            let type = try reader.fourCC(position + 4)
            let data = position + 8
            guard length <= reader.count - data - 4 else { throw .truncated(.png) }
            switch type {
            case "iCCP":
                let chunk = try reader.bytes(data..<(data + length))
                // A name of 1-79 bytes, a NUL, the compression method (0: zlib), the stream.
                guard let nul = chunk.prefix(80).firstIndex(of: 0), nul >= 1, nul + 1 < chunk.count, chunk[nul + 1] == 0 else {
                    throw .decodeFailed(.png, detail: "the iCCP chunk's header is damaged")
                }
                do throws(Zlib.Failure) {
                    return .icc(try Zlib.inflate(Array(chunk[(nul + 2)...]), limit: maximumSize))
                } catch .tooLarge {
                    throw .decodeFailed(.png, detail: "the iCCP profile is larger than \(maximumSize / 1024 / 1024) MB")
                } catch {
                    throw .decodeFailed(.png, detail: "the iCCP chunk's compressed data is damaged")
                }
            case "IDAT", "IEND":
                return nil  // profiles come before the pixels
            default:
                position = data + length + 4
            }
        }
        return nil
    }

    // MARK: WebP

    /// The profile of an extended WebP's `ICCP` chunk.
    static func webp(_ reader: ByteReader) throws(ImagingError) -> [UInt8]? {
        guard try reader.fourCC(12) == "VP8X" else { return nil }
        var position = 12
        while position + 8 <= reader.count {
            let type = try reader.fourCC(position)
            let size = try reader.u32le(position + 4)
            let data = position + 8
            guard size <= reader.count - data else { throw .truncated(.webp) }
            if type == "ICCP" {
                guard size <= maximumSize else { throw .decodeFailed(.webp, detail: "the ICCP profile is too large") }
                return try reader.bytes(data..<(data + size))
            }
            if type == "VP8 " || type == "VP8L" || type == "ANMF" { return nil }
            position = data + size + (size & 1)
        }
        return nil
    }
}
