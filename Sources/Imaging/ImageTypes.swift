/// The image formats Cascade reads, recognised by their content (never by the file name).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, heif, avif, tiff, bmp

    /// The format of `bytes`, from their magic numbers; nil when it is none of the known ones.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        if starts(Array("ftyp".utf8), at: 4), let brands = BoxReader.brands(bytes) {
            if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
            let heif: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "heif"]
            if brands.contains(where: heif.contains) { return .heif }
        }
        return nil
    }

    /// A short name for messages.
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        }
    }
}

/// The EXIF orientation: how the stored pixels must be turned to show the picture upright.
public enum Orientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Whether showing the picture upright swaps its width and height (orientations 5 to 8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}

/// Metadata of a photo that a gallery shows or protects.
public struct PhotoMetadata: Sendable, Hashable {
    /// Capture date in EXIF form, `YYYY:MM:DD HH:MM:SS` (DateTimeOriginal, else DateTime).
    public var dateTaken: String?
    /// The EXIF ImageDescription.
    public var description: String?
    /// The EXIF Artist.
    public var artist: String?
    /// Whether the file carries a GPS position.
    public var hasGPS: Bool

    /// Creates metadata.
    public init(dateTaken: String? = nil, description: String? = nil, artist: String? = nil, hasGPS: Bool = false) {
        self.dateTaken = dateTaken
        self.description = description
        self.artist = artist
        self.hasGPS = hasGPS
    }
}

/// What a file's header says about the image, read without decoding it.
public struct ImageInfo: Sendable, Hashable {
    /// The format, from the content.
    public var format: ImageFormat
    /// Width of the stored pixels.
    public var pixelWidth: Int
    /// Height of the stored pixels.
    public var pixelHeight: Int
    /// The turn still to apply after decoding (HEIF rotations are applied by the decoder, so
    /// HEIF reports `.up` with its display size already turned).
    public var orientation: Orientation
    /// Width of the picture as shown.
    public var displayWidth: Int
    /// Height of the picture as shown.
    public var displayHeight: Int
    /// EXIF metadata, where the format has it.
    public var metadata: PhotoMetadata

    /// Creates image information.
    public init(
        format: ImageFormat, pixelWidth: Int, pixelHeight: Int, orientation: Orientation,
        displayWidth: Int, displayHeight: Int, metadata: PhotoMetadata
    ) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.metadata = metadata
    }

    /// Information whose display size follows from the orientation.
    init(format: ImageFormat, width: Int, height: Int, orientation: Orientation, metadata: PhotoMetadata) {
        self.init(
            format: format, pixelWidth: width, pixelHeight: height, orientation: orientation,
            displayWidth: orientation.swapsDimensions ? height : width,
            displayHeight: orientation.swapsDimensions ? width : height, metadata: metadata)
    }
}

/// Limits that protect the build from hostile files.
public struct DecodeLimits: Sendable, Hashable {
    /// The largest number of pixels (width × height) an image may claim; larger ones are
    /// refused from their header, before anything is decoded.
    public var maxPixels: Int

    /// Creates limits.
    public init(maxPixels: Int = 200_000_000) {
        self.maxPixels = maxPixels
    }

    /// 200 megapixels: every camera and phone photo, at most about 800 MB while decoding.
    public static let `default` = DecodeLimits()
}

/// An opaque colour.
public struct RGBColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`.
    public var hex: String {
        "#" + [red, green, blue].map { value in
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}

/// The formats Cascade writes.
public enum EncodeFormat: Sendable, Hashable {
    case jpeg(quality: Int)
    case webp(quality: Int)
    case png

    /// The file extension, without a dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        case .png: "png"
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .png: "image/png"
        }
    }
}

/// Why an image cannot be used. The description is a short reason a user understands.
public enum ImagingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file has no bytes.
    case empty
    /// The content is no image format Cascade knows.
    case unrecognizedFormat
    /// The format is known, but this build cannot decode it.
    case unsupported(ImageFormat)
    /// The header's dimensions cannot be read.
    case headerUnreadable(ImageFormat)
    /// The data ends before the image does.
    case truncated(ImageFormat)
    /// The header claims more pixels than allowed.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The decoder failed.
    case decodeFailed(ImageFormat, detail: String)
    /// The encoder failed.
    case encodeFailed(String)
    /// The file cannot be read.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .empty: "the file is empty"
        case .unrecognizedFormat: "not an image (unrecognised content)"
        case .unsupported(let format): "\(format.displayName) images cannot be decoded by this build"
        case .headerUnreadable(let format): "the \(format.displayName) header is damaged (no readable size)"
        case .truncated(let format): "the \(format.displayName) data is truncated"
        case .tooManyPixels(let width, let height, let limit):
            "image is \(width)×\(height) pixels, above the limit of \(Self.megapixels(limit)) megapixels"
        case .decodeFailed(let format, let detail):
            detail.isEmpty ? "the \(format.displayName) data cannot be decoded" : "the \(format.displayName) data cannot be decoded: \(detail)"
        case .encodeFailed(let detail): "the image cannot be encoded: \(detail)"
        case .io(let path, let reason): "cannot read \(path): \(reason)"
        }
    }

    private static func megapixels(_ pixels: Int) -> String {
        pixels % 1_000_000 == 0 ? String(pixels / 1_000_000) : String(Double(pixels) / 1_000_000)
    }
}
