import Foundation

/// Reads an image's format, size, orientation and metadata from its header, without decoding.
public enum ImageProbe {
    /// Probes an image held in memory.
    public static func probe(_ bytes: [UInt8]) throws(ImagingError) -> ImageInfo {
        switch parse(bytes, isComplete: true) {
        case .info(let info): return info
        case .failure(let error): throw error
        case .needMore: throw .unrecognizedFormat  // unreachable with complete data
        }
    }

    /// Probes a file, reading only its first bytes (64 KiB) and more only when the header needs it.
    public static func probe(fileAtPath path: String) throws(ImagingError) -> ImageInfo {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .io(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        var chunk = 64 * 1024
        while true {
            let data: Data
            do {
                data = try handle.read(upToCount: chunk) ?? Data()
            } catch {
                throw .io(path: path, reason: (error as NSError).localizedDescription)
            }
            bytes.append(contentsOf: data)
            let complete = data.count < chunk
            switch parse(bytes, isComplete: complete) {
            case .info(let info): return info
            case .failure(let error): throw error
            case .needMore:
                if complete { throw .headerUnreadable(ImageFormat.sniff(bytes) ?? .jpeg) }
                chunk = min(chunk * 4, 64 * 1024 * 1024)
            }
        }
    }

    enum Outcome {
        case info(ImageInfo)
        case needMore
        case failure(ImagingError)
    }

    static func parse(_ bytes: [UInt8], isComplete: Bool) -> Outcome {
        if bytes.isEmpty { return isComplete ? .failure(.empty) : .needMore }
        guard let format = ImageFormat.sniff(bytes) else {
            return bytes.count < 32 && !isComplete ? .needMore : .failure(.unrecognizedFormat)
        }
        let result: Outcome
        switch format {
        case .jpeg: result = jpeg(bytes)
        case .png: result = fixed(format, bytes, needs: 24) { (Int($0.u32be(16)), Int($0.u32be(20))) }
        case .gif: result = fixed(format, bytes, needs: 10) { (Int($0.u16le(6)), Int($0.u16le(8))) }
        case .webp: result = webp(bytes)
        case .bmp: result = bmp(bytes)
        case .tiff: result = tiff(bytes)
        case .heif, .avif: result = isoMedia(format, bytes)
        }
        if case .needMore = result, isComplete {
            return .failure(format == .jpeg || format == .png ? .truncated(format) : .headerUnreadable(format))
        }
        if case .info(let info) = result, info.pixelWidth <= 0 || info.pixelHeight <= 0 {
            return .failure(.headerUnreadable(format))
        }
        return result
    }

    private static func fixed(_ format: ImageFormat, _ bytes: [UInt8], needs: Int, _ read: (Bytes) -> (Int, Int)) -> Outcome {
        guard bytes.count >= needs else { return .needMore }
        let (width, height) = read(Bytes(bytes))
        return .info(ImageInfo(format: format, width: width, height: height, orientation: .up, metadata: PhotoMetadata()))
    }

    // MARK: JPEG

    static let startOfFrameMarkers: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]

    private static func jpeg(_ bytes: [UInt8]) -> Outcome {
        let b = Bytes(bytes)
        var position = 2
        var exif: ExifFields?
        while true {
            guard position + 4 <= bytes.count else { return .needMore }
            guard bytes[position] == 0xFF else { return .failure(.headerUnreadable(.jpeg)) }
            var marker = bytes[position + 1]
            while marker == 0xFF {  // fill bytes
                position += 1
                guard position + 4 <= bytes.count else { return .needMore }
                marker = bytes[position + 1]
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                position += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { return .failure(.headerUnreadable(.jpeg)) }
            let length = Int(b.u16be(position + 2))
            guard length >= 2 else { return .failure(.headerUnreadable(.jpeg)) }
            let dataStart = position + 4
            let segmentEnd = position + 2 + length
            if marker == 0xE1, exif == nil {
                guard segmentEnd <= bytes.count else { return .needMore }
                let payload = Array(bytes[dataStart..<segmentEnd])
                if payload.starts(with: Array("Exif".utf8) + [0, 0]) {
                    exif = ExifReader.read(exifSegment: payload)
                }
            }
            if startOfFrameMarkers.contains(marker) {
                guard dataStart + 5 <= bytes.count else { return .needMore }
                let height = Int(b.u16be(dataStart + 1))
                let width = Int(b.u16be(dataStart + 3))
                let fields = exif ?? ExifFields()
                return .info(ImageInfo(format: .jpeg, width: width, height: height,
                                       orientation: fields.orientation, metadata: fields.metadata))
            }
            position = segmentEnd
        }
    }

    // MARK: WebP

    private static func webp(_ bytes: [UInt8]) -> Outcome {
        guard bytes.count >= 30 else { return .needMore }
        let b = Bytes(bytes)
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        let size: (Int, Int)
        switch chunk {
        case "VP8 ":
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return .failure(.headerUnreadable(.webp)) }
            size = (Int(b.u16le(26) & 0x3FFF), Int(b.u16le(28) & 0x3FFF))
        case "VP8L":
            guard bytes[20] == 0x2F else { return .failure(.headerUnreadable(.webp)) }
            let bits = b.u32le(21)
            size = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            size = (Int(b.u24le(24)) + 1, Int(b.u24le(27)) + 1)
        default:
            return .failure(.headerUnreadable(.webp))
        }
        return .info(ImageInfo(format: .webp, width: size.0, height: size.1, orientation: .up, metadata: PhotoMetadata()))
    }

