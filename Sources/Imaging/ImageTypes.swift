import Support

/// The image formats Cascade reads, recognised by their content (never by the file name).
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, gif, webp, heif, avif, tiff, bmp

    /// The format of data that starts with `bytes` (the first 64 bytes are enough for every
    /// format but HEIF and AVIF files with very long brand lists), from the magic numbers;
    /// nil when it is none of the known formats.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + prefix.count else { return false }
            return prefix.indices.allSatisfy { bytes[offset + $0] == prefix[$0] }
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && bytes.count >= 18 {
            // "BM" alone is too weak: also require a known DIB header size.
            let headerSize = UInt32(bytes[14]) | UInt32(bytes[15]) << 8 | UInt32(bytes[16]) << 16 | UInt32(bytes[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) { return .bmp }
        }
        if starts(Array("ftyp".utf8), at: 4) { return isoFormat(brands: fileTypeBrands(bytes)) }
        return nil
    }

    /// HEIF or AVIF from the `ftyp` brands (major brand first).
    static func isoFormat(brands: [String]) -> ImageFormat? {
        let avif: Set = ["avif", "avis"]
        let heic: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
        let heifGeneric: Set = ["mif1", "msf1", "mif2", "heif"]
        guard let major = brands.first else { return nil }
        if avif.contains(major) { return .avif }
        if heic.contains(major) { return .heif }
        let compatible = brands.dropFirst()
        if compatible.contains(where: avif.contains) { return .avif }
        if compatible.contains(where: heic.contains) { return .heif }
        if heifGeneric.contains(major) || compatible.contains(where: heifGeneric.contains) { return .heif }
        return nil
    }

    /// The major and compatible brands of a leading `ftyp` box, as far as `bytes` reach.
    static func fileTypeBrands(_ bytes: [UInt8]) -> [String] {
        guard bytes.count >= 12 else { return [] }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(max(size, 12), bytes.count)
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var position = 16  // after the minor version
        while position + 4 <= end {
            brands.append(String(decoding: bytes[position..<(position + 4)], as: UTF8.self))
            position += 4
        }
        return brands
    }

    /// The name shown in messages.
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
public enum Orientation: Int, Sendable, CaseIterable, Codable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Whether showing the picture upright swaps its width and height (orientations 5 to 8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// Where the displayed pixel (x, y) comes from in a stored image of `width` × `height`.
    func storedPoint(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }

    /// The orientation that first applies `self`, then `next` to the result.
    func followed(by next: Orientation) -> Orientation {
        // The eight orientations form a group; find the composite by where it sends a
        // 3 × 2 grid of distinct labels (a non-square grid tells every element apart).
        let width = 3
        let height = 2
        func apply(_ orientation: Orientation, to grid: [[Int]]) -> [[Int]] {
            let w = grid[0].count
            let h = grid.count
            let outW = orientation.swapsDimensions ? h : w
            let outH = orientation.swapsDimensions ? w : h
            return (0..<outH).map { y in
                (0..<outW).map { x in
                    let source = orientation.storedPoint(x: x, y: y, width: w, height: h)
                    return grid[source.y][source.x]
                }
            }
        }
        let grid = (0..<height).map { y in (0..<width).map { x in y * width + x } }
        let target = apply(next, to: apply(self, to: grid))
        return Orientation.allCases.first { apply($0, to: grid) == target } ?? .up
    }

    /// The orientation that undoes this one.
    var inverse: Orientation {
        Orientation.allCases.first { followed(by: $0) == .up } ?? .up
    }

    /// An `irot` rotation (anticlockwise quarter turns) as an orientation.
    static func rotation(anticlockwiseQuarterTurns turns: Int) -> Orientation {
        [.up, .left, .down, .right][((turns % 4) + 4) % 4]
    }

    /// An `imir` mirroring: axis 0 exchanges top and bottom, axis 1 left and right.
    static func mirror(axis: Int) -> Orientation {
        axis == 0 ? .downMirrored : .upMirrored
    }
}

/// Metadata of a photo that a gallery shows or protects, read from the file itself: its
/// embedded XMP packet first, then EXIF, then IPTC, field by field.
public struct PhotoMetadata: Sendable, Hashable, Codable {
    /// Whether any part of the place is written.
    public var hasPlace: Bool {
        sublocation != nil || city != nil || state != nil || country != nil
    }

