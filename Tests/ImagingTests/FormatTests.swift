import Testing

@testable import Imaging

@Suite("Formats: sniffing, header probes and decoding")
struct FormatTests {
    /// Largest channel error allowed at the quadrant centres: none for lossless formats.
    static func tolerance(_ format: ImageFormat) -> Int {
        switch format {
        case .png, .bmp, .tiff: 0
        case .gif: 8  // gd's conversion to a palette may move colours slightly
        case .jpeg, .webp, .avif, .heif: 24
        }
    }

    @Test(
        "every format is recognised by content, probed and decoded with its pixels",
        arguments: ImageFormat.allCases)
    func roundTrip(format: ImageFormat) throws {
        let original = try quadrantImage(width: 64, height: 48)
        let bytes = try original.encoded(asFormat: format)
        #expect(ImageFormat.sniff(bytes) == format)
        let info = try ImageProbe.probe(bytes)
        #expect(info.format == format)
        #expect(info.pixelWidth == 64 && info.pixelHeight == 48)
        #expect(info.displayWidth == 64 && info.displayHeight == 48)
        #expect(info.orientation == .up)
        let decoded = try Image.decode(bytes)
        #expect(decoded.width == 64 && decoded.height == 48)
        let error = quadrantError(decoded)
        #expect(error <= Self.tolerance(format), "\(format): quadrant colours off by \(error)")
        if Self.tolerance(format) == 0 {
            let exactCheck = isExactQuadrantImage(decoded)
            #expect(exactCheck, "\(format) is lossless but a pixel changed")
        }
    }

