import CGD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoded image: the one owner of a libgd `gdImagePtr`, destroyed with the value.
///
/// Images are truecolor with an alpha channel. They cannot be copied (use ``resized(toWidth:)``
/// at the same width for a copy) and are not `Sendable`: pass bytes between tasks and decode
/// where the work happens.
///
/// The images Cascade makes itself (``init(width:height:)``) keep their rows in one
/// ``PixelBlock`` of their own, which gd's row table points into: a decoder that writes whole
/// pictures (TurboJPEG) fills them directly, and their memory goes back to the system as soon
/// as they are dropped. Images from gd's decoders keep gd's own rows.
public struct Image: ~Copyable {
    let pointer: gdImagePtr
    /// The rows' memory when it is not gd's (see above); gd's row table points into it.
    private let block: PixelBlock?
    /// The block's first pixel (see ``contiguousPixels``).
    private let blockBase: UnsafeMutablePointer<Int32>?
    /// Whether every pixel is known to be opaque without looking: decoded from a format that
    /// has no transparency (JPEG), or scaled or turned from such a picture and not painted
    /// with a transparent colour since. False says nothing: ``isOpaque`` looks then.
    var knownOpaque = false

    /// Takes ownership of `pointer`.
    init(owning pointer: gdImagePtr) {
        self.pointer = pointer
        self.block = nil
        self.blockBase = nil
    }

    deinit {
        if blockBase != nil {
            // The rows are the block's, released after this: gd frees only its row table.
            let table = pointer.pointee.tpixels!
            for row in 0..<Int(pointer.pointee.sy) { table[row] = nil }
        }
        gdImageDestroy(pointer)
    }

    /// A blank image: opaque black.
    public init(width: Int, height: Int) throws(ImagingError) {
        try self.init(width: width, height: height, zeroed: true)
    }

    /// An image whose pixels are `zeroed` (opaque black), or left as they are when the caller
    /// writes every one of them before any is read.
    init(width: Int, height: Int, zeroed: Bool) throws(ImagingError) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
            width.multipliedReportingOverflow(by: height).partialValue <= Int(Int32.max),
            let block = PixelBlock(count: width * height, zeroed: zeroed)
        else { throw .invalidSize(width: width, height: height) }
        // gd's image with one row, which is then replaced by the block's rows. gd frees its row
        // table (with `free`: that is gdFree) and whatever rows are left in it.
        guard let pointer = gdImageCreateTrueColor(Int32(width), 1) else { throw .invalidSize(width: width, height: height) }
        guard let table = malloc(height * MemoryLayout<UnsafeMutablePointer<Int32>?>.stride) else {
            gdImageDestroy(pointer)
            throw .invalidSize(width: width, height: height)
        }
        let rows = table.bindMemory(to: UnsafeMutablePointer<Int32>?.self, capacity: height)
        for row in 0..<height { rows[row] = block.base + row * width }
        gdFree(pointer.pointee.tpixels[0])
        gdFree(pointer.pointee.tpixels)
        pointer.pointee.tpixels = rows
        pointer.pointee.sy = Int32(height)
        pointer.pointee.cy2 = Int32(height - 1)  // gd's clipping rectangle: the whole picture
        gdImageSaveAlpha(pointer, 1)
        self.pointer = pointer
        self.blockBase = block.base
        self.block = .some(consume block)
    }

    /// The pixels as one piece of memory, row after row without gaps, `width` × `height`;
    /// nil for an image whose rows gd allocated one by one.
    var contiguousPixels: UnsafeMutablePointer<Int32>? { blockBase }

    /// Width in pixels.
    public var width: Int { Int(pointer.pointee.sx) }
    /// Height in pixels.
    public var height: Int { Int(pointer.pointee.sy) }

    /// The rows of pixels, as gd stores them: `0x7FRRGGBB`-style values whose top seven bits
    /// are gd's alpha (0 opaque, 127 transparent).
    var rows: [UnsafeMutablePointer<Int32>] {
        let table = pointer.pointee.tpixels!
        return (0..<height).map { table[$0]! }
    }

    /// The colour at (x, y); alpha 255 is opaque, 0 fully transparent.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) is outside the \(width)×\(height) image")
        let value = pointer.pointee.tpixels[y]![x]
        return (
            UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
            Self.alpha8(fromGD: Int((value >> 24) & 0x7F))
        )
    }

    /// Fills a rectangle (clipped to the image) with a colour, replacing what was there, alpha included.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(self.width, x + width)
        let bottom = min(self.height, y + height)
        guard left < right, top < bottom else { return }
        let value = Self.gdColor(red: red, green: green, blue: blue, alpha: alpha)
        if alpha != 255 { knownOpaque = false }
        let table = pointer.pointee.tpixels!
        for row in top..<bottom {
            let pixels = table[row]!
            for column in left..<right { pixels[column] = value }
        }
    }

    /// gd's colour value: seven bits of alpha (0 opaque), then eight bits each of red, green, blue.
    static func gdColor(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> Int32 {
        let gdAlpha = Int32(127 - (Int(alpha) * 127 + 127) / 255)
        return gdAlpha << 24 | Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
    }

    /// gd's seven-bit alpha (0 opaque, 127 transparent) as an eight-bit opacity.
    static func alpha8(fromGD alpha: Int) -> UInt8 {
        UInt8(((127 - alpha) * 255 + 63) / 127)
    }

    /// Whether every pixel is opaque: known from where the picture came from (a JPEG is never
    /// transparent), else found by looking at every pixel.
    var isOpaque: Bool { knownOpaque || !hasTransparency }

    /// Whether any pixel is not fully opaque, from every pixel.
    var hasTransparency: Bool {
        let w = width
        for row in rows {
            // All of a row's alpha bits at once: no branch per pixel.
            var alpha: Int32 = 0
            for x in 0..<w { alpha |= row[x] }
            if alpha & 0x7F00_0000 != 0 { return true }
        }
        return false
    }

    /// A copy at the same size.
    func copy() throws(ImagingError) -> Image {
        var result = try Image(width: width, height: height, zeroed: false)  // every row copied
        for (target, source) in zip(result.rows, rows) {
            target.update(from: source, count: width)
        }
        result.knownOpaque = knownOpaque
        return result
    }
}

