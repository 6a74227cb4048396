/// Just enough of the ISO base media file format (HEIF, AVIF) to find the primary image's size
/// (`ispe`), its transformations (`irot`, `imir`, in association order) and its EXIF item,
/// reading the `meta` box and nothing of the media data but the EXIF block. The EXIF orientation
/// of a HEIF file is ignored: `irot`/`imir` say the same (cameras write both), and they are what
/// HEIF readers apply.
enum ISOMediaHeader {
    /// The largest `meta` box read (a phone photo's is a few kilobytes).
    static let maximumMetaSize = 16 * 1024 * 1024

    struct Box {
        var type: String
        /// Offset of the box's content (after its header).
        var contentStart: Int
        /// Offset just past the box.
        var end: Int
    }

    /// A transformative property of the primary image. (`clap`, the clean aperture, is left
    /// out: libgd decodes the whole coded picture and crops nothing.)
    enum Transform: Equatable {
        case rotation(anticlockwiseQuarterTurns: Int)
        case mirror(axis: Int)
    }

    struct PrimaryImage {
        var width: Int
        var height: Int
        var transforms: [Transform]
        var exif: [UInt8]?
        /// The XMP packet, if the file has one.
        var xmp: [UInt8]? = nil
        /// The colour description of its `colr` boxes: an ICC profile (`prof`, `rICC`) over an
        /// `nclx` one when it has both, as HEIF readers do.
        var colour: ColourProfile? = nil
    }

    static func read(_ reader: ByteReader, format: ImageFormat) throws(ImagingError) -> ImageInfo {
        let primary = try primaryImage(reader, format: format)
        var metadata = primary.exif.flatMap(ExifReader.read)?.metadata ?? PhotoMetadata()
        metadata.apply(EmbeddedXMP.read(primary.xmp))
        var orientation = Orientation.up
        for transform in primary.transforms {
            switch transform {
            case .rotation(let turns): orientation = orientation.followed(by: .rotation(anticlockwiseQuarterTurns: turns))
            case .mirror(let axis): orientation = orientation.followed(by: .mirror(axis: axis))
            }
        }
        // libgd decodes HEIF with libheif's `ignore_transformations` set, and libavif never
        // applies them: both come out as stored, and the turn is left to `oriented(_:)`.
        return ImageInfo(format: format, width: primary.width, height: primary.height, orientation: orientation, metadata: metadata)
    }

    /// `lower..<upper`, or a refusal when a box is too short to hold the fields before `lower`
    /// (a Range with its bounds crossed would stop the program).
    static func span(_ lower: Int, _ upper: Int, format: ImageFormat) throws(ImagingError) -> Range<Int> {
        guard lower <= upper else { throw .headerUnreadable(format) }
        return lower..<upper
    }

    /// The boxes in `range` of `reader`. A box running past the range is an error.
    static func boxes(_ reader: ByteReader, in range: Range<Int>, format: ImageFormat) throws(ImagingError) -> [Box] {
        var result: [Box] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound {
            var size = try reader.u32be(position)
            let type = try reader.fourCC(position + 4)
            var header = 8
            if size == 1 {
                let large = try reader.u64be(position + 8)
                guard case .success(let checked) = CheckedNumber.integer(large, field: "box size", in: 0...(1 << 40)) else {
                    throw .headerUnreadable(format)
                }
                size = checked
                header = 16
            } else if size == 0 {
                size = range.upperBound - position  // to the end
            }
            guard size >= header else { throw .headerUnreadable(format) }
            let end = position + size
            guard end <= range.upperBound else { throw range.upperBound == reader.count ? .truncated(format) : .headerUnreadable(format) }
            result.append(Box(type: type, contentStart: position + header, end: end))
            position = end
        }
        return result
    }

