import Dispatch
import Synchronization
import Testing
import TestSupport

@testable import Imaging

@Suite("Hostile input")
struct HostileInputTests {
    @Test("empty, random and text data are refused with a reason")
    func notImages() {
        #expect(throws: ImagingError.empty) { _ = try Image.decode([]) }
        #expect(throws: ImagingError.empty) { try ImageProbe.probe([]) }
        #expect(throws: ImagingError.unrecognizedFormat) { _ = try Image.decode(Array("hello, I am a text file named photo.jpg".utf8)) }
        #expect(throws: ImagingError.unrecognizedFormat) { try Renditions.make(from: Array("{}".utf8), widths: [100], format: .png) }
        for seed in 1...20 as ClosedRange<UInt64> {
            var random = SplitMix64(state: seed)
            let noise = (0..<Int.random(in: 1...5000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(throws: ImagingError.self) { _ = try Image.decode(noise) }
        }
        #expect(ImagingError.empty.description == "the file is empty")
        #expect(ImagingError.unrecognizedFormat.description == "not an image (unrecognised content)")
        #expect(ImagingError.truncated(.jpeg).description == "the JPEG data is truncated")
    }

    @Test("a text file named .jpg is refused by content")
    func textNamedJPEG() throws {
        let path = TemporaryFile.write(Array("Dear diary, today I took no photos.\n".utf8), name: "holiday.jpg")
        defer { TemporaryFile.remove(path) }
        #expect(throws: ImagingError.unrecognizedFormat) { try ImageProbe.probe(fileAtPath: path) }
    }

    @Test("an animated WebP is refused as animated, not as a failed allocation")
    func animatedWebP() {
        // RIFF, WEBP, a VP8X chunk (flags, reserved, 10 × 10 canvas), and room for nothing else.
        let canvas = Array(le32(10 - 1).prefix(3)) + Array(le32(10 - 1).prefix(3))
        let animated = Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0x02, 0, 0, 0] + canvas
            + Array(repeating: 0, count: 8)
        let expected = ImagingError.decodeFailed(.webp, detail: "animated WebP is not supported; export a still image or a GIF")
        #expect(throws: expected) { _ = try Image.decode(animated) }
        var still = animated
        still[20] = 0x10  // alpha, no animation: refused later, for another reason
        do {
            _ = try Image.decode(still)
            Issue.record("an empty VP8X file decoded")
        } catch {
            #expect(!error.description.contains("animated"))
        }
    }

    /// Noisy pictures of every format, so that cuts land inside the compressed data.
    static func encoded(_ format: ImageFormat) throws -> [UInt8] {
        try noisyImage(width: 120, height: 90).encoded(asFormat: format)
    }

    static func cutPoints(_ count: Int) -> [Int] {
        Array(Set([1, 2, 3, 5, 8, 12, 16, 20, 30, 50, 100, 200, count / 10, count / 4, count / 2, count * 3 / 4, count * 9 / 10, count - 20, count - 3, count - 2, count - 1].filter { $0 > 0 && $0 < count })).sorted()
    }

    @Test("a truncated JPEG is refused as truncated at every cut point, never a grey picture")
    func truncatedJPEG() throws {
        let jpeg = try Self.encoded(.jpeg)
        for cut in Self.cutPoints(jpeg.count) {
            let part = Array(jpeg.prefix(cut))
            let expected: ImagingError = cut < 3 ? .unrecognizedFormat : .truncated(.jpeg)
            #expect(throws: expected, "cut at \(cut) of \(jpeg.count)") { _ = try Image.decode(part) }
            #expect(throws: expected) { try Renditions.make(from: part, widths: [50], format: .jpeg(quality: 80)) }
        }
    }

    @Test("a truncated PNG is refused as truncated at every cut point")
    func truncatedPNG() throws {
        let png = try Self.encoded(.png)
        for cut in Self.cutPoints(png.count) {
            let expected: ImagingError = cut < 8 ? .unrecognizedFormat : .truncated(.png)
            #expect(throws: expected, "cut at \(cut) of \(png.count)") { _ = try Image.decode(Array(png.prefix(cut))) }
        }
    }

    @Test("truncated GIF, WebP, BMP and TIFF files are refused (the first three by structure, before gd)", arguments: [ImageFormat.gif, .webp, .bmp, .tiff])
    func truncatedOthers(format: ImageFormat) throws {
        let bytes = try Self.encoded(format)
        for cut in Self.cutPoints(bytes.count) {
            if format == .gif && cut == bytes.count - 1 { continue }  // only the trailer is missing: the picture is whole
            let part = Array(bytes.prefix(cut))
            do {
                _ = try Image.decode(part)
                Issue.record("a \(format) cut at \(cut) of \(bytes.count) decoded")
            } catch {
                let acceptable: Bool =
                    switch error {
                    case .truncated(format), .unrecognizedFormat: true
                    case .headerUnreadable(format), .decodeFailed(format, _): format == .tiff  // gd writes its directory last
                    default: false
                    }
                #expect(acceptable, "\(format) cut at \(cut): \(error)")
            }
        }
    }

    @Test("truncated AVIF and HEIF files fail cleanly", arguments: [ImageFormat.avif, .heif])
    func truncatedISO(format: ImageFormat) throws {
        let bytes = try Self.encoded(format)
        for cut in Self.cutPoints(bytes.count) {
            #expect(throws: ImagingError.self, "\(format) cut at \(cut)") { _ = try Image.decode(Array(bytes.prefix(cut))) }
        }
    }

    @Test("ISO boxes too short for their own fields are refused, or skipped when optional, never a crash")
    func isoBoxesTooShort() throws {
        func box(_ type: String, _ content: [UInt8]) -> [UInt8] { be32(8 + content.count) + Array(type.utf8) + content }
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        // A `meta` box without room for its version and flags (the fuzzer's find: it stopped the program).
        for content in [[], [0], [0, 0, 0]] as [[UInt8]] {
            #expect(throws: ImagingError.headerUnreadable(.heif)) {
                _ = try ISOMediaHeader.read(ByteReader(ftyp + box("meta", content)), format: .heif)
            }
        }
        // An `iinf` box without room for its entry count: the optional EXIF and XMP items are
        // skipped, and the image's size is still read.
        let ispe = box("ispe", be32(0) + be32(40) + be32(30))
        let meta = box("meta", [0, 0, 0, 0] + box("iinf", [0]) + box("iloc", Array(repeating: 0, count: 8))
                       + box("iprp", box("ipco", ispe)))
        let info = try ISOMediaHeader.read(ByteReader(ftyp + meta), format: .heif)
        #expect(info.pixelWidth == 40 && info.pixelHeight == 30)
    }

