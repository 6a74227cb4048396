import Foundation
@testable import Imaging

// ICC profiles and files that carry them, written out by hand from the colour spaces'
// published definitions (primaries, white point, tone curve), so that the colour tests never
// use the code under test to make what they check.

/// An RGB colour space: CIE xy primaries and white point, and its tone curve.
struct RGBSpace: Sendable {
    var red: (Double, Double)
    var green: (Double, Double)
    var blue: (Double, Double)
    var white: (Double, Double) = (0.3127, 0.3290)  // D65
    /// Encoded value (0...1) to linear light.
    var decode: @Sendable (Double) -> Double
    /// The curve as an ICC tag.
    var curveTag: [UInt8]

    static func srgbDecode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func srgbEncode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// The ICC `para` tag of the sRGB curve (function type 3).
    static let srgbCurveTag: [UInt8] = {
        var tag = Array("para".utf8) + [0, 0, 0, 0] + [0, 3, 0, 0]
        for value in [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045] { tag += s15Fixed16(value) }
        return tag
    }()

    static let sRGB = RGBSpace(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), decode: srgbDecode, curveTag: srgbCurveTag)
    /// Display P3: DCI-P3 primaries, D65, the sRGB curve.
    static let displayP3 = RGBSpace(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), decode: srgbDecode, curveTag: srgbCurveTag)
    /// Adobe RGB (1998): gamma 563/256, stored as a `curv` tag with one u8Fixed8 value (0x0233).
    static let adobeRGB = RGBSpace(
        red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), decode: { pow($0, 563.0 / 256) },
        curveTag: Array("curv".utf8) + [0, 0, 0, 0] + [0, 0, 0, 1] + [0x02, 0x33])

    /// RGB (linear) to XYZ, columns the primaries scaled so that white is Y = 1.
    var toXYZ: [[Double]] {
        func xyz(_ p: (Double, Double)) -> [Double] { [p.0 / p.1, 1, (1 - p.0 - p.1) / p.1] }
        let (r, g, b, w) = (xyz(red), xyz(green), xyz(blue), xyz(white))
        let m = [[r[0], g[0], b[0]], [r[1], g[1], b[1]], [r[2], g[2], b[2]]]
        let s = multiply(inverse(m), w)
        return m.map { row in [row[0] * s[0], row[1] * s[1], row[2] * s[2]] }
    }

    /// The 8-bit sRGB value of an 8-bit colour of this space, relative colorimetric, clipped.
    func toSRGB(_ c: (UInt8, UInt8, UInt8)) -> (Int, Int, Int) {
        let linear = [c.0, c.1, c.2].map { decode(Double($0) / 255) }
        let out = multiply(inverse(RGBSpace.sRGB.toXYZ), multiply(toXYZ, linear))
        let e = out.map { Int((RGBSpace.srgbEncode(min(max($0, 0), 1)) * 255).rounded()) }
        return (e[0], e[1], e[2])
    }

    /// A version 2 display profile (matrix and tone curves, colorants adapted to D50 with
    /// Bradford as ICC requires).
    var iccProfile: [UInt8] {
        let bradford = [[1.0478112, 0.0228866, -0.0501270], [0.0295424, 0.9904844, -0.0170491], [-0.0092345, 0.0150436, 0.7521316]]
        let adapted = multiply(bradford, toXYZ)
        return Self.displayProfile(colorants: (0..<3).map { index in adapted.map { $0[index] } }, curveTag: curveTag)
    }

    /// Display P3 as Apple's "Display P3" profile (the one iPhones embed) stores its colorants,
    /// D50-adapted and rounded to 16-bit fractions by its maker, not by these tests: the red,
    /// green and blue columns.
    static let appleDisplayP3Colorants = [
        [0.515121, 0.241196, -0.001053], [0.291977, 0.692245, 0.041885], [0.157104, 0.066574, 0.784073],
    ]

    /// A version 2 display profile with these D50 `colorants` (red, green and blue, each XYZ)
    /// and one tone curve for the three channels.
    static func displayProfile(colorants: [[Double]], curveTag: [UInt8]) -> [UInt8] {
        func xyzTag(_ v: [Double]) -> [UInt8] { Array("XYZ ".utf8) + [0, 0, 0, 0] + v.flatMap(s15Fixed16) }
        let d50 = [0.9642, 1.0, 0.8249]
        var tags: [(String, [UInt8])] = [("wtpt", xyzTag(d50))]
        for (index, name) in ["rXYZ", "gXYZ", "bXYZ"].enumerated() { tags.append((name, xyzTag(colorants[index]))) }
        var curve = curveTag
        while curve.count % 4 != 0 { curve.append(0) }
        // The three curves share one copy, as many profiles do.
        let tableSize = 4 + 12 * (tags.count + 3)
        var data: [UInt8] = []
        var entries: [UInt8] = []
        for (name, tag) in tags {
            entries += Array(name.utf8) + be32(128 + tableSize + data.count) + be32(tag.count)
            data += tag
        }
        for name in ["rTRC", "gTRC", "bTRC"] { entries += Array(name.utf8) + be32(128 + tableSize + data.count) + be32(curveTag.count) }
        data += curve
        var header = [UInt8](repeating: 0, count: 128)
        let total = 128 + tableSize + data.count
        header.replaceSubrange(0..<4, with: be32(total))
        header.replaceSubrange(8..<12, with: [0x02, 0x10, 0, 0])
        header.replaceSubrange(12..<24, with: Array("mntrRGB XYZ ".utf8))
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        header.replaceSubrange(68..<80, with: d50.flatMap(s15Fixed16))
        return header + be32(tags.count + 3) + entries + data
    }
}

