import Foundation
import Imaging
import TestSupport

// Test inputs are built here from first principles (byte layouts written out by hand), so that
// the tests never use the code under test to make what it is tested on.

/// Colours of the four quadrants of the upright test picture.
enum Quadrant: CaseIterable {
    case topLeft, topRight, bottomLeft, bottomRight

    var color: (red: UInt8, green: UInt8, blue: UInt8) {
        switch self {
        case .topLeft: (230, 30, 30)  // red
        case .topRight: (30, 200, 40)  // green
        case .bottomLeft: (30, 40, 220)  // blue
        case .bottomRight: (240, 240, 240)  // white
        }
    }

    /// The quadrant of the point (x, y) of a `width` × `height` picture.
    static func at(x: Int, y: Int, width: Int, height: Int) -> Quadrant {
        switch (x < width / 2, y < height / 2) {
        case (true, true): .topLeft
        case (false, true): .topRight
        case (true, false): .bottomLeft
        case (false, false): .bottomRight
        }
    }
}

/// An upright picture made of four coloured quadrants.
func quadrantImage(width: Int, height: Int) throws -> Image {
    var image = try Image(width: width, height: height)
    let halfW = width / 2
    let halfH = height / 2
    for (quadrant, x, y) in [(Quadrant.topLeft, 0, 0), (.topRight, halfW, 0), (.bottomLeft, 0, halfH), (.bottomRight, halfW, halfH)] {
        let c = quadrant.color
        image.fill(x: x, y: y, width: x == 0 ? halfW : width - halfW, height: y == 0 ? halfH : height - halfH, red: c.red, green: c.green, blue: c.blue)
    }
    return image
}

/// Where the stored pixel (x, y) appears on screen for an EXIF orientation, written from the
/// specification's words ("the 0th row is the visual top/right/bottom/left, the 0th column the
/// visual left/top/right/bottom"). `width` × `height` is the displayed size.
func displayedPoint(ofStored x: Int, _ y: Int, orientation: Int, width: Int, height: Int) -> (x: Int, y: Int) {
    switch orientation {
    case 2: (width - 1 - x, y)  // row 0 top, column 0 right
    case 3: (width - 1 - x, height - 1 - y)  // row 0 bottom, column 0 right
    case 4: (x, height - 1 - y)  // row 0 bottom, column 0 left
    case 5: (y, x)  // row 0 left, column 0 top
    case 6: (width - 1 - y, x)  // row 0 right, column 0 top
    case 7: (width - 1 - y, height - 1 - x)  // row 0 right, column 0 bottom
    case 8: (y, height - 1 - x)  // row 0 left, column 0 bottom
    default: (x, y)
    }
}

/// The pixels a camera stores for an upright quadrant picture of `width` × `height` when it
/// records `orientation`: each stored pixel gets the colour of the place where it is shown.
func storedQuadrantImage(orientation: Int, width: Int, height: Int) throws -> Image {
    let swaps = orientation >= 5
    let storedWidth = swaps ? height : width
    let storedHeight = swaps ? width : height
    var image = try Image(width: storedWidth, height: storedHeight)
    for y in 0..<storedHeight {
        for x in 0..<storedWidth {
            let shown = displayedPoint(ofStored: x, y, orientation: orientation, width: width, height: height)
            let c = Quadrant.at(x: shown.x, y: shown.y, width: width, height: height).color
            image.fill(x: x, y: y, width: 1, height: 1, red: c.red, green: c.green, blue: c.blue)
        }
    }
    return image
}

/// The largest channel difference between each quadrant's centre and its colour, or nil when
/// the image is too small to tell.
func quadrantError(_ image: borrowing Image) -> Int {
    let points: [(Quadrant, Int, Int)] = [
        (.topLeft, image.width / 4, image.height / 4), (.topRight, image.width * 3 / 4, image.height / 4),
        (.bottomLeft, image.width / 4, image.height * 3 / 4), (.bottomRight, image.width * 3 / 4, image.height * 3 / 4),
    ]
    var worst = 0
    for (quadrant, x, y) in points {
        let p = image.pixel(x: x, y: y)
        let c = quadrant.color
        worst = max(worst, abs(Int(p.red) - Int(c.red)), abs(Int(p.green) - Int(c.green)), abs(Int(p.blue) - Int(c.blue)))
    }
    return worst
}