@available(*, unavailable, message: "an Image owns C memory: pass its encoded bytes between tasks")
extension Image: Sendable {}

// MARK: - Decoding

extension Image {
    /// Decodes `bytes`, whatever their format (sniffed from the content). The header's size is
    /// checked against `limits` first, and the data's structure after that, so hostile files are
    /// refused before libgd allocates anything; a truncated file is an error, never a partly grey
    /// picture. The result holds the stored pixels: apply the probe's orientation with
    /// ``oriented(_:)`` to show them upright.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImagingError) -> Image {
        try decode(bytes, info: ImageProbe.probe(bytes), limits: limits)
    }

    /// What every decoder checks before it allocates anything: the pixel limit, the data's
    /// structure, and a size the C libraries can take. Returns what the structure check found.
    static func checkBeforeDecoding(_ bytes: [UInt8], info: ImageInfo, limits: DecodeLimits) throws(ImagingError) -> Integrity.Findings {
        try limits.check(info)
        let reader = ByteReader(bytes)
        reader.format = info.format
        let findings = try Integrity.check(reader, info: info)
        guard bytes.count <= Int(Int32.max) else { throw .decodeFailed(info.format, detail: "the file is larger than 2 GB") }
        return findings
    }

    static func decode(_ bytes: [UInt8], info: ImageInfo, limits: DecodeLimits) throws(ImagingError) -> Image {
        let format = info.format
        let findings = try checkBeforeDecoding(bytes, info: info, limits: limits)

        // libpng would print its verdict on a PNG's colour chunks to the terminal: gd gets none.
        let input = format == .png ? PNGColourChunks.strip(bytes) ?? bytes : bytes
        let (decoded, messages) = GDDiagnostics.capture { () -> gdImagePtr? in
            input.withUnsafeBytes { buffer -> gdImagePtr? in
                // gd's read-only memory context never writes to the data.
                let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
                let size = Int32(buffer.count)
                return switch format {
                case .jpeg: gdImageCreateFromJpegPtrEx(size, data, 0)
                case .png: gdImageCreateFromPngPtr(size, data)
                case .gif: gdImageCreateFromGifPtr(size, data)
                case .webp: gdImageCreateFromWebpPtr(size, data)
                case .heif: gdImageCreateFromHeifPtr(size, data)
                case .avif: gdImageCreateFromAvifPtr(size, data)
                case .tiff: gdImageCreateFromTiffPtr(size, data)
                case .bmp: gdImageCreateFromBmpPtr(size, data)
                }
            }
        }
        let problems = messages.filter { !$0.isNotice }
        guard let decoded else { throw failure(format, problems) }
        var image = Image(owning: decoded)  // destroyed if anything below throws

        if format == .jpeg, problems.contains(where: { $0.text.lowercased().contains("premature end") }) {
            throw .truncated(.jpeg)
        }
        if problems.contains(where: { $0.source == .tiffError }) {
            throw failure(format, problems.filter { $0.source == .tiffError })
        }
        try image.normalize(info: info, findings: findings)
        image.knownOpaque = format == .jpeg  // JPEG has no transparency
        return image
    }

    /// The error for a failed decode, from gd's messages.
    private static func failure(_ format: ImageFormat, _ problems: [Diagnostic]) -> ImagingError {
        let texts = problems.map(\.text)
        let truncation = ["premature end", "truncat", "read error", "unexpected end", "not enough data", "seek error", "io error"]
        if texts.contains(where: { text in truncation.contains { text.lowercased().contains($0) } }) {
            return .truncated(format)
        }
        if texts.contains(where: { $0.lowercased().contains("support has been disabled") }) {
            return .unsupported(format)
        }
        return .decodeFailed(format, detail: texts.first.map(readable) ?? "")
    }

    /// gd's message without the codec's prefix, starting in lower case.
    private static func readable(_ message: String) -> String {
        var text = Substring(message)
        let prefixes = [
            "gd-jpeg, libjpeg: recoverable error: ", "gd-jpeg: JPEG library reports unrecoverable error: ",
            "gd-png: fatal libpng error: ", "gd-png error: ", "gd-png: ", "gd-jpeg: ", "gd-webp: ", "gd-webp ",
            "gd-heif: ", "gd-heif ", "avif error - ", "gd-tiff: ", "gd-bmp: ",
        ]
        for prefix in prefixes where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        guard let first = text.first else { return "" }
        return first.lowercased() + text.dropFirst()
    }

    /// Makes a decoded image truecolor with real alpha, puts a GIF's first frame on its logical
    /// screen, undoes the mirroring libtiff applied, and checks the size against the header.
    private mutating func normalize(info: ImageInfo, findings: Integrity.Findings) throws(ImagingError) {
        if pointer.pointee.trueColor == 0 {
            // The transparent palette entry becomes alpha; gd then keeps that entry's colour as a
            // "transparent colour", which must not make other pixels of the same colour clear.
            guard gdImagePaletteToTrueColor(pointer) != 0 else {
                throw .decodeFailed(info.format, detail: "the palette cannot be converted")
            }
            pointer.pointee.transparent = -1
        }
        // A colour-key transparency (PNG tRNS on an RGB or grey image) becomes real alpha.
        let key = pointer.pointee.transparent
        if key >= 0 {
            let opaqueKey = key & 0x00FF_FFFF
            for row in rows {
                for x in 0..<width where row[x] & 0x00FF_FFFF == opaqueKey { row[x] = 0x7F00_0000 | opaqueKey }
            }
            pointer.pointee.transparent = -1
        }
        gdImageSaveAlpha(pointer, 1)

        if let frame = findings.gifFrame, width == frame.width, height == frame.height,
            width != info.pixelWidth || height != info.pixelHeight
        {
            // gd returns the first frame alone; show it at its place on a transparent screen.
            var screen = try Image(width: info.pixelWidth, height: info.pixelHeight)
            screen.fill(x: 0, y: 0, width: screen.width, height: screen.height, red: 0, green: 0, blue: 0, alpha: 0)
            let screenRows = screen.rows
            for (y, row) in rows.enumerated() where frame.top + y < screen.height {
                let count = min(width, screen.width - frame.left)
                if count > 0 { (screenRows[frame.top + y] + frame.left).update(from: row, count: count) }
            }
            self = screen
        }
        if let tiff = findings.tiff {
            // libtiff mirrored the rows already for some orientations; bring back the stored pixels.
            switch tiff.orientationAppliedByDecoder {
            case .upMirrored: gdImageFlipHorizontal(pointer)
            case .down: gdImageFlipBoth(pointer)
            case .downMirrored: gdImageFlipVertical(pointer)
            default: break
            }
        }
        if (width, height) != (info.pixelWidth, info.pixelHeight) {
            throw .decodeFailed(info.format, detail: "the picture is \(width)×\(height), its header says \(info.pixelWidth)×\(info.pixelHeight)")
        }
    }
}

