import Testing
@testable import Imaging

/// Colours a photo's profile gives its pixels: the published images must show them in sRGB.
@Suite struct ColourTests {
    /// Four patches, each 16 px wide (aligned to JPEG blocks), of colours in the source space.
    static let patches: [(UInt8, UInt8, UInt8)] = [(200, 80, 60), (60, 160, 90), (90, 110, 200), (230, 200, 80)]

    static func patchImage(scale: Int = 1) throws -> Image {
        var image = try Image(width: 64 * scale, height: 16 * scale)
        for (index, c) in patches.enumerated() {
            image.fill(x: index * 16 * scale, y: 0, width: 16 * scale, height: 16 * scale, red: c.0, green: c.1, blue: c.2)
        }
        return image
    }

    /// The colour at the centre of patch `index` of an image `scale` times the 64 × 16 original.
    static func patchColour(_ image: borrowing Image, _ index: Int, scale: Int = 1) -> (Int, Int, Int) {
        let p = image.pixel(x: index * 16 * scale + 8 * scale, y: 8 * scale)
        return (Int(p.red), Int(p.green), Int(p.blue))
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        max(abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2))
    }

    /// Checks that the images made from `file` (whose pixels are in `space`) show each patch as
    /// its sRGB rendering within 2 levels, and that this differs from reading the pixels as sRGB
    /// by at least `minimumShift` levels for some patch (so the test fails without the conversion).
    static func checkConverted(_ file: [UInt8], space: RGBSpace, minimumShift: Int, widths: [Int] = [64], scale: Int = 1) throws {
        let unconverted = try Image.decode(file)  // the pixels as stored, read as sRGB
        let set = try Renditions.make(from: file, widths: widths, format: .png)
        #expect(set.warnings.isEmpty)
        let output = try Image.decode(set.renditions.last!.bytes)
        let outScale = output.width / 64
        var largestShift = 0
        for index in patches.indices {
            let stored = patchColour(unconverted, index, scale: scale)
            let expected = space.toSRGB((UInt8(stored.0), UInt8(stored.1), UInt8(stored.2)))
            let made = patchColour(output, index, scale: outScale)
            #expect(distance(made, expected) <= 2, "patch \(index): made \(made), sRGB rendering \(expected)")
            largestShift = max(largestShift, distance(made, stored))
        }
        #expect(largestShift >= minimumShift, "the conversion moved no patch by \(minimumShift) levels (at most \(largestShift))")
    }

    @Test(arguments: [("Display P3", RGBSpace.displayP3, 15), ("Adobe RGB", RGBSpace.adobeRGB, 15)])
    func jpegWithICCProfile(name: String, space: RGBSpace, shift: Int) throws {
        let jpeg = jpegWithProfile(try Self.patchImage().encoded(as: .jpeg(quality: 100)), profile: space.iccProfile)
        try Self.checkConverted(jpeg, space: space, minimumShift: shift)
    }

    @Test(arguments: [("Display P3", RGBSpace.displayP3, 15), ("Adobe RGB", RGBSpace.adobeRGB, 15)])
    func pngWithICCPChunk(name: String, space: RGBSpace, shift: Int) throws {
        let png = pngWithICCP(try Self.patchImage().encoded(as: .png), compressed: Zlib.deflate(space.iccProfile))
        try Self.checkConverted(png, space: space, minimumShift: shift)
    }

    @Test func tiffWithICCTag() throws {
        var writer = TIFFWriter()
        writer.iccProfile = RGBSpace.adobeRGB.iccProfile
        let tiff = writer.write(try Self.patchImage())
        try Self.checkConverted(tiff, space: .adobeRGB, minimumShift: 15)
    }

    @Test func webpWithICCPChunk() throws {
        let webp = webpWithICCP(try Self.patchImage().encoded(as: .webp(quality: 100)), profile: RGBSpace.displayP3.iccProfile, width: 64, height: 16)
        #expect(try ImageProbe.probe(webp).format == .webp)
        try Self.checkConverted(webp, space: .displayP3, minimumShift: 15)
    }

    /// An AVIF tagged as Display P3 by its `nclx` colour box (code points of ITU-T H.273:
    /// primaries 12, transfer 13).
    @Test func avifNclxDisplayP3() throws {
        let format = ImageFormat.avif
        var file = try Self.patchImage().encoded(asFormat: format, quality: 100)
        // libavif writes an sRGB `nclx` box: make it say Display P3.
        let marker = Array("colrnclx".utf8)
        guard let at = (0...(file.count - marker.count)).first(where: { Array(file[$0..<($0 + marker.count)]) == marker }) else {
            Issue.record("no nclx colour box in the \(format) file")
            return
        }
        file.replaceSubrange((at + 8)..<(at + 12), with: [0, 12, 0, 13])
        #expect(try ColourProfileReader.read(file, format: format) == .nclx(primaries: 12, transfer: 13))
        try Self.checkConverted(file, space: .displayP3, minimumShift: 15)
    }

    /// A HEIC tagged as Display P3 by an `nclx` colour box. libheif 1.15 writes none (through
    /// gd or heif-enc, whatever it is asked), so the fixture adds one to a HEIC gd encodes.
    @Test func heicNclxDisplayP3() throws {
        let plain = try Self.patchImage().encoded(asFormat: .heif, quality: 100)
        #expect(try ColourProfileReader.read(plain, format: .heif) == nil)
        let file = try heifWithNclx(plain, primaries: 12, transfer: 13, matrix: 6)
        #expect(try ImageProbe.probe(file).format == .heif)
        #expect(try ColourProfileReader.read(file, format: .heif) == .nclx(primaries: 12, transfer: 13))
        try Self.checkConverted(file, space: .displayP3, minimumShift: 15)
    }

    /// `nclx` descriptions of sRGB (as encoders write them) need no transform; unknown code
    /// points are an error (a warning for the photo).
    @Test func nclxCodePoints() throws {
        for (primaries, transfer) in [(1, 13), (1, 1), (2, 2), (1, 6)] {
            #expect(try ColourConversion.nclxProfile(primaries: primaries, transfer: transfer) == nil)
        }
        #expect(try ColourConversion.nclxProfile(primaries: 12, transfer: 1) != nil)
        #expect(throws: ColourProfileError.self) { try ColourConversion.nclxProfile(primaries: 12, transfer: 16) }
        #expect(throws: ColourProfileError.self) { try ColourConversion.nclxProfile(primaries: 99, transfer: 13) }
    }

    @Test func profileSplitOverSegmentsIsReassembledInOrder() throws {
        let profile = RGBSpace.adobeRGB.iccProfile
        let partSize = profile.count / 3 + 1
        // Parts written 3, 1, 2: the sequence numbers, not the file order, put them together.
        let jpeg = jpegWithProfile(try Self.patchImage().encoded(as: .jpeg(quality: 100)), profile: profile, partSize: partSize, order: [2, 0, 1])
        #expect(try ColourProfileReader.read(jpeg, format: .jpeg) == .icc(profile))
        try Self.checkConverted(jpeg, space: .adobeRGB, minimumShift: 15)
    }

    /// A JPEG decoded at a reduced scale, and the placeholder colour, are converted too.
    @Test func scaledDecodeAndAverageColourAreConverted() throws {
        let jpeg = jpegWithProfile(try Self.patchImage(scale: 8).encoded(as: .jpeg(quality: 100)), profile: RGBSpace.displayP3.iccProfile)
        try Self.checkConverted(jpeg, space: .displayP3, minimumShift: 15, widths: [128], scale: 8)

        var uniform = try Image(width: 256, height: 128)
        uniform.fill(x: 0, y: 0, width: 256, height: 128, red: 200, green: 80, blue: 60)
        let file = jpegWithProfile(try uniform.encoded(as: .jpeg(quality: 100)), profile: RGBSpace.displayP3.iccProfile)
        let stored = Self.patchColour(try Image.decode(file), 0)
        let expected = RGBSpace.displayP3.toSRGB((UInt8(stored.0), UInt8(stored.1), UInt8(stored.2)))
        let colour = try Renditions.make(from: file, widths: [32, 64], format: .jpeg(quality: 90)).averageColor
        let average = (Int(colour.red), Int(colour.green), Int(colour.blue))
        #expect(Self.distance(average, expected) <= 2, "placeholder \(average), sRGB rendering \(expected)")
        #expect(Self.distance(average, stored) >= 15)
    }

    @Test func srgbProfileAndNoProfileLeavePixelsAlone() throws {
        let plain = try Self.patchImage().encoded(as: .png)
        #expect(try ColourProfileReader.read(plain, format: .png) == nil)
        let tagged = pngWithICCP(plain, compressed: Zlib.deflate(RGBSpace.sRGB.iccProfile))
        guard case .none = ColourConversion.plan(for: .icc(RGBSpace.sRGB.iccProfile)) else {
            Issue.record("an sRGB profile gets a transform")
            return
        }
        for file in [plain, tagged] {
            let set = try Renditions.make(from: file, widths: [64], format: .png)
            #expect(set.warnings.isEmpty)
            let output = try Image.decode(set.renditions[0].bytes)
            for (index, c) in Self.patches.enumerated() {
                #expect(Self.patchColour(output, index) == (Int(c.0), Int(c.1), Int(c.2)))
            }
        }
    }

    @Test func alphaIsKeptThroughTheConversion() throws {
        var image = try Image(width: 16, height: 16)
        image.fill(x: 0, y: 0, width: 16, height: 16, red: 200, green: 80, blue: 60, alpha: 128)
        let png = pngWithICCP(try image.encoded(as: .png), compressed: Zlib.deflate(RGBSpace.displayP3.iccProfile))
        let output = try Image.decode(try Renditions.make(from: png, widths: [16], format: .png).renditions[0].bytes)
        let pixel = output.pixel(x: 8, y: 8)
        #expect(abs(Int(pixel.alpha) - 128) <= 2)
        #expect(abs(Int(pixel.red) - RGBSpace.displayP3.toSRGB((200, 80, 60)).0) <= 2)
    }

    /// A damaged profile is a warning; the photo is still made, its pixels read as sRGB.
    @Test(arguments: ["garbage", "missing part", "bad zlib"])
    func damagedProfileIsAWarning(kind: String) throws {
        let profile = RGBSpace.displayP3.iccProfile
        let file: [UInt8]
        switch kind {
        case "garbage":
            var broken = profile
            for index in 36..<40 { broken[index] = 0 }  // no 'acsp' signature
            for index in 128..<broken.count { broken[index] = 0xA5 }
            file = jpegWithProfile(try Self.patchImage().encoded(as: .jpeg(quality: 100)), profile: broken)
        case "missing part":
            file = jpegWithProfile(try Self.patchImage().encoded(as: .jpeg(quality: 100)), profile: profile, partSize: profile.count / 2 + 1, order: [0])
        default:
            file = pngWithICCP(try Self.patchImage().encoded(as: .png), compressed: Array(Zlib.deflate(profile).prefix(40)))
        }
        let unconverted = try Image.decode(file)
        let set = try Renditions.make(from: file, widths: [64], format: .png)
        #expect(set.warnings.count == 1)
        #expect(set.warnings.first?.contains("colour profile") == true, "\(set.warnings)")
        let output = try Image.decode(set.renditions[0].bytes)
        for index in Self.patches.indices {
            #expect(Self.distance(Self.patchColour(output, index), Self.patchColour(unconverted, index)) <= 1)
        }
    }

    /// Matrix-shaper profiles are converted with Cascade's own tables: they agree with Little
    /// CMS's transform within one level on every colour of a grid.
    @Test(arguments: [("Display P3", RGBSpace.displayP3), ("Adobe RGB", RGBSpace.adobeRGB)])
    func tablesAgreeWithLittleCMS(name: String, space: RGBSpace) throws {
        guard case .transform(let transform) = ColourConversion.plan(for: .icc(space.iccProfile)) else {
            Issue.record("no transform")
            return
        }
        #expect(transform.usesTables)
        var viaTables = colourGrid()
        var viaLittleCMS = viaTables
        viaTables.withUnsafeMutableBufferPointer { transform.apply($0.baseAddress!, count: $0.count) }
        viaLittleCMS.withUnsafeMutableBufferPointer { transform.applyWithLittleCMS($0.baseAddress!, count: $0.count) }
        let (worst, alphaKept) = worstChannelDifference(viaTables, viaLittleCMS)
        #expect(alphaKept)
        #expect(worst <= 1, "tables and Little CMS differ by \(worst) levels")
    }

    /// Every worker shares one transform per distinct profile.
    @Test func oneTransformPerProfileIsShared() async throws {
        let profile = RGBSpace.adobeRGB.iccProfile + [0, 0, 0, 0]  // a profile no other test uses
        let plans = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    if case .transform(let transform) = ColourConversion.plan(for: .icc(profile)) { return ObjectIdentifier(transform) }
                    return nil
                }
            }
            var identities: [ObjectIdentifier?] = []
            for await identity in group { identities.append(identity) }
            return identities
        }
        #expect(plans.allSatisfy { $0 != nil })
        // Workers racing to make it all get the one cached first, and so does every later call.
        #expect(Set(plans).count == 1)
        guard case .transform(let cached) = ColourConversion.plan(for: .icc(profile)) else { Issue.record("no transform"); return }
        guard case .transform(let again) = ColourConversion.plan(for: .icc(profile)) else { Issue.record("no transform"); return }
        #expect(cached === again)
        #expect(ObjectIdentifier(cached) == plans[0])
    }
}
