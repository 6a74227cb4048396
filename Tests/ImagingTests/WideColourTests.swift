import Testing
@testable import Imaging

/// `colour: wide`: wide-gamut photos are made in Display P3 and say so; the rest stay sRGB.
@Suite struct WideColourTests {
    /// Patches in Display P3; the last, a saturated red, lies outside sRGB.
    static let patches: [(UInt8, UInt8, UInt8)] = [(200, 80, 60), (60, 160, 90), (90, 110, 200), (240, 40, 30)]

    static func p3Photo() throws -> [UInt8] {
        var image = try Image(width: 64, height: 16)
        for (index, c) in patches.enumerated() { image.fill(x: index * 16, y: 0, width: 16, height: 16, red: c.0, green: c.1, blue: c.2) }
        return jpegWithProfile(try image.encoded(as: .jpeg(quality: 100)), profile: RGBSpace.displayP3.iccProfile)
    }

    /// Linear sRGB (unclipped) of an 8-bit Display P3 colour.
    static func linearSRGB(fromP3 c: (Int, Int, Int)) -> [Double] {
        let p3 = RGBSpace.displayP3
        let linear = [c.0, c.1, c.2].map { p3.decode(Double($0) / 255) }
        return multiply(inverse(RGBSpace.sRGB.toXYZ), multiply(p3.toXYZ, linear))
    }

    /// The value of tag `signature` of an ICC profile (nil when it has none).
    static func tag(_ signature: String, in profile: [UInt8]) -> [UInt8]? {
        func be32(_ at: Int) -> Int { Int(profile[at]) << 24 | Int(profile[at + 1]) << 16 | Int(profile[at + 2]) << 8 | Int(profile[at + 3]) }
        for index in 0..<be32(128) {
            let entry = 132 + 12 * index
            if String(decoding: profile[entry..<(entry + 4)], as: UTF8.self) == signature {
                return Array(profile[be32(entry + 4)..<(be32(entry + 4) + be32(entry + 8))])
            }
        }
        return nil
    }

