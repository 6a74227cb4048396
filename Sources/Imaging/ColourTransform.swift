import CLCMS2
import Synchronization

/// One Little CMS profile handle, closed with the value.
struct LCMSProfile: ~Copyable {
    let handle: cmsHPROFILE

    /// Opens an ICC profile held in memory.
    init(icc bytes: [UInt8]) throws(ColourProfileError) {
        guard bytes.count >= 132 else { throw .unreadable("\(bytes.count) bytes is too short for an ICC profile") }
        let opened = bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        guard let opened else { throw .unreadable("Little CMS does not accept it") }
        handle = opened
    }

    /// An RGB profile from its white point and primaries (CIE xy) and one tone curve for all
    /// three channels: a Little CMS parametric curve of `type` with `parameters`.
    init(white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double),
         curveType: Int32, parameters: [Double]) throws(ColourProfileError) {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        guard let curve = parameters.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, curveType, $0.baseAddress) }) else {
            throw .unreadable("the tone curve cannot be made")
        }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let made = cmsCreateRGBProfile(&whitePoint, &primaries, &curves) else {
            throw .unreadable("the primaries cannot be made into a profile")
        }
        handle = made
    }

    /// Little CMS's built-in sRGB.
    static func sRGB() -> LCMSProfile { LCMSProfile(owning: cmsCreate_sRGBProfile()!) }

    private init(owning handle: cmsHPROFILE) { self.handle = handle }

    deinit { cmsCloseProfile(handle) }

    /// Whether the profile describes RGB data.
    var isRGB: Bool { cmsGetColorSpace(handle) == cmsSigRgbData }
    /// Whether the profile describes greyscale data.
    var isGrey: Bool { cmsGetColorSpace(handle) == cmsSigGrayData }
    /// Whether the profile describes CMYK data (printing inks).
    var isCMYK: Bool { cmsGetColorSpace(handle) == cmsSigCmykData }

    /// Whether an RGB profile's colours reach beyond sRGB: some primary or secondary at full
    /// strength lies outside sRGB by more than one level (Display P3, Adobe RGB, BT.2020 do;
    /// sRGB and profiles close to it do not). Little CMS's floating-point transforms of
    /// matrix-shaper profiles are not clipped, so such colours show as values below 0 or above 1.
    var exceedsSRGB: Bool {
        let target = LCMSProfile.sRGB()
        guard let transform = cmsCreateTransform(
            handle, cascade_lcms_RGB_DBL(), target.handle, cascade_lcms_RGB_DBL(), UInt32(INTENT_RELATIVE_COLORIMETRIC), cascade_lcms_no_cache())
        else { return false }
        defer { cmsDeleteTransform(transform) }
        let input: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1]
        var output = [Double](repeating: 0, count: input.count)
        cmsDoTransform(transform, input, &output, UInt32(input.count / 3))
        return output.contains { $0 < -1.0 / 255 || $0 > 1 + 1.0 / 255 }
    }
}

/// A Little CMS transform of gd's truecolour pixels (in memory B, G, R, alpha on little-endian
/// machines) from one RGB profile to another, in place, alpha untouched (Little CMS leaves
/// extra channels alone without `cmsFLAGS_COPY_ALPHA`; its one-pixel cache is off, since
/// photo pixels rarely repeat and checking it costs more than it saves). Owns its handle;
/// `cmsDoTransform` is thread-safe, so one transform serves every worker.
final class ColourTransform: @unchecked Sendable {  // the handle is immutable after creation
    private let handle: cmsHTRANSFORM
    /// The same conversion as tables, for matrix-shaper profiles: used instead of the handle.
    private let tables: MatrixShaperTables?

    /// gd's pixel layout, as a Little CMS format.
    private static let pixelFormat = UInt32(1).littleEndian == 1 ? cascade_lcms_BGRA_8() : cascade_lcms_ARGB_8()

    init(from source: borrowing LCMSProfile, to target: borrowing LCMSProfile) throws(ColourProfileError) {
        guard let handle = cmsCreateTransform(
            source.handle, Self.pixelFormat, target.handle, Self.pixelFormat,
            UInt32(INTENT_RELATIVE_COLORIMETRIC), cascade_lcms_no_cache())
        else { throw .unreadable("no colour transform can be made from it") }
        self.handle = handle
        tables = MatrixShaperTables.hasOneCurve(target) ? MatrixShaperTables(from: source, to: target) : nil
    }