// MARK: - Orientation and scaling

extension Image {
    /// The image turned so that it shows upright, given the orientation of its stored pixels.
    /// Every turn is exact (pixels are moved, not interpolated).
    public consuming func oriented(_ orientation: Orientation) throws(ImagingError) -> Image {
        switch orientation {
        case .up: return self
        case .upMirrored:
            gdImageFlipHorizontal(pointer)
            return self
        case .down:
            gdImageFlipBoth(pointer)
            return self
        case .downMirrored:
            gdImageFlipVertical(pointer)
            return self
        case .leftMirrored, .right, .rightMirrored, .left:
            // Displayed row y is a stored column, read top-down or bottom-up.
            let w = width
            let h = height
            var turned = try Image(width: h, height: w, zeroed: false)  // every pixel moved
            turned.knownOpaque = knownOpaque
            let source = rows
            let column: (Int) -> Int = orientation == .leftMirrored || orientation == .right ? { $0 } : { w - 1 - $0 }
            let bottomUp = orientation == .right || orientation == .rightMirrored
            for (y, target) in turned.rows.enumerated() {
                let sx = column(y)
                if bottomUp {
                    for x in 0..<h { target[x] = source[h - 1 - x][sx] }
                } else {
                    for x in 0..<h { target[x] = source[x][sx] }
                }
            }
            return turned
        }
    }