/// Whether each quadrant's centre has its colour, within `tolerance`.
func hasUprightQuadrants(_ image: borrowing Image, tolerance: Int = 40) -> Bool {
    quadrantError(image) <= tolerance
}

/// Whether every pixel is exactly the upright quadrant colour of its place.
func isExactQuadrantImage(_ image: borrowing Image) -> Bool {
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = image.pixel(x: x, y: y)
            let c = Quadrant.at(x: x, y: y, width: image.width, height: image.height).color
            if (p.red, p.green, p.blue, p.alpha) != (c.red, c.green, c.blue, 255) { return false }
        }
    }
    return true
}

/// A picture with a different colour every 10 × 10 pixels: compresses like a photo, so cut
/// points land inside the image data.
func noisyImage(width: Int, height: Int, seed: UInt64 = 3) throws -> Image {
    var random = SplitMix64(state: seed)
    var image = try Image(width: width, height: height)
    for y in stride(from: 0, to: height, by: 10) {
        for x in stride(from: 0, to: width, by: 10) {
            image.fill(
                x: x, y: y, width: 10, height: 10, red: .random(in: 0...255, using: &random),
                green: .random(in: 0...255, using: &random), blue: .random(in: 0...255, using: &random))
        }
    }
    return image
}

// MARK: - Bytes

func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)] }

extension Array where Element == UInt8 {
    /// The first offset where `sequence` occurs.
    func firstOffset(of sequence: [UInt8], from start: Int = 0) -> Int? {
        guard sequence.count <= count, start <= count - sequence.count else { return nil }
        return (start...(count - sequence.count)).first { offset in
            sequence.indices.allSatisfy { self[offset + $0] == sequence[$0] }
        }
    }

    func contains(sequence: [UInt8]) -> Bool { firstOffset(of: sequence) != nil }
}

/// Temporary files, removed by the caller.
enum TemporaryFile {
    static func write(_ bytes: [UInt8], name: String = "image") -> String {
        let folder = NSTemporaryDirectory() + "cascade-imaging-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

// MARK: - JPEG

enum JPEGBytes {
    /// `jpeg` with a segment (marker and payload) inserted right after its SOI marker.
    static func inserting(marker: UInt8, payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + [0xFF, marker] + be16(payload.count + 2) + payload + Array(jpeg[2...])
    }

    /// The offset of the first start-of-frame (SOF0/SOF2) marker segment.
    static func frameHeaderOffset(_ jpeg: [UInt8]) -> Int? {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            if marker == 0xC0 || marker == 0xC2 { return position }
            position += 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
        }
        return nil
    }

    /// `jpeg` whose frame header claims `width` × `height`.
    static func claiming(width: Int, height: Int, _ jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        let sof = frameHeaderOffset(jpeg)!
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: be16(height) + be16(width))
        return bytes
    }
}

/// A minimal TIFF/EXIF block writer, independent of libexif.
struct ExifBuilder {
    var orientation: Int?
    var description: String?
    var artist: String?
    var dateTime: String?
    var dateTimeOriginal: String?
    var gps = false
    var littleEndian = false
    var rawArtist: [UInt8]?

