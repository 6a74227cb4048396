import CLCMS2
import CTurboJPEG

/// A Little CMS transform from a CMYK profile to an RGB one, writing gd's truecolour pixels.
/// Owns its handle; `cmsDoTransform` is thread-safe, so one transform serves every worker.
final class CMYKTransform: @unchecked Sendable {  // the handle is immutable after creation
    private let handle: cmsHTRANSFORM

    /// gd's pixel layout, as a Little CMS format.
    private static let pixelFormat = UInt32(1).littleEndian == 1 ? cascade_lcms_BGRA_8() : cascade_lcms_ARGB_8()

    /// Perceptual intent: a CMYK profile's perceptual table is the one made for showing print
    /// on a screen (browsers use it too).
    init(from source: borrowing LCMSProfile, to target: borrowing LCMSProfile) throws(ColourProfileError) {
        guard let handle = cmsCreateTransform(
            source.handle, cascade_lcms_CMYK_8(), target.handle, Self.pixelFormat,
            UInt32(INTENT_PERCEPTUAL), cascade_lcms_no_cache())
        else { throw .unreadable("no transform can be made from its CMYK profile") }
        self.handle = handle
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts `count` CMYK pixels (C, M, Y, K bytes; 0 is no ink) at `cmyk` into gd pixels
    /// at `target`, opaque.
    func apply(_ cmyk: UnsafeRawPointer, to target: UnsafeMutablePointer<Int32>, count: Int) {
        cmsDoTransform(handle, cmyk, target, UInt32(count))
        JPEGDecoder.clearFillerBytes(target, count: count)  // the alpha byte is not written: opaque
    }
}

/// Decodes CMYK (and YCCK) JPEGs through their colour profile: TurboJPEG decodes the ink
/// values, at a reduced size where that is enough (like ``JPEGDecoder``), and Little CMS turns
/// them into RGB. gd would instead subtract the inks from white, which is not what a printer
/// or Photoshop shows.
///
/// Adobe's applications (Photoshop among them) store CMYK inverted (255 is no ink) and mark such
/// files with an `Adobe` APP14 segment; files with that segment are read inverted, as browsers,
/// gd and Pillow read them.
enum CMYKDecoder {
    /// Decodes `bytes` at the smallest TurboJPEG scale that is at least `minimumWidth` ×
    /// `minimumHeight` in stored pixels, converting through `transform`, or returns nil when the
    /// JPEG is not CMYK or YCCK (its pixels are then decoded as usual).
    static func decode(
        _ bytes: [UInt8], info: ImageInfo, limits: DecodeLimits, transform: CMYKTransform,
        minimumWidth: Int, minimumHeight: Int
    ) throws(ImagingError) -> Image? {
        _ = try Image.checkBeforeDecoding(bytes, info: info, limits: limits)
        guard let handle = tjInitDecompress() else { throw .decodeFailed(.jpeg, detail: "the JPEG decoder cannot start") }
        defer { tjDestroy(handle) }

        guard let (scaledWidth, scaledHeight) = try JPEGDecoder.scaledSize(
            bytes, handle: handle, info: info, cmyk: true, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        else { return nil }
        let image = try Image(width: scaledWidth, height: scaledHeight)
        var inks = [UInt32](repeating: 0, count: scaledWidth * scaledHeight)
        let status = bytes.withUnsafeBufferPointer { source in
            inks.withUnsafeMutableBytes { target in
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), target.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    Int32(scaledWidth), Int32(scaledWidth * 4), Int32(scaledHeight), Int32(TJPF_CMYK.rawValue), 0)
            }
        }
        try JPEGDecoder.check(status, handle: handle)
        let inverted = try hasAdobeMarker(bytes)
        let rows = image.rows
        inks.withUnsafeMutableBufferPointer { buffer in
            for (y, row) in rows.enumerated() {
                let source = buffer.baseAddress! + y * scaledWidth
                if inverted {
                    for x in 0..<scaledWidth { source[x] = ~source[x] }
                }
                transform.apply(source, to: row, count: scaledWidth)
            }
        }
        return image
    }

    /// Whether the JPEG has Adobe's APP14 segment (its CMYK values are then stored inverted).
    static func hasAdobeMarker(_ bytes: [UInt8]) throws(ImagingError) -> Bool {
        let reader = ByteReader(bytes)
        reader.format = .jpeg
        let signature = Array("Adobe".utf8)
        var found = false
        try ImageProbe.walkJPEG(reader) { segment throws(ImagingError) in
            if segment.marker == 0xEE, segment.end - segment.dataStart >= signature.count,
                try reader.bytes(segment.dataStart..<(segment.dataStart + signature.count)) == signature
            {
                found = true
            }
            return !found
        }
        return found
    }
}