    @Test("a GIF missing only its trailer still decodes completely")
    func gifWithoutTrailer() throws {
        let gif = try quadrantImage(width: 20, height: 10).encoded(asFormat: .gif)
        #expect(gif.last == 0x3B)
        let image = try Image.decode(Array(gif.dropLast()))
        #expect(image.width == 20 && image.height == 10)
        #expect(quadrantError(image) <= 8)
    }

    /// A PNG header claiming 30000 × 30000 followed by a few bytes of nothing.
    static func pngBomb() -> [UInt8] {
        let ihdr = be32(30000) + be32(30000) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + ihdr + be32(0)
            + be32(10) + Array("IDAT".utf8) + Array(repeating: 0, count: 14)
    }

    /// Small files of every format whose headers claim 30000 × 30000 pixels (900 megapixels).
    static func bombs() throws -> [(ImageFormat, [UInt8])] {
        let small = try quadrantImage(width: 16, height: 16)
        let gif = Array("GIF89a".utf8) + le16(30000) + le16(30000) + [0, 0, 0, 0x2C] + Array(repeating: 0, count: 40)
        let webp = Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0, 0, 0, 0]
            + Array(le32(30000 - 1).prefix(3)) + Array(le32(30000 - 1).prefix(3)) + Array(repeating: 0, count: 8)
        var bmp = try small.encoded(asFormat: .bmp)
        bmp.replaceSubrange(18..<26, with: le32(30000) + le32(30000))
        var tiffImage = try Image(width: 1, height: 1)
        tiffImage.fill(x: 0, y: 0, width: 1, height: 1, red: 1, green: 2, blue: 3)
        var tiff = TIFFWriter().write(tiffImage)
        let ifd = Int(tiff[4]) | Int(tiff[5]) << 8
        tiff.replaceSubrange((ifd + 2 + 8)..<(ifd + 2 + 12), with: le32(30000))  // ImageWidth value
        tiff.replaceSubrange((ifd + 14 + 8)..<(ifd + 14 + 12), with: le32(30000))  // ImageLength value
        return [
            (.png, pngBomb()),
            (.jpeg, JPEGBytes.claiming(width: 30000, height: 30000, try small.encoded(as: .jpeg(quality: 80)))),
            (.gif, gif), (.webp, webp), (.bmp, bmp), (.tiff, tiff),
            (.avif, ISOFile.claiming(width: 30000, height: 30000, try small.encoded(asFormat: .avif))),
            (.heif, ISOFile.claiming(width: 30000, height: 30000, try small.encoded(asFormat: .heif))),
            (.heif, ISOFile.syntheticHEIF(width: 30000, height: 30000)),
        ]
    }

    @Test("headers claiming 30000×30000 are refused from the header, at once, before anything is decoded")
    func bombsRefused() throws {
        let limit = ImagingError.tooManyPixels(width: 30000, height: 30000, limit: 200_000_000)
        #expect(limit.description == "image is 30000×30000 pixels, above the limit of 200 megapixels")
        for (format, bomb) in try Self.bombs() {
            #expect(bomb.count < 20_000)
            let info = try ImageProbe.probe(bomb)
            #expect(info.format == format && info.pixelWidth == 30000 && info.pixelHeight == 30000)
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                #expect(throws: limit, "\(format)") { _ = try Image.decode(bomb) }
                #expect(throws: limit, "\(format)") { try Renditions.make(from: bomb, widths: [400], format: .jpeg(quality: 80)) }
            }
            // Allocating and clearing 3.6 GB would take seconds; refusing takes microseconds.
            #expect(elapsed < .milliseconds(500), "\(format) took \(elapsed)")
        }
    }

    @Test("the pixel limit is configurable and inclusive")
    func configurableLimit() throws {
        let png = try quadrantImage(width: 16, height: 16).encoded(as: .png)
        #expect(try Image.decode(png, limits: DecodeLimits(maxPixels: 256)).width == 16)
        #expect(throws: ImagingError.tooManyPixels(width: 16, height: 16, limit: 255)) {
            _ = try Image.decode(png, limits: DecodeLimits(maxPixels: 255))
        }
        #expect(throws: ImagingError.tooManyPixels(width: 16, height: 16, limit: 100)) {
            try Renditions.make(from: png, widths: [8], format: .png, limits: DecodeLimits(maxPixels: 100))
        }
        #expect(DecodeLimits.default.maxPixels == 200_000_000)
        #expect(ImagingError.tooManyPixels(width: 16, height: 16, limit: 100).description.hasSuffix("above the limit of 100 pixels"))
    }

    @Test("a PNG too short to hold the pixels its header claims is refused before gd allocates them")
    func pngTooShortForItsSize() throws {
        // 10000 × 10000 RGBA (400 MB of rows) is under a 200 MP limit, but 100 bytes cannot hold it.
        var png = Self.pngBomb()
        png.replaceSubrange(16..<24, with: be32(10000) + be32(10000))
        #expect(throws: ImagingError.truncated(.png)) { _ = try Image.decode(png) }
    }

    @Test("headers with a zero size are unreadable")
    func zeroSize() throws {
        var png = Self.pngBomb()
        png.replaceSubrange(16..<20, with: be32(0))
        #expect(throws: ImagingError.headerUnreadable(.png)) { try ImageProbe.probe(png) }
        let jpeg = JPEGBytes.claiming(width: 0, height: 10, try quadrantImage(width: 8, height: 8).encoded(as: .jpeg(quality: 80)))
        #expect(throws: ImagingError.headerUnreadable(.jpeg)) { _ = try Image.decode(jpeg) }
        let noFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9]  // a scan before any frame header
        #expect(throws: ImagingError.headerUnreadable(.jpeg)) { try ImageProbe.probe(noFrame) }
    }

    @Test("decoding on many threads at once keeps each thread's gd messages apart")
    func concurrentDiagnostics() throws {
        let good = try noisyImage(width: 120, height: 90).encoded(as: .jpeg(quality: 85))
        // Cut inside the scan and fake the end marker: only libjpeg's warning tells it is short.
        let cut = Array(good.prefix(good.count / 2)) + [0xFF, 0xD9]
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let bytes = index % 2 == 0 ? good : cut
            let result = Result { () throws(ImagingError) -> Int in try Image.decode(bytes).width }
            outcomes.record(index, result)
        }
        for (index, result) in outcomes.all {
            if index % 2 == 0 {
                #expect(result == .success(120), "good JPEG \(index)")
            } else {
                #expect(result == .failure(.truncated(.jpeg)), "cut JPEG \(index)")
            }
        }
    }
}