    /// A TIFF structure: header, IFD0, then the EXIF and GPS directories.
    func tiff() -> [UInt8] {
        typealias Entry = (tag: Int, type: Int, count: Int, data: [UInt8])
        let u16 = littleEndian ? le16 : be16
        let u32 = littleEndian ? le32 : be32
        func ascii(_ tag: Int, _ bytes: [UInt8]) -> Entry { (tag, 2, bytes.count + 1, bytes + [0]) }
        var ifd0: [Entry] = []
        if let description { ifd0.append(ascii(270, Array(description.utf8))) }
        if let orientation { ifd0.append((274, 3, 1, u16(orientation) + [0, 0])) }
        if let dateTime { ifd0.append(ascii(306, Array(dateTime.utf8))) }
        if let artist { ifd0.append(ascii(315, Array(artist.utf8))) }
        if let rawArtist { ifd0.append(ascii(315, rawArtist)) }
        var exifIFD: [Entry] = []
        if let dateTimeOriginal { exifIFD.append(ascii(36867, Array(dateTimeOriginal.utf8))) }
        // GPSVersionID 2.2.0.0 and GPSLatitudeRef "N".
        let gpsIFD: [Entry] = gps ? [(0, 1, 4, [2, 2, 0, 0]), (1, 2, 2, Array("N".utf8) + [0])] : []
        if !exifIFD.isEmpty { ifd0.append((34665, 4, 1, [0, 0, 0, 0])) }
        if gps { ifd0.append((34853, 4, 1, [0, 0, 0, 0])) }
        ifd0.sort { $0.tag < $1.tag }

        func size(_ entries: [Entry]) -> Int {
            2 + entries.count * 12 + 4 + entries.reduce(0) { $0 + ($1.data.count > 4 ? $1.data.count : 0) }
        }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + size(ifd0)
        let gpsOffset = exifOffset + (exifIFD.isEmpty ? 0 : size(exifIFD))
        for index in ifd0.indices {
            if ifd0[index].tag == 34665 { ifd0[index].data = u32(exifOffset) }
            if ifd0[index].tag == 34853 { ifd0[index].data = u32(gpsOffset) }
        }
        func write(_ entries: [Entry], at offset: Int) -> [UInt8] {
            var out = u16(entries.count)
            var extra: [UInt8] = []
            let extraStart = offset + 2 + entries.count * 12 + 4
            for entry in entries {
                out += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                if entry.data.count > 4 {
                    out += u32(extraStart + extra.count)
                    extra += entry.data
                } else {
                    out += entry.data + Array(repeating: 0, count: 4 - entry.data.count)
                }
            }
            return out + [0, 0, 0, 0] + extra
        }
        var tiff: [UInt8] = littleEndian ? Array("II".utf8) + [42, 0] : Array("MM".utf8) + [0, 42]
        tiff += u32(ifd0Offset)
        tiff += write(ifd0, at: ifd0Offset)
        if !exifIFD.isEmpty { tiff += write(exifIFD, at: exifOffset) }
        if gps { tiff += write(gpsIFD, at: gpsOffset) }
        return tiff
    }

    /// The APP1 payload: "Exif\0\0" and the TIFF structure.
    func payload() -> [UInt8] { Array("Exif".utf8) + [0, 0] + tiff() }

    /// `jpeg` with this EXIF block inserted right after its SOI marker.
    func inserted(into jpeg: [UInt8]) -> [UInt8] {
        JPEGBytes.inserting(marker: 0xE1, payload: payload(), into: jpeg)
    }
}

// MARK: - TIFF

/// Writes an uncompressed 8-bit RGB TIFF by hand: header, pixel strip, then the directory (as
/// many writers do, so that a probe must follow the offset to the end of the file).
struct TIFFWriter {
    var orientation: Int?
    var littleEndian = true
    var description: String?
    var artist: String?
    var dateTime: String?
    /// An ICC profile for tag 34675 (InterColorProfile).
    var iccProfile: [UInt8]?

    func write(_ image: borrowing Image) -> [UInt8] {
        let u16 = littleEndian ? le16 : be16
        let u32 = littleEndian ? le32 : be32
        var pixels: [UInt8] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                pixels += [p.red, p.green, p.blue]
            }
        }
        let stripOffset = 8
        var extra: [UInt8] = []
        var extraOffset = stripOffset + pixels.count
        typealias Entry = (tag: Int, type: Int, count: Int, value: [UInt8])
        var entries: [Entry] = []
        func external(_ bytes: [UInt8]) -> [UInt8] {
            let offset = extraOffset + extra.count
            extra += bytes + (bytes.count % 2 == 1 ? [0] : [])
            return u32(offset)
        }
        func ascii(_ tag: Int, _ text: String) {
            let bytes = Array(text.utf8) + [0]
            entries.append((tag, 2, bytes.count, bytes.count <= 4 ? bytes + Array(repeating: 0, count: 4 - bytes.count) : external(bytes)))
        }
        extraOffset = stripOffset + pixels.count
        entries.append((256, 4, 1, u32(image.width)))
        entries.append((257, 4, 1, u32(image.height)))
        entries.append((258, 3, 3, external(u16(8) + u16(8) + u16(8))))
        entries.append((259, 3, 1, u16(1) + [0, 0]))  // no compression
        entries.append((262, 3, 1, u16(2) + [0, 0]))  // RGB
        if let description { ascii(270, description) }
        entries.append((273, 4, 1, u32(stripOffset)))
        if let orientation { entries.append((274, 3, 1, u16(orientation) + [0, 0])) }
        entries.append((277, 3, 1, u16(3) + [0, 0]))
        entries.append((278, 4, 1, u32(image.height)))
        entries.append((279, 4, 1, u32(pixels.count)))
        entries.append((284, 3, 1, u16(1) + [0, 0]))  // contiguous
        if let dateTime { ascii(306, dateTime) }
        if let artist { ascii(315, artist) }
        if let iccProfile { entries.append((34675, 7, iccProfile.count, external(iccProfile))) }
        entries.sort { $0.tag < $1.tag }
        let ifdOffset = extraOffset + extra.count
        var ifd = u16(entries.count)
        for entry in entries { ifd += u16(entry.tag) + u16(entry.type) + u32(entry.count) + entry.value }
        ifd += u32(0)
        let header: [UInt8] = (littleEndian ? Array("II".utf8) + [42, 0] : Array("MM".utf8) + [0, 42]) + u32(ifdOffset)
        return header + pixels + extra + ifd
    }
}

