import CTurboJPEG

/// Encodes opaque pictures held in one block (see ``PixelBlock``) with libjpeg-turbo's TurboJPEG
/// API, which reads gd's pixels as they are (B, G, R, X in memory) with its vector colour
/// conversion, where gd's encoder first copies every pixel into a row of R, G, B bytes. The
/// same settings as gd's encoder, so the pixels come out the same: the accurate integer DCT,
/// the quality's tables with baseline limits, 4:2:0 chroma below quality 90 and 4:4:4 from 90
/// up, baseline or progressive, the standard Huffman tables.
enum JPEGEncoder {
    /// The JPEG of `height` rows of `width` pixels at `pixels` (one after the other, gd's
    /// `0x00RRGGBB` values; the top byte is ignored).
    static func encode(
        _ pixels: UnsafePointer<Int32>, width: Int, height: Int, quality: Int32, progressive: Bool
    ) throws(ImagingError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .encodeFailed("JPEG: the encoder cannot start") }
        defer { tjDestroy(handle) }
        let pixelFormat = Int32(UInt32(1).littleEndian == 1 ? TJPF_BGRX.rawValue : TJPF_XRGB.rawValue)
        let subsampling = Int32(quality >= 90 ? TJSAMP_444.rawValue : TJSAMP_420.rawValue)
        let flags = TJFLAG_ACCURATEDCT | (progressive ? TJFLAG_PROGRESSIVE : 0)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = tjCompress2(
            handle, UnsafeRawPointer(pixels).assumingMemoryBound(to: UInt8.self), Int32(width), Int32(width * 4), Int32(height),
            pixelFormat, &output, &size, subsampling, quality, Int32(flags))
        guard status == 0, let output, size > 0 else {
            throw .encodeFailed("JPEG: \(JPEGDecoder.errorText(handle))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