    @Test(
        "magic bytes decide the format",
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
            (Array("GIF87a".utf8) + [1, 0], .gif),
            (Array("GIF89a".utf8) + [1, 0], .gif),
            (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
            (Array("BM".utf8) + Array(repeating: 0, count: 12) + [40, 0, 0, 0], .bmp),
            (Array("BM".utf8) + Array(repeating: 0, count: 12) + [124, 0, 0, 0], .bmp),
        ] as [([UInt8], ImageFormat)])
    func sniffMagic(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(bytes) == format)
        #expect(ImageFormat.sniff(Array(bytes.prefix(2))) == nil)
    }

    @Test(
        "HEIF and AVIF are told apart by their ftyp brands; other ISO media is no image",
        arguments: [
            (["heic", "mif1", "heic"], ImageFormat?.some(.heif)),
            (["heix", "mif1"], .heif),
            (["hevc", "msf1"], .heif),
            (["mif1", "heic"], .heif),
            (["msf1", "hevc"], .heif),
            (["mif1", "miaf"], .heif),
            (["avif", "mif1", "miaf"], .avif),
            (["avis", "msf1"], .avif),
            (["mif1", "avif", "miaf"], .avif),
            (["isom", "iso2", "mp41"], nil),
            (["qt  "], nil),
        ] as [([String], ImageFormat?)])
    func sniffBrands(brands: [String], format: ImageFormat?) {
        let ftyp = ISOBox(type: "ftyp", payload: Array(brands[0].utf8) + be32(0) + brands.dropFirst().flatMap { Array($0.utf8) })
        #expect(ImageFormat.sniff(ftyp.bytes + Array(repeating: 0, count: 16)) == format)
    }

    @Test("text, noise and look-alikes are not images")
    func sniffNonImages() {
        #expect(ImageFormat.sniff([]) == nil)
        #expect(ImageFormat.sniff(Array("plain text that is long enough to be sniffed".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("BM but then a letter, not a bitmap".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("RIFF....WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0x00, 0x00]) == nil)
    }

    @Test("a JPEG with the wrong extension is probed and decoded by its content")
    func wrongExtension() throws {
        let jpeg = try quadrantImage(width: 30, height: 20).encoded(as: .jpeg(quality: 90))
        for name in ["photo.png", "photo.gif", "photo", "photo.txt"] {
            let path = TemporaryFile.write(jpeg, name: name)
            defer { TemporaryFile.remove(path) }
            let info = try ImageProbe.probe(fileAtPath: path)
            #expect(info.format == .jpeg && info.pixelWidth == 30 && info.pixelHeight == 20)
        }
        let decoded = try Image.decode(jpeg)
        #expect(decoded.width == 30 && hasUprightQuadrants(decoded, tolerance: 24))
    }

    @Test("probing a file reads its header from disk; missing files and folders are I/O errors")
    func probeFile() throws {
        let bytes = try quadrantImage(width: 30, height: 20).encoded(as: .png)
        let path = TemporaryFile.write(bytes, name: "a.png")
        defer { TemporaryFile.remove(path) }
        let info = try ImageProbe.probe(fileAtPath: path)
        #expect(info.format == .png && info.pixelWidth == 30 && info.pixelHeight == 20)
        #expect(throws: ImagingError.io(path: path + ".missing", reason: "no such file")) {
            try ImageProbe.probe(fileAtPath: path + ".missing")
        }
        let folder = String(path.dropLast("/a.png".count))
        #expect(throws: ImagingError.io(path: folder, reason: "not a regular file")) { try ImageProbe.probe(fileAtPath: folder) }
        let empty = TemporaryFile.write([], name: "empty.jpg")
        defer { TemporaryFile.remove(empty) }
        #expect(throws: ImagingError.empty) { try ImageProbe.probe(fileAtPath: empty) }
    }

    @Test("a file probe reads the first 64 KiB, not the whole file")
    func probeReadsLittle() throws {
        // A JPEG followed by 3 MB of trailer (as motion photos have).
        let jpeg = try quadrantImage(width: 40, height: 30).encoded(as: .jpeg(quality: 80))
        let path = TemporaryFile.write(jpeg + Array(repeating: 0x55, count: 3_000_000), name: "big.jpg")
        defer { TemporaryFile.remove(path) }
        let reader = try ByteReader(path: path)
        let info = try ImageProbe.probe(reader)
        #expect(info.pixelWidth == 40 && info.pixelHeight == 30)
        #expect(reader.bytesRead <= 64 * 1024)
    }

    @Test("a TIFF whose directory is at the end is probed from the first and last blocks only")
    func probeTIFFDirectoryAtEnd() throws {
        let image = try quadrantImage(width: 600, height: 400)  // 720 KB of pixels before the directory
        let tiff = TIFFWriter(orientation: 1).write(image)
        let path = TemporaryFile.write(tiff, name: "end.tif")
        defer { TemporaryFile.remove(path) }
        let reader = try ByteReader(path: path)
        let info = try ImageProbe.probe(reader)
        #expect(info.format == .tiff && info.pixelWidth == 600 && info.pixelHeight == 400)
        #expect(reader.bytesRead <= 3 * 64 * 1024)
        #expect(reader.bytesRead < tiff.count / 2)
    }

    @Test("a JPEG whose frame header comes after long APP segments is still probed")
    func longPreamble() throws {
        var jpeg = try quadrantImage(width: 50, height: 40).encoded(as: .jpeg(quality: 80))
        for _ in 0..<4 {  // four 60 KB APP2 segments (like a large ICC profile)
            jpeg = JPEGBytes.inserting(marker: 0xE2, payload: Array(repeating: 0x20, count: 60_000), into: jpeg)
        }
        let info = try ImageProbe.probe(jpeg)
        #expect(info.pixelWidth == 50 && info.pixelHeight == 40)
        let path = TemporaryFile.write(jpeg, name: "icc.jpg")
        defer { TemporaryFile.remove(path) }
        #expect(try ImageProbe.probe(fileAtPath: path) == info)
        #expect(try Image.decode(jpeg).width == 50)
    }

    @Test("BMP stored top-down (negative height) is probed with its real height")
    func bmpTopDown() throws {
        var bmp = try quadrantImage(width: 20, height: 10).encoded(asFormat: .bmp)
        #expect(try ImageProbe.probe(bmp).pixelHeight == 10)
        bmp.replaceSubrange(22..<26, with: le32(-10 & 0xFFFF_FFFF))
        let info = try ImageProbe.probe(bmp)
        #expect(info.pixelWidth == 20 && info.pixelHeight == 10)
    }

    @Test("WebP lossless (VP8L) and extended (VP8X) headers give the size")
    func webpVariants() throws {
        // VP8L: signature 0x2F, then 14 bits of width - 1 and 14 bits of height - 1.
        let bits = (300 - 1) | (200 - 1) << 14
        let vp8l = Array("RIFF".utf8) + le32(30) + Array("WEBPVP8L".utf8) + le32(10) + [0x2F] + le32(bits) + Array(repeating: 0, count: 5)
        let lossless = try ImageProbe.probe(vp8l)
        #expect(lossless.format == .webp && lossless.pixelWidth == 300 && lossless.pixelHeight == 200)
        // VP8X: flags and reserved, then 24-bit width - 1 and height - 1.
        let vp8x = Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0, 0, 0, 0]
            + Array(le32(5000 - 1).prefix(3)) + Array(le32(3000 - 1).prefix(3))
        let extended = try ImageProbe.probe(vp8x)
        #expect(extended.pixelWidth == 5000 && extended.pixelHeight == 3000)
        // gd writes lossy VP8.
        let lossy = try ImageProbe.probe(try quadrantImage(width: 33, height: 17).encoded(as: .webp(quality: 50)))
        #expect(lossy.pixelWidth == 33 && lossy.pixelHeight == 17)
    }

    @Test("a GIF whose first frame is smaller than its screen is shown at its place on the screen")
    func gifFrameOnScreen() throws {
        // A 4×2 screen, a 2×1 frame at (1, 1) of colour index 1 (red); index 0 is transparent.
        let header = Array("GIF89a".utf8) + le16(4) + le16(2) + [0x80, 0, 0] + [0, 0, 0, 255, 0, 0]
        let control: [UInt8] = [0x21, 0xF9, 4, 0x01, 0, 0, 0, 0]  // transparent colour index 0
        let descriptor: [UInt8] = [0x2C] + le16(1) + le16(1) + le16(2) + le16(1) + [0]
        // LZW (minimum code size 2): clear (4), 1, 1, end (5) in 3-bit codes, least significant first.
        let data: [UInt8] = [2, 2, 0x4C, 0x0A, 0]
        let gif = header + control + descriptor + data + [0x3B]
        let info = try ImageProbe.probe(gif)
        #expect(info.pixelWidth == 4 && info.pixelHeight == 2)
        let image = try Image.decode(gif)
        #expect(image.width == 4 && image.height == 2)
        #expect(image.pixel(x: 1, y: 1) == (255, 0, 0, 255))
        #expect(image.pixel(x: 2, y: 1) == (255, 0, 0, 255))
        #expect(image.pixel(x: 0, y: 0).alpha == 0)
        #expect(image.pixel(x: 3, y: 1).alpha == 0)
    }
}

