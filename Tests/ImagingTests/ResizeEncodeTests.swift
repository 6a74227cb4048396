import Testing
import TestSupport

@testable import Imaging

@Suite("Resizing, encoding, colour and renditions")
struct ResizeEncodeTests {
    @Test(
        "resizing keeps the aspect ratio and never enlarges",
        arguments: [(400, 300, 100, 75), (400, 300, 400, 300), (400, 300, 1000, 300), (3000, 10, 100, 1), (7, 5, 3, 2), (5, 7, 1, 1)])
    func resize(width: Int, height: Int, target: Int, expectedHeight: Int) throws {
        let image = try quadrantImage(width: width, height: height)
        let resized = try image.resized(toWidth: target)
        #expect(resized.width == min(target, width))
        #expect(resized.height == expectedHeight)
        #expect(image.width == width && image.height == height)  // the original is untouched
    }

    @Test("a same-size resize is an exact copy")
    func sameSize() throws {
        let image = try quadrantImage(width: 33, height: 21)
        let exactCheck = isExactQuadrantImage(try image.resized(toWidth: 33))
        #expect(exactCheck)
        let largerCheck = isExactQuadrantImage(try image.resized(toWidth: 500))
        #expect(largerCheck)
    }

    @Test("reductions keep the picture, small and large ones", arguments: [(300, 200), (300, 100), (2000, 100)])
    func keepsPicture(width: Int, target: Int) throws {
        let image = try quadrantImage(width: width, height: width * 3 / 4)
        let small = try image.resized(toWidth: target)
        #expect(small.width == target && small.height == target * 3 / 4)
        #expect(quadrantError(small) <= 8)
    }

