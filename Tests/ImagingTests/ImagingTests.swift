import Testing

@testable import Imaging

@Suite("Formats: sniffing, header probes and decoding")
struct FormatTests {
    @Test("every format gd writes here is recognised by content, probed and decoded with its pixels",
          arguments: [ImageFormat.jpeg, .png, .gif, .webp, .bmp, .tiff, .avif, .heif])
    func roundTrip(format: ImageFormat) throws {
        let original = try quadrantImage(width: 64, height: 48)
        let bytes = try original.encoded(asFormat: format)
        #expect(ImageFormat.sniff(bytes) == format)
        let info = try ImageProbe.probe(bytes)
        #expect(info.format == format)
        #expect(info.pixelWidth == 64 && info.pixelHeight == 48)
        #expect(info.displayWidth == 64 && info.displayHeight == 48)
        let decoded = try Image.decode(bytes)
        #expect(decoded.width == 64 && decoded.height == 48)
        // Lossy codecs (JPEG, WebP, AVIF, HEIF with chroma subsampling) get a tolerance; GIF palettes too.
        let upright = hasUprightQuadrants(decoded, tolerance: 48)
        #expect(upright, "\(format) pixels differ")
    }

    @Test("the file name does not matter: a JPEG is sniffed as JPEG whatever it is called")
    func sniffIgnoresName() throws {
        let bytes = try quadrantImage(width: 10, height: 10).encoded(as: .jpeg(quality: 80))
        #expect(ImageFormat.sniff(bytes) == .jpeg)
        #expect(ImageFormat.sniff(Array("GIF89a is not enough?".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("plain text".utf8)) == nil)
        #expect(ImageFormat.sniff([]) == nil)
    }

    @Test("probing a file reads its header from disk")
    func probeFile() throws {
        let bytes = try quadrantImage(width: 30, height: 20).encoded(as: .png)
        let path = FileManagerShim.temporaryFile(bytes)
        defer { FileManagerShim.remove(path) }
        let info = try ImageProbe.probe(fileAtPath: path)
        #expect(info.format == .png && info.pixelWidth == 30 && info.pixelHeight == 20)
        #expect(throws: ImagingError.self) { try ImageProbe.probe(fileAtPath: path + ".missing") }
    }
}

@Suite("EXIF orientation and metadata")
struct OrientationTests {
    /// The stored pixels for orientation `o` of an upright 60×40 quadrant picture: the inverse turn.
    static func stored(for orientation: Orientation) throws -> Image {
        let upright = try quadrantImage(width: 60, height: 40)
        // Applying an orientation's inverse to the upright image gives what a camera would store.
        let inverse: Orientation = switch orientation {
        case .right: .left
        case .left: .right
        default: orientation  // the others are their own inverse
        }
        return try upright.oriented(inverse)
    }

    @Test("all eight orientations come out upright, with the display size swapped for 5 to 8",
          arguments: Orientation.allCases)
    func orientation(orientation: Orientation) throws {
        let stored = try Self.stored(for: orientation)
        let jpeg = ExifBuilder(orientation: orientation.rawValue).inserted(into: try stored.encoded(as: .jpeg(quality: 95)))
        let info = try ImageProbe.probe(jpeg)
        #expect(info.orientation == orientation)
        #expect(info.pixelWidth == stored.width && info.pixelHeight == stored.height)
        #expect(info.displayWidth == 60 && info.displayHeight == 40)
        let set = try Renditions.make(from: jpeg, widths: [30, 100], format: .png)
        #expect(set.renditions.map(\.width) == [30, 60])
        #expect(set.info.displayWidth == 60 && set.info.displayHeight == 40)
        let full = try Image.decode(set.renditions[1].bytes)
        #expect(full.width == 60 && full.height == 40)
        let upright = hasUprightQuadrants(full)
        #expect(upright, "orientation \(orientation.rawValue) is not upright")
        let small = try Image.decode(set.renditions[0].bytes)
        #expect(small.width == 30 && small.height == 20)
        let smallUpright = hasUprightQuadrants(small, tolerance: 60)
        #expect(smallUpright)
    }

    @Test("the orientation turn itself maps every corner pixel exactly")
    func exactTurn() throws {
        var image = try Image(width: 3, height: 2)
        image.fill(x: 0, y: 0, width: 1, height: 1, red: 255, green: 0, blue: 0)  // stored top-left marker
        let right = try image.oriented(.right)  // turn 90° clockwise
        #expect(right.width == 2 && right.height == 3)
        #expect(right.pixel(x: 1, y: 0).red == 255)  // the top-left corner went to the top-right
        #expect(right.pixel(x: 0, y: 0).red == 0)
    }