    deinit { cmsDeleteTransform(handle) }

    /// Whether the conversion runs on Cascade's own tables rather than Little CMS's transform.
    var usesTables: Bool { tables != nil }

    /// Transforms `count` gd pixels at `pixels`, in place; with `opaque`, each pixel's alpha
    /// byte is also set to 0 (opaque) whatever it held, in the same pass where the tables
    /// convert (a JPEG just decoded: see ``JPEGDecoder``).
    func apply(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        if let tables {
            tables.apply(pixels, count: count, opaque: opaque)
        } else {
            if opaque { JPEGDecoder.clearFillerBytes(pixels, count: count) }
            cmsDoTransform(handle, pixels, pixels, UInt32(count))
        }
    }

    /// Transforms `count` gd pixels at `pixels` in place with Little CMS, tables or not (for tests).
    func applyWithLittleCMS(_ pixels: UnsafeMutablePointer<Int32>, count: Int) {
        cmsDoTransform(handle, pixels, pixels, UInt32(count))
    }

    /// Transforms every pixel of `image`, row by row (gd keeps each row apart).
    func apply(to image: borrowing Image) {
        let width = image.width
        for row in image.rows { apply(row, count: width) }
    }

    /// Whether the transform changes no colour by more than one level: an sRGB profile under
    /// another name (checked on a grid of colours, once per distinct profile).
    var isNearIdentity: Bool {
        let steps = [0, 1, 32, 64, 96, 128, 160, 192, 224, 254, 255]
        var pixels: [Int32] = []
        for r in steps { for g in steps { for b in steps { pixels.append(Int32(r << 16 | g << 8 | b)) } } }
        let original = pixels
        pixels.withUnsafeMutableBufferPointer { apply($0.baseAddress!, count: $0.count) }
        for (a, b) in zip(original, pixels) {
            for shift in [0, 8, 16] where abs(Int((a >> Int32(shift)) & 0xFF) - Int((b >> Int32(shift)) & 0xFF)) > 1 {
                return false
            }
        }
        return true
    }
}

/// The conversion of decoded pixels to sRGB: one transform per distinct profile, made on first
/// use and shared by every worker.
enum ColourConversion {
    /// What a profile needs.
    enum Plan: Sendable {
        /// Nothing: sRGB, or a colour space Cascade does not convert (Lab, multi-ink).
        case none
        case transform(ColourTransform)
        /// A greyscale profile: one tone table per channel.
        case grey(GreyToneTables)
        /// A CMYK profile: applied while a CMYK JPEG is decoded (see ``CMYKDecoder``); other
        /// pixels are left as they are.
        case cmyk(CMYKTransform)
        case unusable(ColourProfileError)
    }

    /// What a photo with a profile gets: the conversion, and the space its images are in.
    struct Decision: Sendable {
        var plan: Plan
        var space: ImageColourSpace
        /// Whether the profile's colours reach beyond sRGB, whatever `space` is.
        var wideGamut = false
    }

    private struct Key: Hashable {
        var profile: ColourProfile
        var colour: OutputColour
    }

    /// Decisions by profile and output colour; cleared when it holds `cacheLimit` (a site has
    /// a handful of profiles).
    private static let cache = Mutex<[Key: Decision]>([:])
    static let cacheLimit = 64

    /// The plan that converts pixels in `profile` to sRGB.
    static func plan(for profile: ColourProfile) -> Plan { decision(for: profile, colour: .sRGB).plan }

    /// The decision for `profile` with `colour`, from the cache or made now (outside the lock:
    /// two workers may both make the first one; the one cached first is kept and returned to both).
    static func decision(for profile: ColourProfile, colour: OutputColour) -> Decision {
        let key = Key(profile: profile, colour: colour)
        if let decision = cache.withLock({ $0[key] }) { return decision }
        let decision = makeDecision(profile, colour: colour)
        return cache.withLock { cache in
            if let first = cache[key] { return first }  // another worker's, made meanwhile
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[key] = decision
            return decision
        }
    }

    private static func makeDecision(_ profile: ColourProfile, colour: OutputColour) -> Decision {
        do throws(ColourProfileError) {
            switch profile {
            case .icc(let bytes):
                return try decide(LCMSProfile(icc: bytes), colour: colour)
            case .nclx(let primaries, let transfer):
                guard let made = try nclxProfile(primaries: primaries, transfer: transfer) else { return Decision(plan: .none, space: .sRGB) }
                return try decide(made, colour: colour)
            }
        } catch {
            return Decision(plan: .unusable(error), space: .sRGB)
        }
    }