// MARK: - ISO base media (HEIF, AVIF)

/// A box of the ISO base media file format, for building and editing HEIF and AVIF files.
struct ISOBox {
    var type: String
    var payload: [UInt8]

    var bytes: [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }

    static func full(_ type: String, version: UInt8 = 0, flags: Int = 0, _ content: [UInt8]) -> ISOBox {
        ISOBox(type: type, payload: [version, UInt8((flags >> 16) & 0xFF), UInt8((flags >> 8) & 0xFF), UInt8(flags & 0xFF)] + content)
    }

    static func container(_ type: String, _ children: [ISOBox], fullBoxHeader: [UInt8] = []) -> ISOBox {
        ISOBox(type: type, payload: fullBoxHeader + children.flatMap(\.bytes))
    }

    /// The boxes in `bytes` (32-bit sizes only, as the test files use).
    static func parse(_ bytes: ArraySlice<UInt8>) -> [ISOBox] {
        var result: [ISOBox] = []
        var position = bytes.startIndex
        while position + 8 <= bytes.endIndex {
            let size = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let end = size == 0 ? bytes.endIndex : position + size
            result.append(ISOBox(type: type, payload: Array(bytes[(position + 8)..<end])))
            position = end
        }
        return result
    }

    static func ispe(width: Int, height: Int) -> ISOBox { .full("ispe", be32(width) + be32(height)) }
    static func irot(_ turns: Int) -> ISOBox { ISOBox(type: "irot", payload: [UInt8(turns)]) }
    static func imir(_ axis: Int) -> ISOBox { ISOBox(type: "imir", payload: [UInt8(axis)]) }
}

enum ISOFile {
    /// `file` with `properties` appended to `ipco` and associated (as essential) with `items`,
    /// after their existing properties. The `meta` box grows, so the file offsets in `iloc`
    /// that point after it move by as much.
    static func addingProperties(_ properties: [ISOBox], toItems items: [Int], in file: [UInt8]) -> [UInt8] {
        guard !properties.isEmpty else { return file }
        var top = ISOBox.parse(file[...])
        let metaIndex = top.firstIndex { $0.type == "meta" }!
        let oldMeta = top[metaIndex]
        let metaEnd = top[...metaIndex].reduce(0) { $0 + $1.bytes.count }
        var children = ISOBox.parse(oldMeta.payload[4...])
        let iprpIndex = children.firstIndex { $0.type == "iprp" }!
        var iprpChildren = ISOBox.parse(children[iprpIndex].payload[...])
        let ipcoIndex = iprpChildren.firstIndex { $0.type == "ipco" }!
        let ipmaIndex = iprpChildren.firstIndex { $0.type == "ipma" }!
        let existing = ISOBox.parse(iprpChildren[ipcoIndex].payload[...]).count
        iprpChildren[ipcoIndex].payload += properties.flatMap(\.bytes)
        let added = Array((existing + 1)...(existing + properties.count))
        iprpChildren[ipmaIndex] = addingAssociations(added, toItems: items, in: iprpChildren[ipmaIndex])
        children[iprpIndex] = ISOBox.container("iprp", iprpChildren)
        var newMeta = ISOBox.container("meta", children, fullBoxHeader: Array(oldMeta.payload[0..<4]))
        let delta = newMeta.bytes.count - oldMeta.bytes.count
        // Move file offsets (construction method 0) that point after the meta box.
        var metaChildren = ISOBox.parse(newMeta.payload[4...])
        let ilocIndex = metaChildren.firstIndex { $0.type == "iloc" }!
        metaChildren[ilocIndex].payload = shiftingOffsets(metaChildren[ilocIndex].payload, after: metaEnd, by: delta)
        newMeta = ISOBox.container("meta", metaChildren, fullBoxHeader: Array(oldMeta.payload[0..<4]))
        top[metaIndex] = newMeta
        return top.flatMap(\.bytes)
    }