@Suite("Transparency from palettes and colour keys")
struct TransparencyKeyTests {
    @Test("a PNG colour key (tRNS on RGB) becomes alpha, for exactly that colour")
    func pngColourKey() throws {
        let png = PNGWriter.rgb(
            width: 3, height: 1, pixels: [[255, 0, 0, 0, 0, 255, 255, 0, 1]],
            extraChunks: [PNGWriter.chunk("tRNS", be16(255) + be16(0) + be16(0))])
        let image = try Image.decode(png)
        #expect(image.pixel(x: 0, y: 0).alpha == 0)
        #expect(image.pixel(x: 1, y: 0) == (0, 0, 255, 255))
        #expect(image.pixel(x: 2, y: 0) == (255, 0, 1, 255))  // one step from the key stays opaque
        let jpeg = try Image.decode(try image.encoded(as: .jpeg(quality: 95)))
        #expect(jpeg.pixel(x: 0, y: 0).green > 200)  // the keyed pixel is laid over white
    }

    @Test("a GIF's transparent entry does not make other entries of the same colour transparent")
    func gifSameColour() throws {
        // Palette: 0 black (transparent), 1 black (opaque); a 2×1 picture of indices 0, 1.
        let header = Array("GIF89a".utf8) + le16(2) + le16(1) + [0x80, 0, 0] + [0, 0, 0, 0, 0, 0]
        let control: [UInt8] = [0x21, 0xF9, 4, 0x01, 0, 0, 0, 0]
        let descriptor: [UInt8] = [0x2C] + le16(0) + le16(0) + le16(2) + le16(1) + [0]
        let data: [UInt8] = [2, 2, 0x44, 0x0A, 0]  // LZW: clear, 0, 1, end
        let image = try Image.decode(header + control + descriptor + data + [0x3B])
        #expect(image.pixel(x: 0, y: 0).alpha == 0)
        #expect(image.pixel(x: 1, y: 0) == (0, 0, 0, 255))
    }

    @Test("a hand-written stored-deflate PNG decodes exactly (checks the writer used above)")
    func storedPNG() throws {
        let png = PNGWriter.rgb(width: 2, height: 2, pixels: [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
        let image = try Image.decode(png)
        #expect(image.pixel(x: 1, y: 1) == (10, 11, 12, 255))
        #expect(image.pixel(x: 0, y: 1) == (7, 8, 9, 255))
    }
}