    /// Checks that `profile` holds Display P3's primaries (adapted to D50 as ICC requires,
    /// computed by the fixture from their published values) and is named Display P3.
    static func checkDisplayP3(_ profile: [UInt8]) {
        let bradford = [[1.0478112, 0.0228866, -0.0501270], [0.0295424, 0.9904844, -0.0170491], [-0.0092345, 0.0150436, 0.7521316]]
        let adapted = multiply(bradford, RGBSpace.displayP3.toXYZ)
        for (column, name) in ["rXYZ", "gXYZ", "bXYZ"].enumerated() {
            guard let value = tag(name, in: profile), value.count >= 20 else { Issue.record("no \(name) tag"); return }
            for row in 0..<3 {
                let raw = Int32(bitPattern: UInt32(value[8 + 4 * row]) << 24 | UInt32(value[9 + 4 * row]) << 16 | UInt32(value[10 + 4 * row]) << 8 | UInt32(value[11 + 4 * row]))
                #expect(abs(Double(raw) / 65536 - adapted[row][column]) < 0.002, "\(name)[\(row)]: \(Double(raw) / 65536), Display P3: \(adapted[row][column])")
            }
        }
        let name = Array("Display P3".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let description = tag("desc", in: profile) ?? []
        #expect(description.count >= name.count && (0...(description.count - name.count)).contains { Array(description[$0..<($0 + name.count)]) == name })
        #expect(profile.count < 1024, "the profile is \(profile.count) bytes")
    }

    @Test(arguments: ["jpeg", "png", "webp", "avif"])
    func displayP3PhotoKeepsItsGamut(format name: String) throws {
        let format: EncodeFormat = switch name {
        case "jpeg": .jpeg(quality: 100)
        case "png": .png
        case "webp": .webp(quality: 100)
        default: .avif(quality: 100)
        }
        let imageFormat: ImageFormat = switch name { case "jpeg": .jpeg; case "png": .png; case "webp": .webp; default: .avif }
        let photo = try Self.p3Photo()
        let wide = try Renditions.make(from: photo, widths: [64], format: format, colour: .wide)
        let srgb = try Renditions.make(from: photo, widths: [64], format: format)
        #expect(wide.colourSpace == .displayP3)
        #expect(srgb.colourSpace == .sRGB)
        #expect(wide.warnings.isEmpty && srgb.warnings.isEmpty)
        let wideFile = wide.renditions[0].bytes
        #expect(try ImageProbe.probe(wideFile).format == imageFormat)
        // No profile in the sRGB build (libavif's own colour box says sRGB: BT.709 primaries).
        switch try ColourProfileReader.read(srgb.renditions[0].bytes, format: imageFormat) {
        case nil: break
        case .nclx(let primaries, _) where imageFormat == .avif: #expect(primaries == 1)
        case let other: Issue.record("the sRGB \(name) file carries \(String(describing: other))")
        }
        switch try ColourProfileReader.read(wideFile, format: imageFormat) {
        case .icc(let profile): Self.checkDisplayP3(profile)
        case .nclx(let primaries, let transfer): #expect(imageFormat == .avif && primaries == 12 && transfer == 13)
        case nil: Issue.record("the \(name) file carries no colour profile")
        }

        let wideImage = try Image.decode(wideFile)
        let srgbImage = try Image.decode(srgb.renditions[0].bytes)
        for index in Self.patches.indices {
            let made = ColourTests.patchColour(wideImage, index)
            let expected = RGBSpace.displayP3.toSRGB((UInt8(made.0), UInt8(made.1), UInt8(made.2)))  // through its profile
            let srgbMade = ColourTests.patchColour(srgbImage, index)
            #expect(ColourTests.distance(expected, srgbMade) <= 4, "patch \(index): P3 \(made) shows as \(expected), the sRGB build \(srgbMade)")
        }
        // The saturated red stays outside sRGB: its P3 values are not the sRGB build's.
        let red = ColourTests.patchColour(wideImage, 3)
        #expect(Self.linearSRGB(fromP3: red).contains { $0 < -0.005 }, "\(red) lies inside sRGB")
        #expect(ColourTests.distance(red, ColourTests.patchColour(srgbImage, 3)) >= 10)
        // The placeholder colour is sRGB: the P3 picture's average colour, converted.
        let average = wideImage.averageColor()
        let expected = RGBSpace.displayP3.toSRGB((average.red, average.green, average.blue))
        let placeholder = (Int(wide.averageColor.red), Int(wide.averageColor.green), Int(wide.averageColor.blue))
        #expect(ColourTests.distance(placeholder, expected) <= 2, "placeholder \(placeholder), the P3 average \(average) in sRGB \(expected)")
    }

    /// Photos within sRGB (no profile, an sRGB one) stay sRGB, without a profile; Adobe RGB
    /// goes wide too.
    @Test func onlyWideGamutPhotosGoWide() throws {
        let plain = try ColourTests.patchImage().encoded(as: .jpeg(quality: 100))
        for file in [plain, jpegWithProfile(plain, profile: RGBSpace.sRGB.iccProfile)] {
            let set = try Renditions.make(from: file, widths: [64], format: .jpeg(quality: 90), colour: .wide)
            #expect(set.colourSpace == .sRGB)
            #expect(try ColourProfileReader.read(set.renditions[0].bytes, format: .jpeg) == nil)
        }
        let adobe = jpegWithProfile(plain, profile: RGBSpace.adobeRGB.iccProfile)
        let set = try Renditions.make(from: adobe, widths: [64], format: .jpeg(quality: 90), colour: .wide)
        #expect(set.colourSpace == .displayP3)
    }

    /// A simple WebP and an extended one (with alpha) both get a valid `ICCP` chunk.
    @Test func webpWithAlphaGetsItsProfile() throws {
        var image = try Image(width: 32, height: 32)
        image.fill(x: 0, y: 0, width: 32, height: 32, red: 240, green: 40, blue: 30, alpha: 128)
        let png = pngWithICCP(try image.encoded(as: .png), compressed: Zlib.deflate(RGBSpace.displayP3.iccProfile))
        let set = try Renditions.make(from: png, widths: [32], format: .webp(quality: 90), colour: .wide)
        let file = set.renditions[0].bytes
        guard case .icc(let profile)? = try ColourProfileReader.read(file, format: .webp) else { Issue.record("no ICCP chunk"); return }
        Self.checkDisplayP3(profile)
        let decoded = try Image.decode(file)
        #expect(abs(Int(decoded.pixel(x: 16, y: 16).alpha) - 128) <= 3)
    }
}