    @Test("EXIF text, date and GPS presence are read; a JPEG without EXIF has none")
    func metadata() throws {
        let jpeg = try quadrantImage(width: 20, height: 20).encoded(as: .jpeg(quality: 80))
        let tagged = ExifBuilder(
            orientation: 1, description: "<b>Sunset</b> & sea", artist: "Ana Lima",
            dateTimeOriginal: "2023:07:14 19:45:01", gps: true
        ).inserted(into: jpeg)
        let info = try ImageProbe.probe(tagged)
        #expect(info.metadata.description == "<b>Sunset</b> & sea")
        #expect(info.metadata.artist == "Ana Lima")
        #expect(info.metadata.dateTaken == "2023:07:14 19:45:01")
        #expect(info.metadata.hasGPS)
        let plain = try ImageProbe.probe(jpeg)
        #expect(plain.metadata == PhotoMetadata())
        #expect(plain.orientation == .up)
    }

    @Test("re-encoded images carry no EXIF (GPS never leaks into the site)")
    func metadataStripped() throws {
        let jpeg = ExifBuilder(orientation: 6, artist: "X", gps: true)
            .inserted(into: try quadrantImage(width: 40, height: 20).encoded(as: .jpeg(quality: 80)))
        let set = try Renditions.make(from: jpeg, widths: [20], format: .jpeg(quality: 80))
        for rendition in set.renditions {
            let info = try ImageProbe.probe(rendition.bytes)
            #expect(info.metadata == PhotoMetadata() && info.orientation == .up)
            #expect(!rendition.bytes.contains(sequence: Array("Exif".utf8)))
        }
    }
}

@Suite("Hostile input")
struct HostileInputTests {
    @Test("empty, random and text data are refused with a reason")
    func notImages() {
        #expect(throws: ImagingError.empty) { _ = try Image.decode([]) }
        #expect(throws: ImagingError.unrecognizedFormat) { _ = try Image.decode(Array("hello, I am a text file".utf8)) }
        var random = SplitMix64(state: 7)
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(throws: ImagingError.self) { _ = try Image.decode(noise) }
        #expect(ImagingError.empty.description == "the file is empty")
    }

    @Test("a truncated JPEG is an error at every cut point, never a grey picture", arguments: [0.1, 0.3, 0.5, 0.7, 0.9, 0.98])
    func truncatedJPEG(fraction: Double) throws {
        var random = SplitMix64(state: 3)
        var image = try Image(width: 200, height: 150)
        for y in stride(from: 0, to: 150, by: 10) {
            for x in stride(from: 0, to: 200, by: 10) {
                image.fill(x: x, y: y, width: 10, height: 10, red: .random(in: 0...255, using: &random),
                           green: .random(in: 0...255, using: &random), blue: .random(in: 0...255, using: &random))
            }
        }
        let jpeg = try image.encoded(as: .jpeg(quality: 90))
        let cut = Array(jpeg.prefix(Int(Double(jpeg.count) * fraction)))
        #expect(throws: ImagingError.self) { _ = try Image.decode(cut) }
        #expect(throws: ImagingError.self) { _ = try Renditions.make(from: cut, widths: [50], format: .jpeg(quality: 80)) }
    }

    @Test("a truncated PNG is an error", arguments: [0.2, 0.6, 0.95])
    func truncatedPNG(fraction: Double) throws {
        let png = try quadrantImage(width: 120, height: 90).encoded(as: .png)
        let cut = Array(png.prefix(Int(Double(png.count) * fraction)))
        #expect(throws: ImagingError.self) { _ = try Image.decode(cut) }
    }

