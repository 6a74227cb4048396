import CTurboJPEG
import Testing
@testable import Imaging

/// Greyscale and CMYK photos with a colour profile are shown as their profile says, in sRGB.
@Suite struct GreyCMYKColourTests {
    static let greys: [UInt8] = [40, 100, 160, 220]

    /// Checks that each grey patch of `file` comes out as `space` renders it in sRGB (within
    /// 4 levels) and that this moves some patch by at least 15 levels from the stored grey.
    static func checkGrey(_ file: [UInt8], space: GreySpace) throws {
        let set = try Renditions.make(from: file, widths: [64], format: .png)
        #expect(set.warnings.isEmpty, "\(set.warnings)")
        let output = try Image.decode(set.renditions[0].bytes)
        var largestShift = 0
        for (index, grey) in greys.enumerated() {
            let expected = space.toSRGB(grey)
            let made = ColourTests.patchColour(output, index)
            #expect(ColourTests.distance(made, (expected, expected, expected)) <= 4, "patch \(index): made \(made), sRGB rendering \(expected)")
            largestShift = max(largestShift, ColourTests.distance(made, (Int(grey), Int(grey), Int(grey))))
        }
        #expect(largestShift >= 15, "the conversion moved no patch by 15 levels (at most \(largestShift))")
    }

    /// The grey spaces tested, by name (names alone as arguments: the test log stays readable).
    static let greySpaces = ["gamma 1.8": GreySpace.gamma18, "dot gain 20%": GreySpace.dotGain20]

    @Test(arguments: ["gamma 1.8", "dot gain 20%"])
    func greyJPEGWithGreyProfile(name: String) throws {
        let space = Self.greySpaces[name]!
        let jpeg = try turboJPEG(patchPixels(Self.greys) { [$0] }, width: 64, height: 16, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY)
        try Self.checkGrey(jpegWithProfile(jpeg, profile: space.iccProfile), space: space)
    }

    @Test(arguments: ["gamma 1.8", "dot gain 20%"])
    func greyPNGWithGreyProfile(name: String) throws {
        let space = Self.greySpaces[name]!
        try Self.checkGrey(greyPNG(patchPixels(Self.greys) { [$0] }, width: 64, profile: space.iccProfile), space: space)
    }

    /// Inks on the profile's grid (multiples of 51), so their rendering is known exactly.
    static let inks: [(UInt8, UInt8, UInt8, UInt8)] = [(0, 204, 204, 0), (153, 0, 102, 51), (51, 102, 0, 0), (0, 51, 0, 153)]

    /// A CMYK JPEG as Photoshop writes one: YCCK with Adobe's APP14 segment, inks inverted
    /// (255 is no ink), and `profile` in APP2.
    static func photoshopCMYK(scale: Int = 1, profile: [UInt8] = CMYKSpace.iccProfile) throws -> [UInt8] {
        let pixels = patchPixels(inks, channels: { [255 - $0.0, 255 - $0.1, 255 - $0.2, 255 - $0.3] }, scale: scale)
        let jpeg = try turboJPEG(pixels, width: 64 * scale, height: 16 * scale, pixelFormat: TJPF_CMYK, subsampling: TJSAMP_444)
        #expect(try CMYKDecoder.hasAdobeMarker(jpeg))
        return jpegWithProfile(jpeg, profile: profile)
    }

    /// Checks the patches of the largest image made from `file` at `widths` against the
    /// profile's rendering, and that gd's own reading (inks subtracted from white) is far off.
    static func checkCMYK(_ file: [UInt8], widths: [Int], scale: Int) throws {
        let naive = try Image.decode(file)  // gd: no profile
        let set = try Renditions.make(from: file, widths: widths, format: .png)
        #expect(set.warnings.isEmpty, "\(set.warnings)")
        let output = try Image.decode(set.renditions.last!.bytes)
        let outScale = output.width / 64
        var largestShift = 0
        for (index, ink) in inks.enumerated() {
            let expected = CMYKSpace.toSRGB(ink)
            let made = ColourTests.patchColour(output, index, scale: outScale)
            #expect(ColourTests.distance(made, expected) <= 4, "patch \(index): made \(made), rendering \(expected)")
            largestShift = max(largestShift, ColourTests.distance(made, ColourTests.patchColour(naive, index, scale: scale)))
        }
        #expect(largestShift >= 15, "the profile changed no patch by 15 levels from gd's reading (at most \(largestShift))")
    }

    @Test func photoshopCMYKJPEGThroughItsProfile() throws {
        try Self.checkCMYK(try Self.photoshopCMYK(), widths: [64], scale: 1)
    }

    /// A CMYK JPEG decoded at a reduced scale goes through its profile too.
    @Test func cmykJPEGDecodedAtAReducedScale() throws {
        try Self.checkCMYK(try Self.photoshopCMYK(scale: 8), widths: [128], scale: 8)
    }

    /// A CMYK profile on an RGB JPEG does not fit its pixels: they are left as they are.
    @Test func cmykProfileOnAnRGBJPEGLeavesItAlone() throws {
        let plain = try ColourTests.patchImage().encoded(as: .jpeg(quality: 100))
        let tagged = jpegWithProfile(plain, profile: CMYKSpace.iccProfile)
        let stored = try Image.decode(plain)
        let output = try Image.decode(try Renditions.make(from: tagged, widths: [64], format: .png).renditions[0].bytes)
        for index in ColourTests.patches.indices {
            #expect(ColourTests.distance(ColourTests.patchColour(output, index), ColourTests.patchColour(stored, index)) <= 1)
        }
    }
}