    // MARK: BMP

    private static func bmp(_ bytes: [UInt8]) -> Outcome {
        guard bytes.count >= 26 else { return .needMore }
        let b = Bytes(bytes)
        let headerSize = b.u32le(14)
        let width: Int
        let height: Int
        if headerSize == 12 {
            width = Int(b.u16le(18))
            height = Int(b.u16le(20))
        } else {
            width = Int(Int32(bitPattern: b.u32le(18)))
            height = abs(Int(Int32(bitPattern: b.u32le(22))))
        }
        guard width > 0, height > 0 else { return .failure(.headerUnreadable(.bmp)) }
        return .info(ImageInfo(format: .bmp, width: width, height: height, orientation: .up, metadata: PhotoMetadata()))
    }

    // MARK: TIFF

    private static func tiff(_ bytes: [UInt8]) -> Outcome {
        guard bytes.count >= 8 else { return .needMore }
        let b = Bytes(bytes)
        let little = bytes[0] == 0x49
        let u16 = { (offset: Int) in little ? b.u16le(offset) : b.u16be(offset) }
        let u32 = { (offset: Int) in little ? b.u32le(offset) : b.u32be(offset) }
        let ifd = Int(u32(4))
        guard ifd >= 8 else { return .failure(.headerUnreadable(.tiff)) }
        guard ifd + 2 <= bytes.count else { return .needMore }
        let count = Int(u16(ifd))
        guard ifd + 2 + count * 12 <= bytes.count else { return .needMore }
        var width = 0
        var height = 0
        var orientation = Orientation.up
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            let tag = u16(entry)
            let type = u16(entry + 2)
            let value = type == 3 ? Int(u16(entry + 8)) : Int(u32(entry + 8))
            switch tag {
            case 256: width = value
            case 257: height = value
            case 274: orientation = Orientation(rawValue: value) ?? .up
            default: break
            }
        }
        guard width > 0, height > 0 else { return .failure(.headerUnreadable(.tiff)) }
        let fields = ExifReader.read(exifSegment: Array("Exif".utf8) + [0, 0] + bytes) ?? ExifFields()
        return .info(ImageInfo(format: .tiff, width: width, height: height, orientation: orientation, metadata: fields.metadata))
    }

    // MARK: HEIF and AVIF

    private static func isoMedia(_ format: ImageFormat, _ bytes: [UInt8]) -> Outcome {
        switch BoxReader.primaryImageProperties(bytes) {
        case .needMore: return .needMore
        case .failure: return .failure(.headerUnreadable(format))
        case .found(let width, let height, let rotation, let mirror):
            let turned = rotation % 2 == 1
            // libheif applies rotation and mirroring while decoding HEIF; libavif does not, so
            // an AVIF's rotation is reported as an orientation still to apply.
            var orientation = Orientation.up
            if format == .avif, mirror == nil {
                orientation = [Orientation.up, .left, .down, .right][rotation % 4]
            }
            return .info(ImageInfo(
                format: format, pixelWidth: width, pixelHeight: height, orientation: orientation,
                displayWidth: turned ? height : width, displayHeight: turned ? width : height,
                metadata: PhotoMetadata()))
        }
    }
}

/// Big- and little-endian reads from a byte array (the caller checks bounds).
struct Bytes {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func u16be(_ i: Int) -> UInt16 { UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) }
    func u16le(_ i: Int) -> UInt16 { UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]) }
    func u24le(_ i: Int) -> UInt32 { UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i]) }
    func u32be(_ i: Int) -> UInt32 { UInt32(u16be(i)) << 16 | UInt32(u16be(i + 2)) }
    func u32le(_ i: Int) -> UInt32 { UInt32(u16le(i + 2)) << 16 | UInt32(u16le(i)) }
    func u64be(_ i: Int) -> UInt64 { UInt64(u32be(i)) << 32 | UInt64(u32be(i + 4)) }
}

