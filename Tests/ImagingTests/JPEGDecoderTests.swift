import Testing

@testable import Imaging

/// Decoding JPEGs at a reduced size with libjpeg-turbo's DCT scaling.
@Suite("JPEG decoding at reduced size")
struct JPEGDecoderTests {
    @Test("the smallest scaling factor that still covers the largest image is chosen",
          arguments: [
            (4000, 3000, 2400, 1800, 5, 8), (4000, 3000, 400, 300, 1, 8), (4000, 3000, 501, 376, 1, 4),
            (4000, 3000, 4000, 3000, 1, 1), (4000, 3000, 1, 1, 1, 8), (3000, 4000, 1800, 2400, 5, 8),
            (100, 100, 13, 13, 1, 8), (100, 100, 14, 14, 1, 4),
          ])
    func scaleChoice(width: Int, height: Int, minWidth: Int, minHeight: Int, num: Int, denom: Int) {
        let factor = JPEGDecoder.scale(width: width, height: height, minimumWidth: minWidth, minimumHeight: minHeight)
        #expect(factor.num * denom == num * factor.denom, "got \(factor.num)/\(factor.denom)")
        #expect((width * factor.num + factor.denom - 1) / factor.denom >= minWidth)
        #expect((height * factor.num + factor.denom - 1) / factor.denom >= minHeight)
    }

    @Test("a scaled decode gives the picture a full decode gives, at the smaller size",
          arguments: [(1600, 1200, 400), (1601, 1203, 800), (1200, 1600, 300)])
    func scaledMatchesFull(width: Int, height: Int, target: Int) throws {
        let jpeg = try quadrantImage(width: width, height: height).encoded(as: .jpeg(quality: 92))
        let info = try ImageProbe.probe(jpeg)
        let targetHeight = (height * target + width - 1) / width
        guard let scaled = try JPEGDecoder.decode(
            jpeg, info: info, limits: .default, minimumWidth: target, minimumHeight: targetHeight)
        else { Issue.record("an RGB JPEG was not decoded by TurboJPEG"); return }
        #expect(scaled.width >= target && scaled.width < width, "decoded at \(scaled.width)")
        #expect(scaled.height >= targetHeight)
        let upright = hasUprightQuadrants(scaled, tolerance: 12)
        #expect(upright)
        #expect(scaled.pixel(x: 0, y: 0).alpha == 255, "pixels must be opaque")

        // The renditions made through the scaled decode match those made from a full decode.
        let set = try Renditions.make(from: jpeg, widths: [target], format: .png)
        let fromFull = try Image.decode(jpeg).resized(toWidth: target)
        let made = try Image.decode(set.renditions[0].bytes)
        #expect(made.width == fromFull.width && made.height == fromFull.height)
        var worst = 0
        for (x, y) in [(made.width / 4, made.height / 4), (made.width * 3 / 4, made.height * 3 / 4), (made.width / 2 + 7, made.height / 3)] {
            let a = made.pixel(x: x, y: y)
            let b = fromFull.pixel(x: x, y: y)
            worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
        }
        #expect(worst <= 12, "scaled and full decodes differ by \(worst)")
        #expect(set.info.displayWidth == width && set.info.displayHeight == height)
    }

