import CLCMS2

/// The colour space a site's images are made in (`colour` in `cascade.yml`).
public enum OutputColour: String, Sendable, Hashable, CaseIterable {
    /// Every image in sRGB, with no profile: what every screen shows alike (the default).
    case sRGB = "srgb"
    /// Photos whose colours reach beyond sRGB (Display P3, Adobe RGB, BT.2020 profiles) keep
    /// them: their images are made in Display P3 and carry a compact Display P3 profile; every
    /// other photo is made in sRGB, as with ``sRGB``.
    case wide
}

/// The colour space of one photo's images.
public enum ImageColourSpace: String, Sendable, Hashable {
    case sRGB
    case displayP3
}

/// Display P3 as Cascade's images carry it: DCI-P3 primaries, the D65 white point and the sRGB
/// tone curve, in a matrix-and-curve ICC profile of well under a kilobyte, named "Display P3".
enum DisplayP3 {
    static let primaries = (white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
    /// The sRGB curve as a Little CMS parametric curve (type 4).
    static let curve: (type: Int32, parameters: [Double]) = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])

    /// The profile, made once by Little CMS.
    static let iccProfile: [UInt8] = {
        let p = primaries
        // Fixed, valid parameters: this cannot fail.
        let profile = try! LCMSProfile(white: p.white, red: p.red, green: p.green, blue: p.blue,
                                       curveType: curve.type, parameters: curve.parameters)
        if let description = cmsMLUalloc(nil, 1) {
            _ = cmsMLUsetASCII(description, "en", "US", "Display P3")
            _ = cmsWriteTag(profile.handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(description))
            cmsMLUfree(description)
        }
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile.handle, nil, &size) != 0, size > 0 else { fatalError("Little CMS cannot save a Display P3 profile") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile.handle, &bytes, &size) != 0 else { fatalError("Little CMS cannot save a Display P3 profile") }
        return Array(bytes.prefix(Int(size)))
    }()
}