    static func primaryImage(_ file: ByteReader, format: ImageFormat) throws(ImagingError) -> PrimaryImage {
        // Top level: ftyp, meta, mdat, ... The walk reads only each box's header.
        var position = 0
        var metaBox: Box?
        while metaBox == nil {
            guard position + 8 <= file.count else { throw position == file.count ? .headerUnreadable(format) : .truncated(format) }
            var size = try file.u32be(position)
            let type = try file.fourCC(position + 4)
            var header = 8
            if size == 1 {
                let large = try file.u64be(position + 8)
                // At most half of Int's range: `position += size` cannot overflow.
                guard case .success(let checked) = CheckedNumber.integer(large, field: "box size", in: 0...(Int.max / 2)) else {
                    throw .headerUnreadable(format)
                }
                size = checked
                header = 16
            } else if size == 0 {
                size = file.count - position
            }
            guard size >= header else { throw .headerUnreadable(format) }
            if type == "meta" { metaBox = Box(type: type, contentStart: position + header, end: position + size) }
            position += size
        }
        guard let metaBox, metaBox.end - metaBox.contentStart <= maximumMetaSize else { throw .headerUnreadable(format) }
        guard metaBox.end <= file.count else { throw .truncated(format) }

        // The meta box, read once and parsed in memory (offsets relative to its start).
        let base = metaBox.contentStart
        let meta = ByteReader(try file.bytes(base..<metaBox.end))
        meta.format = format
        let children = try boxes(meta, in: span(4, meta.count, format: format), format: format)  // after version and flags
        func child(_ type: String) -> Box? { children.first { $0.type == type } }

        var primaryID: Int?
        if let pitm = child("pitm") {
            primaryID = try meta.u8(pitm.contentStart) == 0 ? try meta.u16be(pitm.contentStart + 4) : try meta.u32be(pitm.contentStart + 4)
        }
        guard let iprp = child("iprp"),
            let ipco = try boxes(meta, in: iprp.contentStart..<iprp.end, format: format).first(where: { $0.type == "ipco" })
        else { throw .headerUnreadable(format) }
        let properties = try boxes(meta, in: ipco.contentStart..<ipco.end, format: format)
        let ipma = try boxes(meta, in: iprp.contentStart..<iprp.end, format: format).first { $0.type == "ipma" }

        // The primary item's properties, in association order (1-based indices into ipco).
        var chosen = properties
        if let primaryID, let ipma, let indices = try associations(meta, ipma, item: primaryID) {
            chosen = indices.compactMap { $0 >= 1 && $0 <= properties.count ? properties[$0 - 1] : nil }
        }
        guard let ispe = chosen.first(where: { $0.type == "ispe" }) else { throw .headerUnreadable(format) }
        let width = try meta.u32be(ispe.contentStart + 4)
        let height = try meta.u32be(ispe.contentStart + 8)
        var transforms: [Transform] = []
        var icc: [UInt8]?
        var nclx: ColourProfile?
        for property in chosen {
            switch property.type {
            case "colr" where property.end - property.contentStart >= 4:
                switch try meta.fourCC(property.contentStart) {
                case "prof", "rICC": icc = try meta.bytes((property.contentStart + 4)..<property.end)
                case "nclx": nclx = .nclx(primaries: try meta.u16be(property.contentStart + 4), transfer: try meta.u16be(property.contentStart + 6))
                default: break
                }
            case "irot": transforms.append(.rotation(anticlockwiseQuarterTurns: Int(try meta.u8(property.contentStart) & 3)))
            case "imir": transforms.append(.mirror(axis: Int(try meta.u8(property.contentStart) & 1)))
            default: break
            }
        }
        // EXIF is optional: a damaged EXIF item leaves the image readable.
        let exif = try? exifItem(file: file, meta: meta, children: children, format: format)
        let xmp = try? xmpItem(file: file, meta: meta, children: children, format: format)
        return PrimaryImage(width: width, height: height, transforms: transforms, exif: exif ?? nil, xmp: xmp ?? nil,
                            colour: icc.map(ColourProfile.icc) ?? nclx)
    }

    /// The property indices associated with `item` in an `ipma` box, or nil when it has none.
    private static func associations(_ meta: ByteReader, _ ipma: Box, item: Int) throws(ImagingError) -> [Int]? {
        let version = try meta.u8(ipma.contentStart)
        let flags = try meta.u32be(ipma.contentStart) & 0xFF_FFFF
        var position = ipma.contentStart + 4
        let entries = try meta.u32be(position)
        position += 4
        for _ in 0..<min(entries, 1 << 20) {
            let id = version < 1 ? try meta.u16be(position) : try meta.u32be(position)
            position += version < 1 ? 2 : 4
            let count = Int(try meta.u8(position))
            position += 1
            var indices: [Int] = []
            for _ in 0..<count {
                if flags & 1 == 1 {
                    indices.append(try meta.u16be(position) & 0x7FFF)
                    position += 2
                } else {
                    indices.append(Int(try meta.u8(position) & 0x7F))
                    position += 1
                }
            }
            if id == item { return indices }
            guard position <= ipma.end else { break }
        }
        return nil
    }

