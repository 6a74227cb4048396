import CTurboJPEG
import Foundation
@testable import Imaging

// Greyscale and CMYK ICC profiles, and files carrying them, written by hand (as in
// ColourProfileFixtures.swift) so that what the colour tests expect never comes from the code
// under test.

/// The ICC header of a version 2 profile of `deviceClass`, `colourSpace` and `pcs`, for a
/// profile of `size` bytes.
func iccHeader(size: Int, deviceClass: String, colourSpace: String, pcs: String) -> [UInt8] {
    var header = [UInt8](repeating: 0, count: 128)
    header.replaceSubrange(0..<4, with: be32(size))
    header.replaceSubrange(8..<12, with: [0x02, 0x10, 0, 0])
    header.replaceSubrange(12..<24, with: Array((deviceClass + colourSpace + pcs).utf8))
    header.replaceSubrange(36..<40, with: Array("acsp".utf8))
    header.replaceSubrange(68..<80, with: [0.9642, 1.0, 0.8249].flatMap(s15Fixed16))
    return header
}

/// A profile from its header fields and tags (each tag's data padded to 4 bytes).
func makeICCProfile(deviceClass: String, colourSpace: String, pcs: String, tags: [(String, [UInt8])]) -> [UInt8] {
    let tableSize = 4 + 12 * tags.count
    var entries: [UInt8] = []
    var data: [UInt8] = []
    for (name, tag) in tags {
        entries += Array(name.utf8) + be32(128 + tableSize + data.count) + be32(tag.count)
        data += tag
        while data.count % 4 != 0 { data.append(0) }
    }
    let total = 128 + tableSize + data.count
    return iccHeader(size: total, deviceClass: deviceClass, colourSpace: colourSpace, pcs: pcs) + be32(tags.count) + entries + data
}

let d50WhiteTag: [UInt8] = Array("XYZ ".utf8) + [0, 0, 0, 0] + [0.9642, 1.0, 0.8249].flatMap(s15Fixed16)

/// A greyscale display profile: a tone curve from grey value (0...1) to luminance.
struct GreySpace: Sendable {
    /// Encoded grey (0...1) to linear light, as the curve tag says it.
    var decode: @Sendable (Double) -> Double
    var curveTag: [UInt8]

    /// Gamma 1.8 (the old Mac display), as one u8Fixed8 value: 1 + 205/256.
    static let gamma18 = GreySpace(decode: { pow($0, 461.0 / 256) }, curveTag: Array("curv".utf8) + [0, 0, 0, 0] + be32(1) + [0x01, 0xCD])

    /// A printer's dot gain as a 256-entry table (like Photoshop's "Dot Gain 20%"): ink
    /// coverage 1 - v spreads to coverage + 0.8 × coverage × (1 - coverage), whose complement
    /// is the luminance. One entry per 8-bit value, so 8-bit values fall on entries.
    static let dotGain20: GreySpace = {
        @Sendable func luminance(_ v: Double) -> Double {
            let ink = 1 - v
            return 1 - (ink + 0.8 * ink * (1 - ink))
        }
        let entries = (0..<256).flatMap { be16(Int((luminance(Double($0) / 255) * 65535).rounded())) }
        return GreySpace(
            decode: { (luminance($0) * 65535).rounded() / 65535 },
            curveTag: Array("curv".utf8) + [0, 0, 0, 0] + be32(256) + entries)
    }()

    var iccProfile: [UInt8] {
        makeICCProfile(deviceClass: "mntr", colourSpace: "GRAY", pcs: "XYZ ", tags: [("wtpt", d50WhiteTag), ("kTRC", curveTag)])
    }

    /// The sRGB value (the same for red, green and blue) of an 8-bit grey of this space.
    func toSRGB(_ grey: UInt8) -> Int {
        Int((RGBSpace.srgbEncode(min(max(decode(Double(grey) / 255), 0), 1)) * 255).rounded())
    }
}

/// A CMYK printer profile (CMYK to Lab through a lookup table on a grid of 6 points per ink,
/// at ink 0, 51, 102, ... 255), whose inks filter light like ideal dyes: red light passes
/// (1 - cyan) × (1 - black), and so on, in linear light. So a colour whose inks are all
/// multiples of 51 lies on the grid and its sRGB rendering is known exactly.
enum CMYKSpace {
    static let gridPoints = 6