    @Test("an opaque picture is averaged the same by the fast opaque path and the premultiplied one",
          arguments: [(301, 203, 97, 61), (640, 480, 400, 300), (50, 50, 49, 3)])
    func opaquePathAgrees(width: Int, height: Int, targetWidth: Int, targetHeight: Int) throws {
        var image = try Image(width: width, height: height)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let bits = UInt32(truncatingIfNeeded: state >> 33)
                image.fill(x: x, y: y, width: 1, height: 1, red: UInt8(bits & 0xFF), green: UInt8((bits >> 8) & 0xFF), blue: UInt8((bits >> 16) & 0xFF))
            }
        }
        let fast = try Image(width: targetWidth, height: targetHeight)
        let premultiplied = try Image(width: targetWidth, height: targetHeight)
        AreaResampler.resample(source: image.rows, sourceWidth: width, target: fast.rows, targetWidth: targetWidth, opaque: true)
        AreaResampler.resample(source: image.rows, sourceWidth: width, target: premultiplied.rows, targetWidth: targetWidth, opaque: false)
        var worst = 0
        for y in 0..<targetHeight {
            for x in 0..<targetWidth {
                let a = fast.pixel(x: x, y: y)
                let b = premultiplied.pixel(x: x, y: y)
                #expect(a.alpha == 255 && b.alpha == 255)
                worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
            }
        }
        #expect(worst <= 1, "the two paths differ by \(worst)")
        // Noise averaged over a few pixels is not flat: the comparison saw real variation.
        let corner = fast.pixel(x: 0, y: 0)
        #expect((0..<targetWidth).contains { fast.pixel(x: $0, y: targetHeight / 2).red != corner.red })
    }

    /// The area average by its definition, in doubles: output pixel (x, y) of a `width` ×
    /// `height` result is the average of the source pixels under the rectangle it covers, each
    /// weighted by the area it shares with it and by its opacity; gd's values (seven-bit alpha).
    static func referenceAverage(of image: borrowing Image, width: Int, height: Int, x: Int, y: Int) -> (alpha: Double, red: Double, green: Double, blue: Double)? {
        func overlaps(_ index: Int, _ target: Int, _ source: Int) -> [(Int, Double)] {
            let scale = Double(source) / Double(target)
            let low = Double(index) * scale, high = Double(index + 1) * scale
            return (Int(low)..<min(source, Int(high.rounded(.up)))).map { ($0, min(high, Double($0 + 1)) - max(low, Double($0))) }
        }
        let rows = image.rows
        var area = 0.0, opacity = 0.0, red = 0.0, green = 0.0, blue = 0.0
        for (sy, wy) in overlaps(y, height, image.height) {
            for (sx, wx) in overlaps(x, width, image.width) {
                let value = rows[sy][sx]
                let weight = wx * wy
                let o = Double(127 - ((value >> 24) & 0x7F)) * weight
                area += weight
                opacity += o
                red += Double((value >> 16) & 0xFF) * o
                green += Double((value >> 8) & 0xFF) * o
                blue += Double(value & 0xFF) * o
            }
        }
        guard opacity > 0 else { return nil }
        return (127 - opacity / area, red / opacity, green / opacity, blue / opacity)
    }

    @Test("every output pixel is the area average of what it covers, within one level, opaque or not",
          arguments: [(97, 61, 40, 25), (250, 180, 240, 172), (64, 48, 63, 47), (33, 20, 5, 3)], [false, true])
    func areaAverage(sizes: (Int, Int, Int, Int), alpha: Bool) throws {
        let (width, height, targetWidth, targetHeight) = sizes
        let image = try OrientationTests.noise(width: width, height: height, alpha: alpha, seed: UInt64(width))
        let opaque = image.isOpaque
        #expect(opaque == !alpha)
        let small = try image.resized(width: targetWidth, height: targetHeight)
        let rows = small.rows
        var worst = 0.0
        for y in 0..<targetHeight {
            for x in 0..<targetWidth {
                let value = rows[y][x]
                guard let expected = Self.referenceAverage(of: image, width: targetWidth, height: targetHeight, x: x, y: y) else {
                    #expect(value == 0x7F00_0000, "(\(x), \(y)) covers only transparent pixels")
                    continue
                }
                worst = max(worst, abs(Double((value >> 24) & 0x7F) - expected.alpha), abs(Double((value >> 16) & 0xFF) - expected.red),
                            abs(Double((value >> 8) & 0xFF) - expected.green), abs(Double(value & 0xFF) - expected.blue))
            }
        }
        #expect(worst <= 1, "\(width)×\(height) to \(targetWidth)×\(targetHeight): \(worst) levels from the area average")
    }

    @Test("a JPEG is known opaque without a look at its pixels, and so are the images scaled from it; painting with a transparent colour undoes that")
    func knownOpaque() throws {
        let jpeg = try noisyImage(width: 64, height: 48).encoded(as: .jpeg(quality: 90))
        var decoded = try Image.decode(jpeg)
        let decodedKnown = decoded.knownOpaque
        #expect(decodedKnown)
        guard let scaled = try JPEGDecoder.decode(jpeg, info: try ImageProbe.probe(jpeg), limits: .default, minimumWidth: 32, minimumHeight: 24) else {
            Issue.record("TurboJPEG did not decode the JPEG")
            return
        }
        let scaledKnown = scaled.knownOpaque && scaled.width == 32
        #expect(scaledKnown)
        let resizedKnown = try decoded.resized(width: 20, height: 15, from: .right).knownOpaque
        let turnedKnown = try decoded.copy().oriented(.left).knownOpaque
        #expect(resizedKnown && turnedKnown)
        decoded.fill(x: 0, y: 0, width: 2, height: 2, red: 1, green: 2, blue: 3, alpha: 100)
        let paintedKnown = decoded.knownOpaque || decoded.isOpaque
        #expect(!paintedKnown)
        // A PNG with alpha is never taken for opaque, and one without is found opaque by looking.
        var clear = try Image(width: 8, height: 8)
        clear.fill(x: 0, y: 0, width: 8, height: 8, red: 0, green: 0, blue: 0, alpha: 0)
        let png = try Image.decode(try clear.encoded(as: .png))
        let pngOpaque = png.knownOpaque || png.isOpaque
        #expect(!pngOpaque)
        let opaquePNG = try Image.decode(try quadrantImage(width: 8, height: 8).encoded(as: .png))
        let foundOpaque = !opaquePNG.knownOpaque && opaquePNG.isOpaque
        #expect(foundOpaque)
    }

    @Test("a solid picture stays solid up to its edges (no dark border)", arguments: [(640, 480, 100), (640, 480, 500), (1000, 10, 300), (301, 203, 97)])
    func solidEdges(width: Int, height: Int, target: Int) throws {
        var image = try Image(width: width, height: height)
        image.fill(x: 0, y: 0, width: width, height: height, red: 200, green: 150, blue: 50)
        let small = try image.resized(toWidth: target)
        for (x, y) in [(0, 0), (small.width - 1, 0), (0, small.height - 1), (small.width - 1, small.height - 1), (small.width / 2, small.height / 2)] {
            let p = small.pixel(x: x, y: y)
            #expect(abs(Int(p.red) - 200) <= 2 && abs(Int(p.green) - 150) <= 2 && abs(Int(p.blue) - 50) <= 2 && p.alpha == 255, "(\(x), \(y)): \(p)")
        }
    }

    @Test("transparent pixels become white in a JPEG; half-transparent ones are blended")
    func jpegFlattening() throws {
        var image = try Image(width: 20, height: 20)
        image.fill(x: 0, y: 0, width: 20, height: 10, red: 0, green: 0, blue: 0, alpha: 0)
        image.fill(x: 0, y: 10, width: 20, height: 10, red: 255, green: 0, blue: 0, alpha: 128)
        let jpeg = try Image.decode(try image.encoded(as: .jpeg(quality: 95)))
        let clear = jpeg.pixel(x: 10, y: 4)
        #expect(clear.red > 245 && clear.green > 245 && clear.blue > 245)
        let half = jpeg.pixel(x: 10, y: 15)
        #expect(half.red > 240 && abs(Int(half.green) - 127) <= 10 && abs(Int(half.blue) - 127) <= 10, "\(half)")
    }

    @Test("a transparent PNG decoded from bytes turns white in a JPEG rendition")
    func transparentPNGToJPEG() throws {
        var image = try Image(width: 40, height: 40)
        image.fill(x: 0, y: 0, width: 40, height: 40, red: 0, green: 0, blue: 0, alpha: 0)
        image.fill(x: 10, y: 10, width: 20, height: 20, red: 0, green: 0, blue: 255)
        let png = try image.encoded(as: .png)
        let set = try Renditions.make(from: png, widths: [40], format: .jpeg(quality: 90))
        let jpeg = try Image.decode(set.renditions[0].bytes)
        let corner = jpeg.pixel(x: 2, y: 2)
        #expect(corner.red > 245 && corner.green > 245 && corner.blue > 245, "\(corner)")
        let centre = jpeg.pixel(x: 20, y: 20)
        #expect(centre.blue > 235 && centre.red < 20)
    }

    @Test("PNG keeps alpha exactly, and is RGB (colour type 2) when the picture is opaque")
    func pngAlpha() throws {
        var image = try Image(width: 8, height: 8)
        image.fill(x: 0, y: 0, width: 8, height: 8, red: 10, green: 20, blue: 30, alpha: 0)
        image.fill(x: 0, y: 0, width: 4, height: 4, red: 10, green: 20, blue: 30)
        let png = try image.encoded(as: .png)
        #expect(png[25] == 6)  // RGBA
        let decoded = try Image.decode(png)
        #expect(decoded.pixel(x: 1, y: 1) == (10, 20, 30, 255))
        #expect(decoded.pixel(x: 6, y: 6).alpha == 0)
        let opaque = try quadrantImage(width: 8, height: 8).encoded(as: .png)
        #expect(opaque[25] == 2)  // RGB
    }

    @Test("WebP keeps transparency")
    func webpAlpha() throws {
        var image = try Image(width: 20, height: 20)
        image.fill(x: 0, y: 0, width: 20, height: 20, red: 0, green: 0, blue: 0, alpha: 0)
        let webp = try Image.decode(try image.encoded(as: .webp(quality: 90)))
        #expect(webp.pixel(x: 10, y: 10).alpha < 10)
    }

    @Test("JPEG is baseline by default and progressive on request")
    func progressive() throws {
        let image = try noisyImage(width: 64, height: 64)
        let baseline = try image.encoded(as: .jpeg(quality: 80))
        let progressive = try image.encoded(as: .jpeg(quality: 80), progressive: true)
        #expect(baseline.contains(sequence: [0xFF, 0xC0]) && !baseline.contains(sequence: [0xFF, 0xC2]))
        #expect(progressive.contains(sequence: [0xFF, 0xC2]))
        #expect(try Image.decode(progressive).width == 64)
        #expect(try image.encoded(as: .jpeg(quality: 80)) == baseline)  // the flag does not stick
    }

    @Test("encode formats name their files")
    func formatNames() {
        #expect(EncodeFormat.jpeg(quality: 80).fileExtension == "jpg" && EncodeFormat.jpeg(quality: 80).mimeType == "image/jpeg")
        #expect(EncodeFormat.webp(quality: 80).fileExtension == "webp" && EncodeFormat.webp(quality: 80).mimeType == "image/webp")
        #expect(EncodeFormat.png.fileExtension == "png" && EncodeFormat.png.mimeType == "image/png")
    }

    @Test("the average colour of a solid picture is its colour")
    func averageSolid() throws {
        var image = try Image(width: 50, height: 30)
        image.fill(x: 0, y: 0, width: 50, height: 30, red: 12, green: 200, blue: 99)
        #expect(image.averageColor() == RGBColor(red: 12, green: 200, blue: 99))
        #expect(image.averageColor().hex == "#0cc863")
    }

    @Test("the average colour mixes the picture, and shows transparency over white")
    func averageMixed() throws {
        var image = try Image(width: 40, height: 40)
        image.fill(x: 0, y: 0, width: 20, height: 40, red: 255, green: 0, blue: 0)
        image.fill(x: 20, y: 0, width: 20, height: 40, red: 0, green: 0, blue: 255)
        let mixed = image.averageColor()
        #expect(abs(Int(mixed.red) - 128) <= 1 && mixed.green == 0 && abs(Int(mixed.blue) - 128) <= 1)
        image.fill(x: 0, y: 0, width: 40, height: 40, red: 0, green: 0, blue: 0, alpha: 0)
        #expect(image.averageColor() == RGBColor(red: 255, green: 255, blue: 255))
    }

    @Test("renditions: one per smaller width, plus the picture's own width when a larger one is asked, ascending")
    func renditionWidths() throws {
        let png = try quadrantImage(width: 1000, height: 500).encoded(as: .png)
        let set = try Renditions.make(from: png, widths: [1600, 400, 800, 2400, 800], format: .webp(quality: 80))
        #expect(set.renditions.map(\.width) == [400, 800, 1000])
        #expect(set.renditions.map(\.height) == [200, 400, 500])
        for rendition in set.renditions {
            #expect(ImageFormat.sniff(rendition.bytes) == .webp)
            let decoded = try Image.decode(rendition.bytes)
            #expect(decoded.width == rendition.width && decoded.height == rendition.height)
            #expect(quadrantError(decoded) <= 24)
        }
        #expect(set.info.displayWidth == 1000 && set.info.displayHeight == 500)

        let smallerOnly = try Renditions.make(from: png, widths: [400, 800], format: .jpeg(quality: 80))
        #expect(smallerOnly.renditions.map(\.width) == [400, 800])
        let exact = try Renditions.make(from: png, widths: [400, 1000], format: .jpeg(quality: 80))
        #expect(exact.renditions.map(\.width) == [400, 1000])
        let largerOnly = try Renditions.make(from: png, widths: [4000], format: .jpeg(quality: 80))
        #expect(largerOnly.renditions.map(\.width) == [1000])
        let none = try Renditions.make(from: png, widths: [0, -5], format: .jpeg(quality: 80))
        #expect(none.renditions.map(\.width) == [1000])
    }

    @Test("the widths made: each requested width below the picture's once, its own width when one reaches it, ascending")
    func targetWidthsModel() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let full = Int.random(in: 1...3000, using: &generator)
            let requested = (0..<Int.random(in: 0...7, using: &generator)).map { _ in Int.random(in: -10...3500, using: &generator) }
            let positive = requested.filter { $0 > 0 }
            var expected = Set(positive.filter { $0 < full })
            if positive.contains(where: { $0 >= full }) || expected.isEmpty { expected.insert(full) }
            #expect(Renditions.targetWidths(requested: requested, fullWidth: full) == expected.sorted(), "\(requested) for \(full)")
        }
    }

    @Test("several formats: every width is encoded in each, in the order asked, from the same pixels")
    func severalFormats() throws {
        let png = try quadrantImage(width: 600, height: 300).encoded(as: .png)
        let formats: [EncodeFormat] = [.jpeg(quality: 85), .avif(quality: 70), .webp(quality: 85)]
        let set = try Renditions.make(from: png, widths: [200, 400], formats: formats)
        #expect(set.renditions.map(\.width) == [200, 400])
        for rendition in set.renditions {
            #expect(rendition.encodings.map(ImageFormat.sniff) == [.jpeg, .avif, .webp])
            #expect(rendition.bytes == rendition.encodings[0])
            for encoding in rendition.encodings {
                let decoded = try Image.decode(encoding)
                #expect(decoded.width == rendition.width && decoded.height == rendition.height)
                #expect(quadrantError(decoded) <= 24)
            }
        }
        #expect(throws: ImagingError.self) { try Renditions.make(from: png, widths: [200], formats: []) }
    }

    @Test("a rendition at the photo's own size is re-encoded, never the original bytes")
    func neverOriginal() throws {
        let jpeg = ExifBuilder(gps: true).inserted(into: try quadrantImage(width: 100, height: 50).encoded(as: .jpeg(quality: 90)))
        let set = try Renditions.make(from: jpeg, widths: [100], format: .jpeg(quality: 90))
        #expect(set.renditions.count == 1)
        #expect(set.renditions[0].bytes != jpeg)
        #expect(!set.renditions[0].bytes.contains(sequence: Array("Exif".utf8)))
    }

    @Test("the rendition set's colour is the picture's average")
    func renditionColour() throws {
        var image = try Image(width: 300, height: 200)
        image.fill(x: 0, y: 0, width: 300, height: 200, red: 40, green: 90, blue: 160)
        let set = try Renditions.make(from: try image.encoded(as: .png), widths: [100, 200], format: .png)
        #expect(set.averageColor == RGBColor(red: 40, green: 90, blue: 160))
        #expect(set.averageColor.hex == "#285aa0")
    }

    @Test("blank images of impossible sizes are refused")
    func invalidSizes() {
        #expect(throws: ImagingError.invalidSize(width: 0, height: 10)) { _ = try Image(width: 0, height: 10) }
        #expect(throws: ImagingError.invalidSize(width: 10, height: -1)) { _ = try Image(width: 10, height: -1) }
        #expect(throws: ImagingError.invalidSize(width: 100_000, height: 100_000)) { _ = try Image(width: 100_000, height: 100_000) }
    }
}