    @Test("at full size TurboJPEG gives every pixel gd gives: its buffer, not zeroed first, is written whole")
    func fullSizeMatchesGD() throws {
        // Decode something else first, so the allocator has used memory to hand out.
        let other = try noisyImage(width: 300, height: 200, seed: 9).encoded(as: .jpeg(quality: 80))
        _ = try JPEGDecoder.decode(other, info: try ImageProbe.probe(other), limits: .default, minimumWidth: 300, minimumHeight: 200)
        let jpeg = try noisyImage(width: 157, height: 93).encoded(as: .jpeg(quality: 90))
        guard let turbo = try JPEGDecoder.decode(jpeg, info: try ImageProbe.probe(jpeg), limits: .default, minimumWidth: 157, minimumHeight: 93)
        else { Issue.record("an RGB JPEG was not decoded by TurboJPEG"); return }
        let gd = try Image.decode(jpeg)
        var differing = 0
        for y in 0..<93 {
            for x in 0..<157 where turbo.pixel(x: x, y: y) != gd.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(turbo.width == 157 && turbo.height == 93)
        #expect(differing == 0, "\(differing) pixels differ")
    }

    @Test("converting while decoding gives every byte that decoding, then converting, gives")
    func convertedWhileDecoded() throws {
        guard case .transform(let transform) = ColourConversion.plan(for: .icc(RGBSpace.displayP3.iccProfile)) else {
            Issue.record("no Display P3 transform")
            return
        }
        #expect(transform.usesTables)
        // 403 × 301 decodes at 1/2 to 202 × 151: a pixel count that is no multiple of 8, so the
        // Swift loop converts the last pixels.
        let jpeg = try noisyImage(width: 403, height: 301).encoded(as: .jpeg(quality: 90))
        let info = try ImageProbe.probe(jpeg)
        guard let together = try JPEGDecoder.decode(
                jpeg, info: info, limits: .default, minimumWidth: 200, minimumHeight: 150, converting: transform),
            let apart = try JPEGDecoder.decode(jpeg, info: info, limits: .default, minimumWidth: 200, minimumHeight: 150)
        else { Issue.record("an RGB JPEG was not decoded by TurboJPEG"); return }
        #expect(together.width == 202 && together.height == 151 && apart.width == 202 && apart.height == 151)
        let count = apart.width * apart.height
        #expect(count % 8 != 0)
        let decoded = Array(UnsafeBufferPointer(start: apart.contiguousPixels!, count: count))
        #expect(ColourConversion.apply(.transform(transform), to: apart) == nil)
        let converted = Array(UnsafeBufferPointer(start: apart.contiguousPixels!, count: count))
        let fused = Array(UnsafeBufferPointer(start: together.contiguousPixels!, count: count))
        let differing = zip(fused, converted).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(count) pixels differ")
        #expect(fused.allSatisfy { $0 >> 24 == 0 }, "every pixel opaque (gd's alpha 0)")
        #expect(zip(decoded, converted).filter { $0 != $1 }.count > count / 2, "the conversion changes most pixels")
    }

    @Test("progressive JPEGs decode at reduced size too")
    func progressive() throws {
        let jpeg = try quadrantImage(width: 800, height: 600).encoded(as: .jpeg(quality: 90), progressive: true)
        let info = try ImageProbe.probe(jpeg)
        guard let scaled = try JPEGDecoder.decode(jpeg, info: info, limits: .default, minimumWidth: 200, minimumHeight: 150)
        else { Issue.record("a progressive JPEG was not decoded by TurboJPEG"); return }
        #expect(scaled.width == 200 && scaled.height == 150)
        let upright = hasUprightQuadrants(scaled, tolerance: 12)
        #expect(upright)
    }

    @Test("a truncated JPEG is refused as truncated, not shown half grey")
    func truncated() throws {
        let jpeg = try noisyImage(width: 800, height: 600).encoded(as: .jpeg(quality: 90))
        let cut = Array(jpeg.prefix(jpeg.count * 2 / 3))
        let info = try ImageProbe.probe(cut)
        #expect(throws: ImagingError.truncated(.jpeg)) {
            _ = try JPEGDecoder.decode(cut, info: info, limits: .default, minimumWidth: 100, minimumHeight: 75)
        }
    }

    @Test("the pixel limit applies before anything is decoded")
    func limit() throws {
        let jpeg = try quadrantImage(width: 400, height: 300).encoded(as: .jpeg(quality: 90))
        let info = try ImageProbe.probe(jpeg)
        #expect(throws: ImagingError.tooManyPixels(width: 400, height: 300, limit: 1000)) {
            _ = try JPEGDecoder.decode(jpeg, info: info, limits: DecodeLimits(maxPixels: 1000), minimumWidth: 10, minimumHeight: 10)
        }
    }
}