    /// Capture date: the XMP `photoshop:DateCreated` or `exif:DateTimeOriginal` (ISO 8601),
    /// else the EXIF DateTimeOriginal, else DateTime (`YYYY:MM:DD HH:MM:SS`, followed by its
    /// OffsetTimeOriginal or OffsetTime when the file has one: `…20:30:00-04:00`); the first
    /// of them that is a date (``CaptureDateText``).
    public var dateTaken: String?
    /// The XMP `dc:description`, else the EXIF ImageDescription, else (in a JPEG) the IPTC
    /// caption (Caption-Abstract).
    public var description: String?
    /// The XMP `dc:creator`, else the EXIF Artist, else (in a JPEG) the IPTC By-line (2:80).
    public var artist: String?
    /// Whether the file carries GPS information.
    public var hasGPS: Bool
    /// The XMP `dc:title`, else the IPTC Object Name (2:05).
    public var title: String?
    /// The XMP keywords (see ``XMPMetadata/keywords``), else the IPTC Keywords (2:25).
    public var keywords: [String]?
    /// The XMP `xmp:Rating`, else the EXIF Rating (tag 0x4746): -1 (rejected) to 5.
    public var rating: Int?
    /// The camera's settings from EXIF, when it has any.
    public var camera: CameraSettings?
    /// Why the embedded XMP packet was not read, when it could not be (the rest still is).
    public var xmpProblem: String?
    /// The fields (of the embedded XMP, EXIF, IPTC) whose values were out of range and left
    /// out, each as a user reads it ("its EXIF Rating (65535) is not a number in -1…5"); nil when none.
    public var fieldProblems: [String]?
    /// The copyright notice: the XMP `dc:rights`, else the EXIF Copyright, else the IPTC
    /// Copyright Notice (2:116).
    public var copyright: String?
    /// The names of the named face regions of the embedded XMP (see ``XMPMetadata/people``).
    public var people: [String]?
    /// The place the photographer wrote, as one: the XMP `Iptc4xmpCore:Location`,
    /// `photoshop:City`, `State` and `Country` when the packet names any of them, else the IPTC
    /// Sub-location (2:92), City (2:90), Province-State (2:95) and Country (2:101).
    public var sublocation: String?
    public var city: String?
    public var state: String?
    public var country: String?

    /// Creates metadata.
    public init(dateTaken: String? = nil, description: String? = nil, artist: String? = nil, hasGPS: Bool = false) {
        self.dateTaken = dateTaken
        self.description = description
        self.artist = artist
        self.hasGPS = hasGPS
    }

    /// This metadata with each field the XMP packet `xmp` has taken from it instead.
    public func overlaid(with xmp: XMPMetadata) -> PhotoMetadata {
        var result = self
        result.title = xmp.title ?? title
        result.description = xmp.description ?? description
        result.keywords = xmp.keywords ?? keywords
        result.rating = xmp.rating ?? rating
        result.dateTaken = xmp.dateTaken ?? dateTaken
        result.artist = xmp.creator ?? artist
        if let problems = xmp.fieldProblems { result.fieldProblems = (fieldProblems ?? []) + problems }
        result.copyright = xmp.rights ?? copyright
        result.people = xmp.people ?? people
        if xmp.hasPlace { (result.sublocation, result.city, result.state, result.country) = (xmp.sublocation, xmp.city, xmp.state, xmp.country) }
        return result
    }
}

/// A camera's settings for one photo, as EXIF records them.
public struct CameraSettings: Sendable, Hashable, Codable {
    /// EXIF Make and Model.
    public var make: String?
    public var model: String?
    /// EXIF LensModel (else LensMake).
    public var lens: String?
    /// Focal length in mm.
    public var focalLength: Double?
    /// The 35 mm equivalent focal length in mm (FocalLengthIn35mmFilm).
    public var focalLength35mm: Int?
    /// The aperture's f-number (FNumber).
    public var fNumber: Double?
    /// Exposure time in seconds, as a fraction (ExposureTime).
    public var exposureTime: Fraction?
    /// ISO speed (ISOSpeedRatings / PhotographicSensitivity).
    public var iso: Int?
    /// Exposure compensation in EV (ExposureBiasValue).
    public var exposureBias: Double?

    /// A positive fraction as EXIF stores it.
    public struct Fraction: Sendable, Hashable, Codable {
        public var numerator: Int
        public var denominator: Int
        public init(numerator: Int, denominator: Int) {
            self.numerator = numerator
            self.denominator = denominator
        }
        /// Its value; nil for a zero denominator.
        public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
    }

    /// Creates empty settings.
    public init() {}

    /// Whether no field is set.
    public var isEmpty: Bool { self == CameraSettings() }
}

