import Imaging

/// Colours of the four quadrants of the upright test picture.
enum Quadrant: CaseIterable {
    case topLeft, topRight, bottomLeft, bottomRight

    var color: (red: UInt8, green: UInt8, blue: UInt8) {
        switch self {
        case .topLeft: (230, 30, 30)      // red
        case .topRight: (30, 200, 40)     // green
        case .bottomLeft: (30, 40, 220)   // blue
        case .bottomRight: (240, 240, 240) // white
        }
    }
}

/// A picture made of four coloured quadrants.
func quadrantImage(width: Int, height: Int) throws -> Image {
    var image = try Image(width: width, height: height)
    let halfW = width / 2
    let halfH = height / 2
    for (quadrant, x, y, w, h) in [
        (Quadrant.topLeft, 0, 0, halfW, halfH), (.topRight, halfW, 0, width - halfW, halfH),
        (.bottomLeft, 0, halfH, halfW, height - halfH), (.bottomRight, halfW, halfH, width - halfW, height - halfH),
    ] {
        let c = quadrant.color
        image.fill(x: x, y: y, width: w, height: h, red: c.red, green: c.green, blue: c.blue)
    }
    return image
}

/// Whether each quadrant's centre has its colour, within `tolerance`.
func hasUprightQuadrants(_ image: borrowing Image, tolerance: Int = 40) -> Bool {
    let points: [(Quadrant, Int, Int)] = [
        (.topLeft, image.width / 4, image.height / 4), (.topRight, image.width * 3 / 4, image.height / 4),
        (.bottomLeft, image.width / 4, image.height * 3 / 4), (.bottomRight, image.width * 3 / 4, image.height * 3 / 4),
    ]
    return points.allSatisfy { quadrant, x, y in
        let p = image.pixel(x: x, y: y)
        let c = quadrant.color
        return abs(Int(p.red) - Int(c.red)) <= tolerance && abs(Int(p.green) - Int(c.green)) <= tolerance
            && abs(Int(p.blue) - Int(c.blue)) <= tolerance
    }
}

/// A minimal big-endian TIFF/EXIF block writer, independent of libexif.
struct ExifBuilder {
    var orientation: Int?
    var description: String?
    var artist: String?
    var dateTimeOriginal: String?
    var gps = false

    /// The APP1 payload: "Exif\0\0" and a TIFF structure.
    func payload() -> [UInt8] {
        typealias Entry = (tag: UInt16, type: UInt16, count: UInt32, data: [UInt8])
        func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return (tag, 2, UInt32(bytes.count), bytes)
        }
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        var ifd0: [Entry] = []
        if let description { ifd0.append(ascii(270, description)) }
        if let orientation { ifd0.append((274, 3, 1, be16(UInt16(orientation)) + [0, 0])) }
        if let artist { ifd0.append(ascii(315, artist)) }
        var exifIFD: [Entry] = []
        if let dateTimeOriginal { exifIFD.append(ascii(36867, dateTimeOriginal)) }
        let gpsIFD: [Entry] = gps ? [(0, 1, 4, [2, 2, 0, 0])] : []
        // Pointers are filled in once the layout is known.
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
            if ifd0[index].tag == 34665 { ifd0[index].data = be32(UInt32(exifOffset)) }
            if ifd0[index].tag == 34853 { ifd0[index].data = be32(UInt32(gpsOffset)) }
        }
        func write(_ entries: [Entry], at offset: Int) -> [UInt8] {
            var out = be16(UInt16(entries.count))
            var extra: [UInt8] = []
            let extraStart = offset + 2 + entries.count * 12 + 4
            for entry in entries {
                out += be16(entry.tag) + be16(entry.type) + be32(entry.count)
                if entry.data.count > 4 {
                    out += be32(UInt32(extraStart + extra.count))
                    extra += entry.data
                } else {
                    out += entry.data + Array(repeating: 0, count: 4 - entry.data.count)
                }
            }
            return out + [0, 0, 0, 0] + extra
        }
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42] + be32(UInt32(ifd0Offset))
        tiff += write(ifd0, at: ifd0Offset)
        if !exifIFD.isEmpty { tiff += write(exifIFD, at: exifOffset) }
        if gps { tiff += write(gpsIFD, at: gpsOffset) }
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    /// `jpeg` with this EXIF block inserted right after its SOI marker.
    func inserted(into jpeg: [UInt8]) -> [UInt8] {
        let data = payload()
        let length = data.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + data + Array(jpeg[2...])
    }
}
