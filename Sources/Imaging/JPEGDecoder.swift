import CGD
import CTurboJPEG

/// Decodes JPEGs with libjpeg-turbo's TurboJPEG API at a reduced size where that is enough:
/// the codec scales while it decodes (DCT scaling, in steps of 1/8), which is several times
/// faster than decoding the whole picture and scaling it afterwards, and needs a fraction of
/// the memory. The result is a gd image like any other, so every later step is the same.
///
/// CMYK and YCCK JPEGs (which TurboJPEG decodes only to CMYK) go through gd.
enum JPEGDecoder {
    /// The size to decode the JPEG `bytes` at with TurboJPEG's `handle`: the smallest of its
    /// scales that is at least `minimumWidth` × `minimumHeight` in stored pixels. Nil when the
    /// JPEG's colour space is CMYK (or YCCK) and `cmyk` is false, or the other way round; an
    /// error when the header cannot be read or disagrees with `info`.
    static func scaledSize(
        _ bytes: [UInt8], handle: tjhandle, info: ImageInfo, cmyk: Bool, minimumWidth: Int, minimumHeight: Int
    ) throws(ImagingError) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw .decodeFailed(.jpeg, detail: errorText(handle)) }
        guard (colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)) == cmyk else { return nil }
        guard Int(width) == info.pixelWidth, Int(height) == info.pixelHeight else {
            throw .decodeFailed(.jpeg, detail: "the header says \(width)×\(height), the frame \(info.pixelWidth)×\(info.pixelHeight)")
        }
        let factor = scale(width: Int(width), height: Int(height),
                           minimumWidth: min(minimumWidth, Int(width)), minimumHeight: min(minimumHeight, Int(height)))
        return ((Int(width) * factor.num + factor.denom - 1) / factor.denom, (Int(height) * factor.num + factor.denom - 1) / factor.denom)
    }

    /// The scale a decode at (`width`, `height`) can use so that the result is still at least
    /// `minimumWidth` × `minimumHeight`: the smallest TurboJPEG scaling factor (at most 1) that
    /// keeps both sides large enough. Returns the factor's numerator and denominator.
    static func scale(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int) -> (num: Int, denom: Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return (1, 1) }
        var best = (num: 1, denom: 1)
        for index in 0..<Int(count) {
            let factor = factors[index]
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            guard num <= denom else { continue }  // never enlarge
            let scaledWidth = (width * num + denom - 1) / denom
            let scaledHeight = (height * num + denom - 1) / denom
            guard scaledWidth >= minimumWidth, scaledHeight >= minimumHeight else { continue }
            if num * best.denom < best.num * denom { best = (num, denom) }
        }
        return best
    }

    /// Decodes `bytes` (a JPEG whose header `info` describes and whose size `limits` allows) at
    /// the smallest size that is at least `minimumWidth` × `minimumHeight` in stored pixels,
    /// or returns nil when TurboJPEG cannot decode it to RGB (CMYK): use gd then.
    ///
    /// With a `conversion` (the photo's colour profile to sRGB or Display P3), the pixels are
    /// converted as they are made gd pixels: one pass over the picture where decoding, then
    /// converting, takes two (the tables' kernel clears the filler byte as it writes each pixel).
    /// The same pixels as ``ColourConversion/apply(_:to:)`` on the decoded image.
    static func decode(
        _ bytes: [UInt8], info: ImageInfo, limits: DecodeLimits, minimumWidth: Int, minimumHeight: Int,
        converting conversion: ColourTransform? = nil
    ) throws(ImagingError) -> Image? {
        _ = try Image.checkBeforeDecoding(bytes, info: info, limits: limits)
        guard let handle = tjInitDecompress() else { throw .decodeFailed(.jpeg, detail: "the JPEG decoder cannot start") }
        defer { tjDestroy(handle) }

        guard let (scaledWidth, scaledHeight) = try scaledSize(
            bytes, handle: handle, info: info, cmyk: false, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        else { return nil }
        // Not zeroed first: the decoder writes every pixel (a corrupt stream's missing rows too,
        // and an error is thrown below before any pixel is read).
        var image = try Image(width: scaledWidth, height: scaledHeight, zeroed: false)
        image.knownOpaque = true  // JPEG has no transparency
        let pixels = image.contiguousPixels!
        // TurboJPEG writes the picture straight into the image's rows (one block, no gaps). As
        // a 32-bit value each pixel must read 0xXXRRGGBB: B, G, R, X in memory on little-endian
        // machines, X, R, G, B on big-endian ones; X (0xFF) is then cleared: gd's alpha, opaque.
        let pixelFormat = Int32(UInt32(1).littleEndian == 1 ? TJPF_BGRX.rawValue : TJPF_XRGB.rawValue)
        let status = bytes.withUnsafeBufferPointer { source in
            tjDecompress2(
                handle, source.baseAddress, UInt(source.count),
                UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
                Int32(scaledWidth), Int32(scaledWidth * 4), Int32(scaledHeight),
                pixelFormat, 0)
        }
        try check(status, handle: handle)
        if let conversion {
            conversion.apply(pixels, count: scaledWidth * scaledHeight, opaque: true)
        } else {
            clearFillerBytes(pixels, count: scaledWidth * scaledHeight)
        }
        return image
    }

    /// Throws for what `tjDecompress2` returned as `status` with `handle`: a stream that ends
    /// early is truncated, any other error fails; a warning (a damaged but decodable stream)
    /// lets the picture through.
    static func check(_ status: Int32, handle: tjhandle) throws(ImagingError) {
        guard status != 0 else { return }
        let text = errorText(handle)
        if text.lowercased().contains("premature end") { throw .truncated(.jpeg) }
        if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) { throw .decodeFailed(.jpeg, detail: text) }
    }

    /// Clears the top byte (TurboJPEG's filler, gd's alpha) of `count` pixels, in place (a
    /// loop the compiler turns into vector instructions).
    static func clearFillerBytes(_ pixels: UnsafeMutablePointer<Int32>, count: Int) {
        for index in 0..<count { pixels[index] &= 0x00FF_FFFF }
    }

    /// TurboJPEG's message for the last error of `handle`.
    static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