    private static func decide(_ source: borrowing LCMSProfile, colour: OutputColour) throws(ColourProfileError) -> Decision {
        let wideGamut = source.isRGB && source.exceedsSRGB
        if colour == .wide, wideGamut {
            let target = try LCMSProfile(icc: DisplayP3.iccProfile)
            let transform = try ColourTransform(from: source, to: target)
            return Decision(plan: transform.isNearIdentity ? .none : .transform(transform), space: .displayP3, wideGamut: true)
        }
        return Decision(plan: try makePlan(source), space: .sRGB, wideGamut: wideGamut)
    }

    /// The conversion of pixels in `source` to sRGB.
    private static func makePlan(_ source: borrowing LCMSProfile) throws(ColourProfileError) -> Plan {
        if source.isGrey {
            let tables = try GreyToneTables(from: source, to: LCMSProfile.sRGB())
            return tables.isNearIdentity ? .none : .grey(tables)
        }
        if source.isCMYK { return .cmyk(try CMYKTransform(from: source, to: LCMSProfile.sRGB())) }
        guard source.isRGB else { return .none }
        let transform = try ColourTransform(from: source, to: LCMSProfile.sRGB())
        return transform.isNearIdentity ? .none : .transform(transform)
    }

    /// An RGB profile for an `nclx` description, nil for sRGB (BT.709 primaries with the sRGB
    /// or a BT.709 curve) or when unspecified; code points Cascade does not know (HDR transfers
    /// such as PQ and HLG among them) are an error.
    static func nclxProfile(primaries: Int, transfer: Int) throws(ColourProfileError) -> LCMSProfile? {
        let d65 = (0.3127, 0.3290)
        let space: (white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double))
        switch primaries {
        case 1, 2: space = (d65, (0.640, 0.330), (0.300, 0.600), (0.150, 0.060))  // BT.709 / sRGB, or unspecified
        case 12: space = (d65, (0.680, 0.320), (0.265, 0.690), (0.150, 0.060))  // Display P3
        case 9: space = (d65, (0.708, 0.292), (0.170, 0.797), (0.131, 0.046))  // BT.2020
        case 11: space = ((0.314, 0.351), (0.680, 0.320), (0.265, 0.690), (0.150, 0.060))  // DCI-P3
        default: throw .unreadable("colour primaries \(primaries) are not supported")
        }
        let curve: (type: Int32, parameters: [Double])
        switch transfer {
        // sRGB, unspecified, and the BT.709-family curves, which encoders write for ordinary
        // stills (1/1/1 from many tools) and which are read as sRGB here, so such files stay as
        // they are.
        case 1, 2, 6, 13, 14, 15: curve = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case 4: curve = (1, [2.2])
        case 5: curve = (1, [2.8])
        case 8: curve = (1, [1.0])  // linear
        default: throw .unreadable("transfer characteristics \(transfer) are not supported")
        }
        if (primaries == 1 || primaries == 2) && [1, 2, 6, 13, 14, 15].contains(transfer) { return nil }
        return try LCMSProfile(white: space.white, red: space.red, green: space.green, blue: space.blue,
                               curveType: curve.type, parameters: curve.parameters)
    }

    /// The average colour of Display P3 pixels, in sRGB (the placeholder colour is CSS: sRGB).
    static func sRGB(fromDisplayP3 colour: RGBColor) -> RGBColor {
        guard case .transform(let transform) = plan(for: .icc(DisplayP3.iccProfile)) else { return colour }
        var pixel = [Int32(colour.red) << 16 | Int32(colour.green) << 8 | Int32(colour.blue)]
        pixel.withUnsafeMutableBufferPointer { transform.apply($0.baseAddress!, count: 1) }
        return RGBColor(red: UInt8(pixel[0] >> 16 & 0xFF), green: UInt8(pixel[0] >> 8 & 0xFF), blue: UInt8(pixel[0] & 0xFF))
    }

    /// Carries out `plan` on `image` in place; returns the reason when the profile cannot be used.
    static func apply(_ plan: Plan, to image: borrowing Image) -> ColourProfileError? {
        switch plan {
        case .none, .cmyk: return nil
        case .transform(let transform):
            transform.apply(to: image)
            return nil
        case .grey(let tables):
            tables.apply(to: image)
            return nil
        case .unusable(let error): return error
        }
    }
}