/// What a file's header says about the image, read without decoding it.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// The format, from the content.
    public var format: ImageFormat
    /// Width of the stored pixels (what the decoder produces).
    public var pixelWidth: Int
    /// Height of the stored pixels.
    public var pixelHeight: Int
    /// The turn still to apply to the decoded pixels to show the picture upright: the EXIF
    /// orientation for JPEG and TIFF, the `irot`/`imir` properties of the primary image for HEIF
    /// and AVIF (libgd applies neither; it asks libheif to ignore them).
    public var orientation: Orientation
    /// Width of the picture as shown.
    public var displayWidth: Int
    /// Height of the picture as shown.
    public var displayHeight: Int
    /// EXIF metadata, where the format has it (JPEG, TIFF, HEIF); read in place, so that a read
    /// of one of its fields does not copy the rest (as a `@Boxed` property's getter did: a scan
    /// and the pages of a large library read a few fields of every photo's).
    public var metadata: PhotoMetadata {
        _read { yield boxedMetadata.wrappedValue }
        set { boxedMetadata = Boxed(wrappedValue: newValue) }
    }
    /// The metadata, out of line (``Boxed``), encoded as the value itself under `metadata`.
    private var boxedMetadata: Boxed<PhotoMetadata>

    private enum CodingKeys: String, CodingKey {
        case format, pixelWidth, pixelHeight, orientation, displayWidth, displayHeight
        case boxedMetadata = "metadata"
    }

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
        boxedMetadata = Boxed(wrappedValue: metadata)
    }

    /// Information whose display size follows from the orientation.
    init(format: ImageFormat, width: Int, height: Int, orientation: Orientation = .up, metadata: PhotoMetadata = PhotoMetadata()) {
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

    /// 200 megapixels: every camera and phone photo; at most 800 MB of pixels while decoding.
    public static let `default` = DecodeLimits()

    /// Throws `.tooManyPixels` when the header's size is above the limit (or overflows).
    public func check(_ info: ImageInfo) throws(ImagingError) {
        let (pixels, overflow) = info.pixelWidth.multipliedReportingOverflow(by: info.pixelHeight)
        guard !overflow, pixels <= maxPixels else {
            throw .tooManyPixels(width: info.pixelWidth, height: info.pixelHeight, limit: maxPixels)
        }
    }
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

    /// `#rrggbb`, lower case.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for value in [red, green, blue] {
            text.append(digits[Int(value >> 4)])
            text.append(digits[Int(value & 0xF)])
        }
        return text
    }
}

/// The formats Cascade writes.
public enum EncodeFormat: Sendable, Hashable {
    /// JPEG at a quality from 1 to 100 (transparent pixels are laid over white).
    case jpeg(quality: Int)
    /// Lossy WebP at a quality from 0 to 100 (transparency is kept).
    case webp(quality: Int)
    /// Lossless PNG.
    case png
    /// AVIF at a quality from 0 to 100 (transparency is kept; slow to encode).
    case avif(quality: Int)

    /// The file extension, without a dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        case .png: "png"
        case .avif: "avif"
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .png: "image/png"
        case .avif: "image/avif"
        }
    }
}

/// Why an image cannot be used. The description is a short reason a user understands.
public enum ImagingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file has no bytes.
    case empty
    /// The content is no image format Cascade knows.
    case unrecognizedFormat
    /// The format is known, but this build of libgd cannot decode it.
    case unsupported(ImageFormat)
    /// The header is damaged: the image's dimensions cannot be read.
    case headerUnreadable(ImageFormat)
    /// The data ends before the image does.
    case truncated(ImageFormat)
    /// The header claims more pixels than allowed.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The decoder failed.
    case decodeFailed(ImageFormat, detail: String)
    /// An image of this size cannot be made.
    case invalidSize(width: Int, height: Int)
    /// Turning or scaling failed (libgd could not allocate the result).
    case processingFailed(String)
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
            "image is \(width)×\(height) pixels, above the limit of \(Self.pixelCount(limit))"
        case .decodeFailed(let format, let detail):
            detail.isEmpty
                ? "the \(format.displayName) data cannot be decoded"
                : "the \(format.displayName) data cannot be decoded (\(detail))"
        case .invalidSize(let width, let height): "an image of \(width)×\(height) pixels cannot be made"
        case .processingFailed(let detail): "the image cannot be processed (\(detail))"
        case .encodeFailed(let detail): "the image cannot be encoded (\(detail))"
        case .io(let path, let reason): "cannot read \(path): \(reason)"
        }
    }

    /// "200 megapixels", "1.5 megapixels", or "5000 pixels" for small limits.
    private static func pixelCount(_ pixels: Int) -> String {
        if pixels < 100_000 { return "\(pixels) pixels" }
        if pixels % 1_000_000 == 0 { return "\(pixels / 1_000_000) megapixels" }
        let tenths = (pixels + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) megapixels" : "\(tenths / 10).\(tenths % 10) megapixels"
    }
}