/// Results gathered from several threads.
final class Outcomes: Sendable {
    private let results = Mutex<[Int: Result<Int, ImagingError>]>([:])

    func record(_ index: Int, _ result: Result<Int, ImagingError>) {
        results.withLock { $0[index] = result }
    }

    var all: [(Int, Result<Int, ImagingError>)] {
        results.withLock { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }
}

@Suite("Fuzzing")
struct FuzzTests {
    /// `bytes` with a few random bytes changed, inserted or removed, or cut short.
    static func mutated(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !result.isEmpty else { break }
            // Headers are where parsers go wrong: aim half of the changes at the first 64 bytes.
            let limit = Bool.random(using: &random) ? min(64, result.count) : result.count
            let position = Int.random(in: 0..<limit, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: result[position] = .random(in: 0...255, using: &random)
            case 1: result[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 2: result.insert(.random(in: 0...255, using: &random), at: position)
            case 3: result.remove(at: position)
            default: result = Array(result.prefix(position))
            }
        }
        return result
    }

    /// libpng prints its warnings about damaged chunks ("libpng warning: pHYs: CRC error") to
    /// stderr itself: libgd installs no warning handler, so these lines cannot be captured.
    @Test("damaged files of every format never crash the probe or the decoder", arguments: ImageFormat.allCases)
    func mutations(format: ImageFormat) throws {
        let original = try noisyImage(width: 96, height: 72, seed: 11).encoded(asFormat: format)
        var random = SplitMix64(state: UInt64(format.rawValue.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        let limits = DecodeLimits(maxPixels: 1_000_000)  // mutated headers may claim anything
        for _ in 0..<200 {
            let bytes = Self.mutated(original, using: &random)
            let info = try? ImageProbe.probe(bytes)
            if let image = try? Image.decode(bytes, limits: limits) {
                // Whatever decodes matches its header, so the pixel limit saw the real size.
                #expect(image.width == info?.pixelWidth && image.height == info?.pixelHeight)
                _ = try? image.resized(toWidth: 10).encoded(as: .jpeg(quality: 50))
            }
        }
    }
}