    /// The primary item's ID, from the `pitm` box.
    static func primaryItem(_ file: [UInt8]) -> Int {
        let meta = ISOBox.parse(file[...]).first { $0.type == "meta" }!
        let pitm = ISOBox.parse(meta.payload[4...]).first { $0.type == "pitm" }!
        return pitm.payload[0] == 0
            ? Int(pitm.payload[4]) << 8 | Int(pitm.payload[5])
            : pitm.payload[4...7].reduce(0) { $0 << 8 | Int($1) }
    }

    /// `file` with every `ispe` box claiming `width` × `height`.
    static func claiming(width: Int, height: Int, _ file: [UInt8]) -> [UInt8] {
        var bytes = file
        var start = 0
        while let offset = bytes.firstOffset(of: Array("ispe".utf8), from: start) {
            bytes.replaceSubrange((offset + 8)..<(offset + 16), with: be32(width) + be32(height))
            start = offset + 4
        }
        return bytes
    }

    private static func addingAssociations(_ indices: [Int], toItems items: [Int], in ipma: ISOBox) -> ISOBox {
        let p = ipma.payload
        let version = p[0]
        let wide = p[3] & 1 == 1
        var position = 4
        func read(_ size: Int) -> Int {
            defer { position += size }
            return (0..<size).reduce(0) { $0 << 8 | Int(p[position + $1]) }
        }
        let entryCount = read(4)
        var entries: [(item: Int, associations: [Int])] = []
        for _ in 0..<entryCount {
            let item = read(version < 1 ? 2 : 4)
            let count = read(1)
            entries.append((item, (0..<count).map { _ in read(wide ? 2 : 1) }))
        }
        for item in items {
            let essential = indices.map { wide ? $0 | 0x8000 : $0 | 0x80 }
            if let index = entries.firstIndex(where: { $0.item == item }) {
                entries[index].associations += essential
            } else {
                entries.append((item, essential))
            }
        }
        var out = Array(p[0..<4]) + be32(entries.count)
        for entry in entries {
            out += version < 1 ? be16(entry.item) : be32(entry.item)
            out.append(UInt8(entry.associations.count))
            for association in entry.associations { out += wide ? be16(association) : [UInt8(association)] }
        }
        return ISOBox(type: "ipma", payload: out)
    }

    private static func shiftingOffsets(_ payload: [UInt8], after boundary: Int, by delta: Int) -> [UInt8] {
        var p = payload
        let version = Int(p[0])
        var position = 4
        func read(_ size: Int) -> Int {
            defer { position += size }
            return (0..<size).reduce(0) { $0 << 8 | Int(p[position + $1]) }
        }
        let offsetSize = Int(p[4] >> 4)
        let lengthSize = Int(p[4] & 0xF)
        let baseOffsetSize = Int(p[5] >> 4)
        let indexSize = version >= 1 ? Int(p[5] & 0xF) : 0
        position = 6
        let itemCount = read(version < 2 ? 2 : 4)
        for _ in 0..<itemCount {
            _ = read(version < 2 ? 2 : 4)
            let method = version >= 1 ? read(2) & 0xF : 0
            _ = read(2)
            let basePosition = position
            let base = read(baseOffsetSize)
            let extents = read(2)
            for _ in 0..<extents {
                _ = read(indexSize)
                let offsetPosition = position
                let offset = read(offsetSize)
                _ = read(lengthSize)
                if method == 0, baseOffsetSize == 0, offset >= boundary {
                    let bytes = offsetSize == 8 ? be32(0) + be32(offset + delta) : be32(offset + delta)
                    p.replaceSubrange(offsetPosition..<(offsetPosition + offsetSize), with: bytes)
                }
            }
            if method == 0, baseOffsetSize > 0, base >= boundary {
                let bytes = baseOffsetSize == 8 ? be32(0) + be32(base + delta) : be32(base + delta)
                p.replaceSubrange(basePosition..<(basePosition + baseOffsetSize), with: bytes)
            }
        }
        return p
    }