    /// A copy scaled to `toWidth` pixels wide, the height keeping the aspect ratio (at least 1);
    /// never enlarged: a width at or above the image's own gives a copy at the same size.
    public func resized(toWidth target: Int) throws(ImagingError) -> Image {
        let newWidth = max(1, min(target, width))
        let newHeight = max(1, Int((Double(height) * Double(newWidth) / Double(width)).rounded()))
        return try resized(width: newWidth, height: min(newHeight, height))
    }

    /// A copy of the picture shown through `orientation` (the orientation of its stored
    /// pixels), scaled to exactly `width` × `height` upright (each at most the upright picture's
    /// own), by area averaging (see ``AreaResampler``): nothing aliases at any reduction, and it
    /// is fast. The turn happens while scaling, in the same pass: the same pixels as
    /// ``oriented(_:)`` followed by scaling, within rounding.
    func resized(width newWidth: Int, height newHeight: Int, from orientation: Orientation = .up) throws(ImagingError) -> Image {
        let uprightWidth = orientation.swapsDimensions ? height : width
        let uprightHeight = orientation.swapsDimensions ? width : height
        precondition(newWidth <= uprightWidth && newHeight <= uprightHeight, "resizing never enlarges")
        if newWidth == uprightWidth && newHeight == uprightHeight { return try copy().oriented(orientation) }
        var result = try Image(width: newWidth, height: newHeight, zeroed: false)  // the resampler writes every pixel
        let opaque = isOpaque
        AreaResampler.resample(
            source: rows, sourceWidth: width, target: result.rows, targetWidth: newWidth,
            orientation: orientation, opaque: opaque)
        result.knownOpaque = opaque  // the opaque path writes opaque pixels only
        return result
    }


    /// The average colour, as the picture looks laid over white (for the placeholder shown while
    /// it loads).
    public func averageColor() -> RGBColor {
        let gray = RGBColor(red: 128, green: 128, blue: 128)
        guard let dot = gdImageCreateTrueColor(1, 1) else { return gray }
        defer { gdImageDestroy(dot) }
        gdImageAlphaBlending(dot, 0)
        gdImageSaveAlpha(dot, 1)
        gdImageCopyResampled(dot, pointer, 0, 0, 0, 0, 1, 1, Int32(width), Int32(height))
        let value = dot.pointee.tpixels[0]![0]
        let opacity = Double(127 - Int((value >> 24) & 0x7F)) / 127
        func channel(_ shift: Int32) -> UInt8 {
            let color = Double((value >> shift) & 0xFF)
            return UInt8((color * opacity + 255 * (1 - opacity)).rounded())
        }
        return RGBColor(red: channel(16), green: channel(8), blue: channel(0))
    }
}

// MARK: - Encoding