    /// Linear sRGB of inks (0...1 each).
    static func linearRGB(c: Double, m: Double, y: Double, k: Double) -> [Double] {
        [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)]
    }

    /// The 8-bit sRGB rendering of 8-bit inks (0 is no ink).
    static func toSRGB(_ inks: (UInt8, UInt8, UInt8, UInt8)) -> (Int, Int, Int) {
        let linear = linearRGB(c: Double(inks.0) / 255, m: Double(inks.1) / 255, y: Double(inks.2) / 255, k: Double(inks.3) / 255)
        let e = linear.map { Int((RGBSpace.srgbEncode($0) * 255).rounded()) }
        return (e[0], e[1], e[2])
    }

    /// CIE Lab (D50) of linear sRGB, through sRGB's colorants adapted to D50 with Bradford.
    static func lab(_ linear: [Double]) -> [Double] {
        let bradford = [[1.0478112, 0.0228866, -0.0501270], [0.0295424, 0.9904844, -0.0170491], [-0.0092345, 0.0150436, 0.7521316]]
        let xyz = multiply(multiply(bradford, RGBSpace.sRGB.toXYZ), linear)
        let white = [0.9642, 1.0, 0.8249]
        let f = (0..<3).map { index -> Double in
            let t = xyz[index] / white[index]
            return t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116
        }
        return [116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])]
    }

    /// The profile: an `mft2` (lut16) A2B0 tag with identity curves and the grid, Lab in the
    /// version 2 16-bit encoding (L 0...100 as 0...0xFF00, a and b offset by 128, × 256).
    static let iccProfile: [UInt8] = {
        let n = gridPoints
        var lut = Array("mft2".utf8) + [0, 0, 0, 0] + [4, 3, UInt8(n), 0]
        for row in 0..<3 { for column in 0..<3 { lut += s15Fixed16(row == column ? 1 : 0) } }
        lut += be16(2) + be16(2)
        for _ in 0..<4 { lut += be16(0) + be16(65535) }
        func clamp16(_ v: Double) -> Int { min(max(Int(v.rounded()), 0), 65535) }
        for c in 0..<n { for m in 0..<n { for y in 0..<n { for k in 0..<n {
            let ink = [c, m, y, k].map { Double($0) / Double(n - 1) }
            let lab = lab(linearRGB(c: ink[0], m: ink[1], y: ink[2], k: ink[3]))
            lut += be16(clamp16(lab[0] * 652.80)) + be16(clamp16((lab[1] + 128) * 256)) + be16(clamp16((lab[2] + 128) * 256))
        } } } }
        for _ in 0..<3 { lut += be16(0) + be16(65535) }
        return makeICCProfile(deviceClass: "prtr", colourSpace: "CMYK", pcs: "Lab ", tags: [("wtpt", d50WhiteTag), ("A2B0", lut)])
    }()
}

/// Failure of a TurboJPEG call in a fixture.
struct TurboJPEGFixtureError: Error, CustomStringConvertible {
    var description: String
}

/// A JPEG compressed by TurboJPEG from `pixels` (`pixelFormat`, `width` × `height`), at quality
/// 100 with no chroma subsampling (or greyscale).
func turboJPEG(_ pixels: [UInt8], width: Int, height: Int, pixelFormat: TJPF, subsampling: TJSAMP) throws -> [UInt8] {
    guard let handle = tjInitCompress() else { throw TurboJPEGFixtureError(description: "tjInitCompress failed") }
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let channels = pixels.count / (width * height)
    let status = pixels.withUnsafeBufferPointer { source in
        tjCompress2(handle, source.baseAddress, Int32(width), Int32(width * channels), Int32(height),
                    Int32(pixelFormat.rawValue), &output, &size, Int32(subsampling.rawValue), 100, Int32(TJFLAG_ACCURATEDCT))
    }
    guard status == 0, let output else { throw TurboJPEGFixtureError(description: String(cString: tjGetErrorStr2(handle))) }
    defer { tjFree(output) }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
}

/// Four 16 × 16 patches side by side (64 × 16), one value per patch and channel.
func patchPixels<T>(_ patches: [T], channels: (T) -> [UInt8], scale: Int = 1) -> [UInt8] {
    var pixels: [UInt8] = []
    for _ in 0..<(16 * scale) {
        for patch in patches { for _ in 0..<(16 * scale) { pixels += channels(patch) } }
    }
    return pixels
}

/// A greyscale PNG (colour type 0, 8 bits) of `grey` rows `width` wide, with `profile` in an
/// `iCCP` chunk.
func greyPNG(_ grey: [UInt8], width: Int, profile: [UInt8]) -> [UInt8] {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(Zlib.crc32(body)))
    }
    let height = grey.count / width
    var raw: [UInt8] = []
    for y in 0..<height { raw += [0] + grey[(y * width)..<((y + 1) * width)] }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
        + chunk("iCCP", Array("grey".utf8) + [0, 0] + Zlib.deflate(profile))
        + chunk("IDAT", Zlib.deflate(raw))
        + chunk("IEND", [])
}
