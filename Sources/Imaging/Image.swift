import CGD

/// A decoded image, the one owner of its `gdImagePtr` (destroyed with the value).
///
/// Images are always truecolor with an alpha channel. They are not `Sendable`: pass bytes
/// between tasks and decode where the work happens.
public struct Image: ~Copyable {
    let pointer: gdImagePtr

    init(owning pointer: gdImagePtr) {
        self.pointer = pointer
    }

    deinit { gdImageDestroy(pointer) }

    /// A blank (black, opaque) image.
    public init(width: Int, height: Int) throws(ImagingError) {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535,
              let pointer = gdImageCreateTrueColor(Int32(width), Int32(height))
        else { throw .encodeFailed("cannot create a \(width)×\(height) image") }
        gdImageSaveAlpha(pointer, 1)
        self.pointer = pointer
    }

    /// Decodes `bytes`. The header's dimensions are checked against `limits` first, so a file
    /// that claims too many pixels is refused before anything is allocated for them; a
    /// truncated JPEG is an error, not a grey picture.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImagingError) -> Image {
        let info = try ImageProbe.probe(bytes)
        return try decode(bytes, info: info, limits: limits)
    }

    static func decode(_ bytes: [UInt8], info: ImageInfo, limits: DecodeLimits) throws(ImagingError) -> Image {
        let (pixels, overflow) = info.pixelWidth.multipliedReportingOverflow(by: info.pixelHeight)
        guard !overflow, pixels <= limits.maxPixels else {
            throw .tooManyPixels(width: info.pixelWidth, height: info.pixelHeight, limit: limits.maxPixels)
        }
        guard bytes.count <= Int(Int32.max) else { throw .decodeFailed(info.format, detail: "the file is too large") }
        let format = info.format
        let (decoded, messages) = GDDiagnostics.capture { () -> gdImagePtr? in
            var copy = bytes
            return copy.withUnsafeMutableBytes { buffer -> gdImagePtr? in
                let size = Int32(buffer.count)
                let base = buffer.baseAddress
                switch format {
                case .jpeg: return gdImageCreateFromJpegPtrEx(size, base, 0)
                case .png: return gdImageCreateFromPngPtr(size, base)
                case .gif: return gdImageCreateFromGifPtr(size, base)
                case .webp: return gdImageCreateFromWebpPtr(size, base)
                case .heif: return gdImageCreateFromHeifPtr(size, base)
                case .avif: return gdImageCreateFromAvifPtr(size, base)
                case .tiff: return gdImageCreateFromTiffPtr(size, base)
                case .bmp: return gdImageCreateFromBmpPtr(size, base)
                }
            }
        }
        let detail = messages.first { !$0.isEmpty } ?? ""
        guard let decoded else {
            if messages.contains(where: { $0.localizedCaseInsensitiveContains("premature end") || $0.contains("truncated") }) {
                throw .truncated(format)
            }
            throw .decodeFailed(format, detail: Self.clean(detail))
        }
        var image = Image(owning: decoded)
        if messages.contains(where: { $0.localizedCaseInsensitiveContains("premature end") }) {
            throw .truncated(format)
        }
        try image.makeTrueColor()
        return image
    }

    /// gd prefixes its messages with the codec's name; keep the part a user can read.
    private static func clean(_ message: String) -> String {
        var text = message
        for prefix in ["gd-jpeg: ", "gd-png: ", "gd-png error: ", "gd-webp ", "gd-heif ", "gd-avif ", "gd-tiff ", "gd-bmp "] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        return text
    }

    private mutating func makeTrueColor() throws(ImagingError) {
        if pointer.pointee.trueColor == 0 {
            guard gdImagePaletteToTrueColor(pointer) != 0 else { throw .decodeFailed(.gif, detail: "cannot convert the palette") }
        }
        gdImageSaveAlpha(pointer, 1)
    }

    /// Width in pixels.
    public var width: Int { Int(pointer.pointee.sx) }
    /// Height in pixels.
    public var height: Int { Int(pointer.pointee.sy) }

    /// The colour at (x, y); alpha 255 is opaque, 0 fully transparent.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) is outside the image")
        let value = pointer.pointee.tpixels[y]![x]
        let alpha = Int((value >> 24) & 0x7F)
        return (UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
                UInt8((127 - alpha) * 255 / 127))
    }

    /// Fills a rectangle with a colour, replacing what was there (alpha included).
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        let gdAlpha = Int32(127 - Int(alpha) * 127 / 255)
        let color = (gdAlpha << 24) | (Int32(red) << 16) | (Int32(green) << 8) | Int32(blue)
        gdImageAlphaBlending(pointer, 0)
        gdImageFilledRectangle(pointer, Int32(x), Int32(y), Int32(x + width - 1), Int32(y + height - 1), color)
        gdImageAlphaBlending(pointer, 1)
    }

    /// The image turned so that it shows upright, given the EXIF orientation of its stored pixels.
    public consuming func oriented(_ orientation: Orientation) throws(ImagingError) -> Image {
        if orientation == .up { return self }
        let w = width
        let h = height
        let turned = try Image(width: orientation.swapsDimensions ? h : w, height: orientation.swapsDimensions ? w : h)
        let source = pointer.pointee.tpixels!
        let target = turned.pointer.pointee.tpixels!
        for y in 0..<turned.height {
            let row = target[y]!
            for x in 0..<turned.width {
                let (sx, sy): (Int, Int)
                switch orientation {
                case .up: (sx, sy) = (x, y)
                case .upMirrored: (sx, sy) = (w - 1 - x, y)
                case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                case .downMirrored: (sx, sy) = (x, h - 1 - y)
                case .leftMirrored: (sx, sy) = (y, x)
                case .right: (sx, sy) = (y, h - 1 - x)
                case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                case .left: (sx, sy) = (w - 1 - y, x)
                }
                row[x] = source[sy]![sx]
            }
        }
        return turned
    }

    /// A copy scaled to `toWidth` pixels wide (height keeps the aspect ratio, at least 1),
    /// never enlarged: a width at or above the image's own gives a copy at the same size.
    ///
    /// Large reductions first average pixels down to twice the target (gd's resampling copy),
    /// then finish with a Lanczos-3 filter, which keeps thumbnails sharp without aliasing.
    public func resized(toWidth: Int) throws(ImagingError) -> Image {
        let targetWidth = max(1, min(toWidth, width))
        let targetHeight = max(1, Int((Double(height) * Double(targetWidth) / Double(width)).rounded()))
        if targetWidth == width {
            return try copy()
        }
        if width > targetWidth * 3 {
            let stepWidth = targetWidth * 2
            let stepHeight = max(1, Int((Double(height) * Double(stepWidth) / Double(width)).rounded()))
            let step = try Image(width: stepWidth, height: stepHeight)
            gdImageAlphaBlending(step.pointer, 0)
            gdImageCopyResampled(step.pointer, pointer, 0, 0, 0, 0, Int32(stepWidth), Int32(stepHeight), Int32(width), Int32(height))
            return try step.scaled(width: targetWidth, height: targetHeight)
        }
        return try scaled(width: targetWidth, height: targetHeight)
    }

    private func scaled(width: Int, height: Int) throws(ImagingError) -> Image {
        gdImageSetInterpolationMethod(pointer, GD_LANCZOS3)
        guard let result = gdImageScale(pointer, UInt32(width), UInt32(height)) else {
            throw .encodeFailed("cannot scale to \(width)×\(height)")
        }
        gdImageSaveAlpha(result, 1)
        return Image(owning: result)
    }

    private func copy() throws(ImagingError) -> Image {
        let result = try Image(width: width, height: height)
        gdImageAlphaBlending(result.pointer, 0)
        gdImageCopy(result.pointer, pointer, 0, 0, 0, 0, Int32(width), Int32(height))
        return result
    }

    /// Whether any pixel is not fully opaque.
    var hasTransparency: Bool {
        let rows = pointer.pointee.tpixels!
        for y in 0..<height {
            let row = rows[y]!
            for x in 0..<width where (row[x] >> 24) & 0x7F != 0 {
                return true
            }
        }
        return false
    }

    /// Encodes the image. JPEG has no transparency, so transparent pixels are put on white first.
    public func encoded(as format: EncodeFormat) throws(ImagingError) -> [UInt8] {
        var size: Int32 = 0
        let data: UnsafeMutableRawPointer?
        switch format {
        case .jpeg(let quality):
            if hasTransparency {
                let flat = try Image(width: width, height: height)
                flat.fillWhite()
                gdImageAlphaBlending(flat.pointer, 1)
                gdImageCopy(flat.pointer, pointer, 0, 0, 0, 0, Int32(width), Int32(height))
                return try flat.encoded(as: format)
            }
            data = gdImageJpegPtr(pointer, &size, Int32(max(1, min(quality, 100))))
        case .webp(let quality):
            data = gdImageWebpPtrEx(pointer, &size, Int32(max(1, min(quality, 100))))
        case .png:
            data = gdImagePngPtr(pointer, &size)
        }
        guard let data, size > 0 else { throw .encodeFailed("libgd returned no data for \(format.fileExtension)") }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// Encodes in a format gd writes but Cascade does not publish (for tests and tools).
    public func encoded(asFormat format: ImageFormat) throws(ImagingError) -> [UInt8] {
        var size: Int32 = 0
        let data: UnsafeMutableRawPointer?
        switch format {
        case .jpeg: data = gdImageJpegPtr(pointer, &size, 90)
        case .png: data = gdImagePngPtr(pointer, &size)
        case .gif: data = gdImageGifPtr(pointer, &size)
        case .webp: data = gdImageWebpPtrEx(pointer, &size, 90)
        case .bmp: data = gdImageBmpPtr(pointer, &size, 0)
        case .tiff: data = gdImageTiffPtr(pointer, &size)
        case .avif: data = gdImageAvifPtrEx(pointer, &size, 90, 10)
        case .heif: data = gdImageHeifPtrEx(pointer, &size, 90, GD_HEIF_CODEC_HEVC, GD_HEIF_CHROMA_444)
        }
        guard let data, size > 0 else { throw .encodeFailed("libgd cannot write \(format.displayName) here") }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    private func fillWhite() {
        gdImageAlphaBlending(pointer, 0)
        gdImageFilledRectangle(pointer, 0, 0, Int32(width - 1), Int32(height - 1), 0xFFFFFF)
    }

    /// The average colour, for the placeholder shown while the image loads.
    public func averageColor() -> RGBColor {
        guard let dot = gdImageCreateTrueColor(1, 1) else { return RGBColor(red: 128, green: 128, blue: 128) }
        defer { gdImageDestroy(dot) }
        gdImageAlphaBlending(dot, 0)
        gdImageCopyResampled(dot, pointer, 0, 0, 0, 0, 1, 1, Int32(width), Int32(height))
        let value = dot.pointee.tpixels[0]![0]
        return RGBColor(red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }
}