/// Just enough of ISO base media boxes (HEIF, AVIF) to find the primary image's size and turn.
enum BoxReader {
    struct Box {
        var type: String
        var start: Int
        var contentStart: Int
        var end: Int
    }

    enum Properties {
        case found(width: Int, height: Int, rotation: Int, mirror: Int?)
        case needMore
        case failure
    }

    /// Boxes in `range`, or nil when one runs past the data (`truncatedOK` stops there instead).
    static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [Box]? {
        let b = Bytes(bytes)
        var result: [Box] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound {
            var size = Int(b.u32be(position))
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard position + 16 <= range.upperBound else { return nil }
                let large = b.u64be(position + 8)
                guard large <= UInt64(Int.max) else { return nil }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - position
            }
            guard size >= header else { return nil }
            let end = position + size
            result.append(Box(type: type, start: position, contentStart: position + header, end: end))
            if end > range.upperBound { return result }
            position = end
        }
        return result
    }

    /// The major and compatible brands of the `ftyp` box.
    static func brands(_ bytes: [UInt8]) -> [String]? {
        guard bytes.count >= 16 else { return nil }
        let size = Int(Bytes(bytes).u32be(0))
        guard size >= 16 else { return nil }
        let end = min(size, bytes.count)
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var position = 16
        while position + 4 <= end {
            brands.append(String(decoding: bytes[position..<(position + 4)], as: UTF8.self))
            position += 4
        }
        return brands
    }

    static func primaryImageProperties(_ bytes: [UInt8]) -> Properties {
        guard let top = boxes(bytes, in: 0..<bytes.count) else { return .failure }
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            return top.last.map { $0.end > bytes.count } == true || top.isEmpty ? .needMore : .failure
        }
        guard meta.end <= bytes.count else { return .needMore }
        let b = Bytes(bytes)
        guard let children = boxes(bytes, in: (meta.contentStart + 4)..<meta.end) else { return .failure }
        var primary: Int?
        if let pitm = children.first(where: { $0.type == "pitm" }), pitm.contentStart + 6 <= pitm.end {
            primary = bytes[pitm.contentStart] == 0 ? Int(b.u16be(pitm.contentStart + 4)) : Int(b.u32be(pitm.contentStart + 4))
        }
        guard let iprp = children.first(where: { $0.type == "iprp" }),
              let iprpChildren = boxes(bytes, in: iprp.contentStart..<iprp.end),
              let ipco = iprpChildren.first(where: { $0.type == "ipco" }),
              let properties = boxes(bytes, in: ipco.contentStart..<ipco.end)
        else { return .failure }

        // Which properties belong to the primary item (1-based indices into ipco).
        var associated: [Int]?
        if let primary, let ipma = iprpChildren.first(where: { $0.type == "ipma" }), ipma.contentStart + 8 <= ipma.end {
            let version = bytes[ipma.contentStart]
            let flags = b.u32be(ipma.contentStart) & 0xFFFFFF
            var position = ipma.contentStart + 4
            let entries = Int(b.u32be(position))
            position += 4
            for _ in 0..<entries {
                guard position + (version < 1 ? 3 : 5) <= ipma.end else { break }
                let item = version < 1 ? Int(b.u16be(position)) : Int(b.u32be(position))
                position += version < 1 ? 2 : 4
                let count = Int(bytes[position])
                position += 1
                var indices: [Int] = []
                for _ in 0..<count {
                    if flags & 1 == 1 {
                        guard position + 2 <= ipma.end else { break }
                        indices.append(Int(b.u16be(position) & 0x7FFF))
                        position += 2
                    } else {
                        guard position + 1 <= ipma.end else { break }
                        indices.append(Int(bytes[position] & 0x7F))
                        position += 1
                    }
                }
                if item == primary { associated = indices }
            }
        }
        let chosen: [Box] = associated.map { indices in
            indices.compactMap { $0 >= 1 && $0 <= properties.count ? properties[$0 - 1] : nil }
        } ?? properties
        guard let ispe = chosen.first(where: { $0.type == "ispe" }), ispe.contentStart + 12 <= ispe.end else {
            return .failure
        }
        let width = Int(b.u32be(ispe.contentStart + 4))
        let height = Int(b.u32be(ispe.contentStart + 8))
        var rotation = 0
        if let irot = chosen.first(where: { $0.type == "irot" }), irot.contentStart < irot.end {
            rotation = Int(bytes[irot.contentStart] & 3)
        }
        var mirror: Int?
        if let imir = chosen.first(where: { $0.type == "imir" }), imir.contentStart < imir.end {
            mirror = Int(bytes[imir.contentStart] & 1)
        }
        return .found(width: width, height: height, rotation: rotation, mirror: mirror)
    }
}