func s15Fixed16(_ v: Double) -> [UInt8] { be32(Int(UInt32(bitPattern: Int32((v * 65536).rounded())))) }

func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { zip($0, v).map(*).reduce(0, +) } }
func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
    a.map { row in (0..<3).map { j in (0..<3).map { row[$0] * b[$0][j] }.reduce(0, +) } }
}
func inverse(_ m: [[Double]]) -> [[Double]] {
    let (a, b, c, d, e, f, g, h, i) = (m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2])
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[e * i - f * h, c * h - b * i, b * f - c * e], [f * g - d * i, a * i - c * g, c * d - a * f], [d * h - e * g, b * g - a * h, a * e - b * d]]
        .map { $0.map { $0 / det } }
}

// MARK: - Files carrying a profile

/// `jpeg` with `profile` in APP2 `ICC_PROFILE` segments of at most `partSize` bytes each, put
/// after the JFIF segment in the order `order` gives (indices of the parts; default: in order).
func jpegWithProfile(_ jpeg: [UInt8], profile: [UInt8], partSize: Int = 65_519, order: [Int]? = nil) -> [UInt8] {
    let parts = stride(from: 0, to: profile.count, by: partSize).map { Array(profile[$0..<min($0 + partSize, profile.count)]) }
    var segments: [UInt8] = []
    for index in order ?? Array(parts.indices) {
        let body = Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(parts.count)] + parts[index]
        segments += [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }
    // After SOI and, when there is one, the APP0 (JFIF) segment.
    var insertAt = 2
    if jpeg[2] == 0xFF, jpeg[3] == 0xE0 { insertAt = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5]) }
    return Array(jpeg[..<insertAt]) + segments + Array(jpeg[insertAt...])
}

/// `png` with an `iCCP` chunk holding `compressed` (a zlib stream) after IHDR.
func pngWithICCP(_ png: [UInt8], compressed: [UInt8]) -> [UInt8] {
    let body = Array("iCCP".utf8) + Array("test profile".utf8) + [0, 0] + compressed
    let chunk = be32(body.count - 4) + body + be32(Int(Zlib.crc32(body)))
    return Array(png[..<33]) + chunk + Array(png[33...])
}

/// `webp` (a simple lossy file: RIFF, WEBP, VP8) made extended, with an `ICCP` chunk.
func webpWithICCP(_ webp: [UInt8], profile: [UInt8], width: Int, height: Int) -> [UInt8] {
    func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
    let vp8x = Array("VP8X".utf8) + le32(10) + [0x20, 0, 0, 0] + le24(width - 1) + le24(height - 1)
    var iccp = Array("ICCP".utf8) + le32(profile.count) + profile
    if profile.count % 2 == 1 { iccp.append(0) }
    let rest = Array(webp[12...])  // the VP8 chunk
    let content = Array("WEBP".utf8) + vp8x + iccp + rest
    return Array("RIFF".utf8) + le32(content.count) + content
}