    /// The TIFF structure of the first `Exif` item, if any (at most 4 MiB).
    private static func exifItem(file: ByteReader, meta: ByteReader, children: [Box], format: ImageFormat) throws(ImagingError) -> [UInt8]? {
        guard let data = try item(file: file, meta: meta, children: children, format: format, limit: ExifReader.maximumSize,
                                  where: { type, _ in type == "Exif" })
        else { return nil }
        // The item starts with the offset of the TIFF header after these four bytes.
        guard data.count >= 4 else { return nil }
        let skip = 4 + (Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]))
        guard skip < data.count else { return nil }
        return Array(data[skip...])
    }

    /// The XMP packet: the first item of type `mime` whose content type is `application/rdf+xml`.
    private static func xmpItem(file: ByteReader, meta: ByteReader, children: [Box], format: ImageFormat) throws(ImagingError) -> [UInt8]? {
        try item(file: file, meta: meta, children: children, format: format, limit: XMPReader.maximumSize) { type, contentType in
            type == "mime" && contentType == "application/rdf+xml"
        }
    }

    /// The data of the first item whose type (and, for `mime` items, content type) `matches`;
    /// nil when there is none or it is larger than `limit`.
    private static func item(
        file: ByteReader, meta: ByteReader, children: [Box], format: ImageFormat, limit: Int,
        where matches: (_ type: String, _ contentType: String?) -> Bool
    ) throws(ImagingError) -> [UInt8]? {
        guard let iinf = children.first(where: { $0.type == "iinf" }), let iloc = children.first(where: { $0.type == "iloc" }) else {
            return nil
        }
        // iinf: version, flags, entry count, then infe boxes (version 2 or 3 name an item type).
        let countSize = try meta.u8(iinf.contentStart) == 0 ? 2 : 4
        var itemID: Int?
        for infe in try boxes(meta, in: span(iinf.contentStart + 4 + countSize, iinf.end, format: format), format: format) where infe.type == "infe" {
            let version = try meta.u8(infe.contentStart)
            guard version >= 2 else { continue }
            let idSize = version == 2 ? 2 : 4
            let id = idSize == 2 ? try meta.u16be(infe.contentStart + 4) : try meta.u32be(infe.contentStart + 4)
            let typeOffset = infe.contentStart + 4 + idSize + 2  // after the protection index
            let type = try meta.fourCC(typeOffset)
            var contentType: String?
            if type == "mime", typeOffset + 4 < infe.end {
                // item_name and content_type, each ending with a NUL.
                let rest = try meta.bytes((typeOffset + 4)..<infe.end)
                if let nameEnd = rest.firstIndex(of: 0) {
                    let tail = rest[(nameEnd + 1)...]
                    contentType = String(decoding: tail.prefix { $0 != 0 }, as: UTF8.self)
                }
            }
            if matches(type, contentType) {
                itemID = id
                break
            }
        }
        guard let itemID, let extents = try location(of: itemID, meta: meta, iloc: iloc) else { return nil }

        // construction method 0: file offsets; 1: offsets into the idat box.
        let source: ByteReader
        var origin = 0
        if extents.method == 1 {
            guard let idat = children.first(where: { $0.type == "idat" }) else { return nil }
            source = meta
            origin = idat.contentStart
        } else if extents.method == 0 {
            source = file
        } else {
            return nil
        }
        var data: [UInt8] = []
        for extent in extents.ranges {
            guard data.count + extent.count <= limit else { return nil }
            data += try source.bytes((origin + extent.lowerBound)..<(origin + extent.upperBound))
        }
        return data
    }

    /// An item's extents from the `iloc` box.
    private static func location(of item: Int, meta: ByteReader, iloc: Box) throws(ImagingError) -> (method: Int, ranges: [Range<Int>])? {
        let version = try meta.u8(iloc.contentStart)
        var position = iloc.contentStart + 4
        let sizes = try meta.u8(position)
        let more = try meta.u8(position + 1)
        position += 2
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 0xF)
        let baseOffsetSize = Int(more >> 4)
        let indexSize = version == 1 || version == 2 ? Int(more & 0xF) : 0
        func value(_ size: Int) throws(ImagingError) -> Int {
            defer { position += size }
            switch size {
            case 0: return 0
            case 4: return try meta.u32be(position)
            case 8:
                let large = try meta.u64be(position)
                guard case .success(let checked) = CheckedNumber.integer(large, field: "item location", in: 0...(1 << 40)) else {
                    throw .headerUnreadable(meta.format)
                }
                return checked
            default: throw .headerUnreadable(meta.format)
            }
        }
        let itemCount = version < 2 ? try meta.u16be(position) : try meta.u32be(position)
        position += version < 2 ? 2 : 4
        for _ in 0..<min(itemCount, 1 << 16) {
            let id = version < 2 ? try meta.u16be(position) : try meta.u32be(position)
            position += version < 2 ? 2 : 4
            var method = 0
            if version == 1 || version == 2 {
                method = try meta.u16be(position) & 0xF
                position += 2
            }
            position += 2  // data reference index
            let baseOffset = try value(baseOffsetSize)
            let extentCount = try meta.u16be(position)
            position += 2
            var ranges: [Range<Int>] = []
            for _ in 0..<extentCount {
                _ = try value(indexSize)
                let offset = try value(offsetSize)
                let length = try value(lengthSize)
                ranges.append((baseOffset + offset)..<(baseOffset + offset + length))
            }
            if id == item { return (method, ranges) }
        }
        return nil
    }
}