    /// A HEIF header (no decodable picture) with a primary item 1 of `width` × `height`, a
    /// decoy thumbnail item 3 whose `ispe` comes first, optional transformations, and an
    /// optional EXIF item 2 stored in the media data.
    /// With `mediaFirst`, a large `mdat` box (`padding` bytes, then the EXIF item) comes before
    /// the `meta` box, as some writers put it.
    static func syntheticHEIF(
        width: Int, height: Int, transforms: [ISOBox] = [], exif: [UInt8]? = nil, brands: [String] = ["heic", "mif1", "heic"],
        mediaFirst: Bool = false, padding: Int = 0
    ) -> [UInt8] {
        let ftyp = ISOBox(type: "ftyp", payload: Array(brands[0].utf8) + be32(0) + brands.dropFirst().flatMap { Array($0.utf8) })
        func infe(_ id: Int, _ type: String) -> ISOBox { .full("infe", version: 2, be16(id) + be16(0) + Array(type.utf8) + [0]) }
        let properties = [ISOBox.ispe(width: 160, height: 120), .ispe(width: width, height: height)] + transforms
        // ipma: item 1 -> 2 (its ispe) and the transforms; item 3 (thumbnail) -> 1.
        var ipma = be32(2) + be16(1) + [UInt8(1 + transforms.count), 2]
        for index in transforms.indices { ipma.append(UInt8(3 + index) | 0x80) }
        ipma += be16(3) + [1, 1]
        let items = [infe(1, "hvc1"), infe(3, "hvc1")] + (exif != nil ? [infe(2, "Exif")] : [])
        let exifData = exif.map { be32(0) + $0 } ?? []
        func meta(exifOffset: Int) -> ISOBox {
            var iloc = [0x44, 0x00] + be16(exif != nil ? 1 : 0)
            if exif != nil { iloc += be16(2) + be16(0) + be16(1) + be32(exifOffset) + be32(exifData.count) }
            return ISOBox.container(
                "meta",
                [
                    .full("hdlr", be32(0) + Array("pict".utf8) + Array(repeating: 0, count: 13)),
                    .full("pitm", be16(1)),
                    .full("iloc", iloc),
                    ISOBox.container("iinf", items, fullBoxHeader: [0, 0, 0, 0] + be16(items.count)),
                    ISOBox.container("iprp", [ISOBox.container("ipco", properties), .full("ipma", ipma)]),
                ], fullBoxHeader: [0, 0, 0, 0])
        }
        if mediaFirst {
            let mdat = ISOBox(type: "mdat", payload: Array(repeating: 0, count: padding) + exifData)
            return ftyp.bytes + mdat.bytes + meta(exifOffset: ftyp.bytes.count + 8 + padding).bytes
        }
        let size = ftyp.bytes.count + meta(exifOffset: 0).bytes.count
        let mdat = ISOBox(type: "mdat", payload: exifData + Array(repeating: 0, count: 64 + padding))
        return ftyp.bytes + meta(exifOffset: size + 8).bytes + mdat.bytes
    }
}

// MARK: - PNG

/// Writes PNG files by hand (stored deflate blocks, no compression), for chunks gd never writes.
enum PNGWriter {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// A zlib stream of one stored block.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return [0x78, 0x01, 0x01] + le16(data.count) + le16(~data.count & 0xFFFF) + data + be32(Int(b << 16 | a))
    }

    /// An 8-bit RGB PNG of `pixels` (rows of RGB triples), with optional extra chunks before IDAT.
    static func rgb(width: Int, height: Int, pixels: [[UInt8]], extraChunks: [[UInt8]] = []) -> [UInt8] {
        let raw = pixels.flatMap { row -> [UInt8] in [0] + row }  // filter type 0 on every row
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
            + extraChunks.flatMap { $0 }
            + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }
}