    /// A 30000×30000 PNG header followed by a few bytes of nothing.
    static func pngBomb() -> [UInt8] {
        let ihdr: [UInt8] = [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + ihdr
            + [0, 0, 0, 0] + [0, 0, 0, 10] + Array("IDAT".utf8) + Array(repeating: 0, count: 14)
    }

    /// A small JPEG whose frame header claims 30000×30000.
    static func jpegBomb() throws -> [UInt8] {
        var jpeg = try quadrantImage(width: 16, height: 16).encoded(as: .jpeg(quality: 80))
        var position = 2
        while position + 4 < jpeg.count {
            let marker = jpeg[position + 1]
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            if ImageProbe.startOfFrameMarkers.contains(marker) {
                jpeg[position + 5] = 0x75; jpeg[position + 6] = 0x30  // height
                jpeg[position + 7] = 0x75; jpeg[position + 8] = 0x30  // width
                break
            }
            position += 2 + length
        }
        return jpeg
    }

    @Test("decompression bombs are refused from the header, before any decoding")
    func bombs() throws {
        let limit = ImagingError.tooManyPixels(width: 30000, height: 30000, limit: 200_000_000)
        #expect(throws: limit) { _ = try Image.decode(Self.pngBomb()) }
        let jpeg = try Self.jpegBomb()
        #expect(try ImageProbe.probe(jpeg).pixelWidth == 30000)
        #expect(throws: limit) { _ = try Image.decode(jpeg) }
        #expect(throws: limit) { _ = try Renditions.make(from: jpeg, widths: [400], format: .jpeg(quality: 80)) }
        #expect(throws: ImagingError.tooManyPixels(width: 16, height: 16, limit: 100)) {
            _ = try Image.decode(try quadrantImage(width: 16, height: 16).encoded(as: .png), limits: DecodeLimits(maxPixels: 100))
        }
        #expect(limit.description == "image is 30000×30000 pixels, above the limit of 200 megapixels")
    }
}

@Suite("Resizing, encoding and colour")
struct ResizeTests {
    @Test("resizing keeps the aspect ratio and never enlarges", arguments: [(400, 300, 100, 75), (400, 300, 400, 300), (400, 300, 1000, 300), (3000, 10, 100, 1)])
    func resize(width: Int, height: Int, target: Int, expectedHeight: Int) throws {
        let image = try quadrantImage(width: width, height: height)
        let resized = try image.resized(toWidth: target)
        #expect(resized.width == min(target, width))
        #expect(resized.height == expectedHeight)
    }

    @Test("a large reduction keeps the picture (two-stage scaling)")
    func largeReduction() throws {
        let image = try quadrantImage(width: 2000, height: 1500)
        let small = try image.resized(toWidth: 100)
        #expect(small.width == 100 && small.height == 75)
        let upright = hasUprightQuadrants(small, tolerance: 20)
        #expect(upright)
    }

    @Test("renditions: one per smaller width, plus the picture's own width when a larger one is asked, ascending")
    func renditionWidths() throws {
        let png = try quadrantImage(width: 1000, height: 500).encoded(as: .png)
        let set = try Renditions.make(from: png, widths: [400, 800, 1600, 2400], format: .webp(quality: 80))
        #expect(set.renditions.map(\.width) == [400, 800, 1000])
        #expect(set.renditions.map(\.height) == [200, 400, 500])
        for rendition in set.renditions {
            #expect(ImageFormat.sniff(rendition.bytes) == .webp)
            #expect(rendition.bytes != png)
        }
        let exact = try Renditions.make(from: png, widths: [400, 1000], format: .jpeg(quality: 80))
        #expect(exact.renditions.map(\.width) == [400, 1000])
    }

    @Test("transparent pixels become white in a JPEG, and stay transparent in WebP")
    func transparency() throws {
        var image = try Image(width: 20, height: 20)
        image.fill(x: 0, y: 0, width: 20, height: 20, red: 0, green: 0, blue: 0, alpha: 0)
        let jpeg = try Image.decode(try image.encoded(as: .jpeg(quality: 90)))
        let p = jpeg.pixel(x: 10, y: 10)
        #expect(p.red > 240 && p.green > 240 && p.blue > 240)
        let webp = try Image.decode(try image.encoded(as: .webp(quality: 90)))
        #expect(webp.pixel(x: 10, y: 10).alpha < 10)
    }

    @Test("the average colour of a solid picture is its colour")
    func averageColor() throws {
        var image = try Image(width: 50, height: 30)
        image.fill(x: 0, y: 0, width: 50, height: 30, red: 12, green: 200, blue: 99)
        #expect(image.averageColor() == RGBColor(red: 12, green: 200, blue: 99))
        #expect(image.averageColor().hex == "#0cc863")
    }
}

/// A deterministic generator for test inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Array where Element == UInt8 {
    func contains(sequence: [UInt8]) -> Bool {
        guard sequence.count <= count else { return false }
        return (0...(count - sequence.count)).contains { Array(self[$0..<($0 + sequence.count)]) == sequence }
    }
}
