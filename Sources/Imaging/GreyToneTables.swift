import CLCMS2

/// The conversion of greyscale pixels through a grey ICC profile (a tone curve, such as gamma
/// 1.8 or a printer's dot gain) to an RGB profile, as one 256-entry table per output channel.
///
/// gd decodes a greyscale JPEG or PNG to truecolour pixels whose red, green and blue are the
/// same grey value, so each channel is looked up in its own table: a grey pixel becomes exactly
/// Little CMS's rendering of it (a neutral, so the three tables nearly agree), and an RGB
/// picture mislabelled with a grey profile gets the same tone curve on each channel.
struct GreyToneTables: Sendable {
    /// The output red, green and blue of each grey input value.
    let red: [UInt8]
    let green: [UInt8]
    let blue: [UInt8]

    /// The tables from `source` (a grey profile) to `target` (an RGB profile), computed once by
    /// Little CMS (relative colorimetric, as for RGB sources).
    init(from source: borrowing LCMSProfile, to target: borrowing LCMSProfile) throws(ColourProfileError) {
        guard let handle = cmsCreateTransform(
            source.handle, cascade_lcms_GRAY_8(), target.handle, cascade_lcms_RGB_8(),
            UInt32(INTENT_RELATIVE_COLORIMETRIC), cascade_lcms_no_cache())
        else { throw .unreadable("no transform can be made from its greyscale profile") }
        defer { cmsDeleteTransform(handle) }
        let input = (0...255).map { UInt8($0) }
        var output = [UInt8](repeating: 0, count: 256 * 3)
        cmsDoTransform(handle, input, &output, 256)
        red = (0..<256).map { output[$0 * 3] }
        green = (0..<256).map { output[$0 * 3 + 1] }
        blue = (0..<256).map { output[$0 * 3 + 2] }
    }

    /// Whether no value moves by more than one level (a grey profile with the sRGB curve).
    var isNearIdentity: Bool {
        (0..<256).allSatisfy { value in [red, green, blue].allSatisfy { abs(Int($0[value]) - value) <= 1 } }
    }

    /// Converts `count` gd pixels at `pixels` in place, alpha kept.
    func apply(_ pixels: UnsafeMutablePointer<Int32>, count: Int) {
        red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    for x in 0..<count {
                        let pixel = UInt32(bitPattern: pixels[x])
                        let R = UInt32(r[Int(pixel >> 16 & 0xFF)])
                        let G = UInt32(g[Int(pixel >> 8 & 0xFF)])
                        let B = UInt32(b[Int(pixel & 0xFF)])
                        pixels[x] = Int32(bitPattern: pixel & 0xFF00_0000 | R << 16 | G << 8 | B)
                    }
                }
            }
        }
    }

    /// Converts every pixel of `image`.
    func apply(to image: borrowing Image) {
        let width = image.width
        for row in image.rows { apply(row, count: width) }
    }
}