extension Image {
    /// Encodes the image. Nothing of the source file's metadata is written (neither libgd nor TurboJPEG, which encodes the JPEGs of pictures held in one block, writes any),
    /// so GPS positions never reach the output. JPEG has no transparency: transparent pixels are
    /// laid over white first. `progressive` applies to JPEG only.
    public func encoded(as format: EncodeFormat, progressive: Bool = false) throws(ImagingError) -> [UInt8] {
        switch format {
        case .jpeg(let quality):
            let quality = Int32(min(max(quality, 1), 100))
            if !isOpaque {
                let flat = try flattened()
                if let pixels = flat.contiguousPixels {
                    return try JPEGEncoder.encode(pixels, width: width, height: height, quality: quality, progressive: progressive)
                }
                return try flat.encode("JPEG") { image, size in
                    gdImageInterlace(image, progressive ? 1 : 0)
                    return gdImageJpegPtr(image, &size, quality)
                }
            }
            if let pixels = contiguousPixels {  // TurboJPEG reads the block as it is: no copy into RGB rows
                return try JPEGEncoder.encode(pixels, width: width, height: height, quality: quality, progressive: progressive)
            }
            return try encode("JPEG") { image, size in
                gdImageInterlace(image, progressive ? 1 : 0)
                defer { gdImageInterlace(image, 0) }
                return gdImageJpegPtr(image, &size, quality)
            }
        case .webp(let quality):
            let quality = Int32(min(max(quality, 0), 100))
            return try encode("WebP") { image, size in gdImageWebpPtrEx(image, &size, quality) }
        case .avif(let quality):
            let quality = Int32(min(max(quality, 0), 100))
            return try encode("AVIF") { image, size in gdImageAvifPtrEx(image, &size, quality, 6) }
        case .png:
            let alpha: Int32 = isOpaque ? 0 : 1  // RGB when opaque: smaller files
            return try encode("PNG") { image, size in
                gdImageSaveAlpha(image, alpha)
                defer { gdImageSaveAlpha(image, 1) }
                return gdImagePngPtr(image, &size)
            }
        }
    }

    /// Encodes in any format libgd writes, including those Cascade does not publish (GIF, BMP,
    /// TIFF, AVIF, HEIF): for tests and tools.
    public func encoded(asFormat format: ImageFormat, quality: Int = 90) throws(ImagingError) -> [UInt8] {
        let quality = Int32(min(max(quality, 1), 100))
        switch format {
        case .jpeg: return try encoded(as: .jpeg(quality: Int(quality)))
        case .png: return try encoded(as: .png)
        case .webp: return try encoded(as: .webp(quality: Int(quality)))
        case .gif: return try encode("GIF") { image, size in gdImageGifPtr(image, &size) }
        case .bmp: return try encode("BMP") { image, size in gdImageBmpPtr(image, &size, 0) }
        case .tiff: return try encode("TIFF") { image, size in gdImageTiffPtr(image, &size) }
        case .avif: return try encode("AVIF") { image, size in gdImageAvifPtrEx(image, &size, quality, 10) }
        case .heif:
            return try encode("HEIF") { image, size in
                gdImageHeifPtrEx(image, &size, quality, GD_HEIF_CODEC_HEVC, GD_HEIF_CHROMA_444)
            }
        }
    }

    /// Runs a `*Ptr` encoder and takes its buffer, released with `gdFree`.
    private func encode(
        _ name: String, _ encoder: (gdImagePtr, inout Int32) -> UnsafeMutableRawPointer?
    ) throws(ImagingError) -> [UInt8] {
        var size: Int32 = 0
        let (data, messages) = GDDiagnostics.capture { encoder(pointer, &size) }
        guard let data else {
            let detail = messages.first { !$0.isNotice }?.text ?? "libgd returned nothing"
            throw .encodeFailed("\(name): \(detail)")
        }
        defer { gdFree(data) }
        guard size > 0 else { throw .encodeFailed("\(name): libgd returned no bytes") }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// The image laid over opaque white.
    private func flattened() throws(ImagingError) -> Image {
        let flat = try Image(width: width, height: height)
        gdImageAlphaBlending(flat.pointer, 0)
        gdImageFilledRectangle(flat.pointer, 0, 0, Int32(width - 1), Int32(height - 1), 0xFF_FFFF)
        gdImageAlphaBlending(flat.pointer, 1)
        gdImageCopy(flat.pointer, pointer, 0, 0, 0, 0, Int32(width), Int32(height))
        gdImageAlphaBlending(flat.pointer, 0)
        return flat
    }
}
