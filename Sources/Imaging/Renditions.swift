/// One generated image, encoded in one or more formats.
public struct Rendition: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The encoded files, one per requested format, in the order the formats were requested.
    public var encodings: [[UInt8]]

    /// The file in the first requested format.
    public var bytes: [UInt8] { encodings[0] }

    /// Creates a rendition.
    public init(width: Int, height: Int, encodings: [[UInt8]]) {
        self.width = width
        self.height = height
        self.encodings = encodings
    }
}

/// Every generated image of one photo.
public struct RenditionSet: Sendable {
    /// What the header said, with the display size of the upright picture.
    public var info: ImageInfo
    /// The images, by ascending width.
    public var renditions: [Rendition]
    /// The upright picture's average colour (over white).
    public var averageColor: RGBColor
    /// What the user should know about the images, which were made nonetheless (a colour
    /// profile that cannot be read, say): sentences about the photo, without its name.
    public var warnings: [String]
    /// The colour space the images are in (Display P3 only for a wide-gamut photo with
    /// `colour: .wide`; those images embed its profile).
    public var colourSpace: ImageColourSpace = .sRGB
    /// Whether the photo's colours reach beyond sRGB (its images then depend on the
    /// `colour` setting, whichever it is).
    public var wideGamut = false

    /// Creates a rendition set.
    public init(info: ImageInfo, renditions: [Rendition], averageColor: RGBColor, warnings: [String] = []) {
        self.info = info
        self.renditions = renditions
        self.averageColor = averageColor
        self.warnings = warnings
    }
}

/// Turns one photo into images of several widths.
public enum Renditions {
    /// The widths ``make(from:widths:format:limits:)`` makes for a picture `fullWidth` wide
    /// (upright): each requested width below it, and the picture's own width if any requested
    /// width reaches it (or none is left). Ascending.
    public static func targetWidths(requested widths: [Int], fullWidth: Int) -> [Int] {
        // Asked for every photo several times a build: one small array, no set.
        var targets: [Int] = []
        targets.reserveCapacity(widths.count + 1)
        var reachesFull = false
        for width in widths where width > 0 {
            if width >= fullWidth {
                reachesFull = true
            } else if !targets.contains(width) {
                targets.append(width)
            }
        }
        targets.sort()
        if reachesFull || targets.isEmpty { targets.append(fullWidth) }  // larger than every other
        return targets
    }

    /// Decodes `bytes` once (pixel limit checked from the header first), applies the orientation,
    /// and encodes one image per requested width smaller than the upright picture, plus one at the
    /// picture's own width if any requested width is at least as large: never enlarged, never the
    /// original bytes (re-encoding also drops all metadata, GPS included). Widths are those of
    /// the upright picture; widths of zero or less are ignored, and with none left the picture's
    /// own width is made. Each image is scaled from the next larger one, heights from the upright
    /// picture's aspect ratio.
    ///
    /// The pixels are converted to sRGB through the photo's embedded colour profile (ICC in
    /// JPEG, PNG, WebP, TIFF, HEIF and AVIF, or a HEIF/AVIF `nclx` description; RGB, greyscale,
    /// or CMYK; a CMYK JPEG, and an RGB one decoded at reduced size, are converted while decoded,
    /// in the same pass over the pixels) right after decoding, before anything is
    /// resized or averaged; a profile that cannot be read leaves the pixels as they are, with a
    /// warning in the set. With `colour: .wide`, a photo whose profile reaches beyond sRGB is
    /// converted to Display P3 instead, and its images carry a Display P3 profile (see
    /// ``ProfileEmbedding``); the placeholder colour is sRGB all the same (it is CSS).
    ///
    /// A JPEG is decoded at the smallest size its codec can scale to while decoding that is still
    /// at least as large as the largest image made (see ``JPEGDecoder``), so a 24-megapixel
    /// photo whose largest image is 2400 px wide is never decoded at full size.
    public static func make(
        from bytes: [UInt8], widths: [Int], format: EncodeFormat, limits: DecodeLimits = .default, colour: OutputColour = .sRGB
    ) throws(ImagingError) -> RenditionSet {
        try make(from: bytes, widths: widths, formats: [format], limits: limits, colour: colour)
    }

    /// Like ``make(from:widths:format:limits:)``, with each image encoded in every one of
    /// `formats` (at least one) from the same pixels: still one decode per photo.
    public static func make(
        from bytes: [UInt8], widths: [Int], formats: [EncodeFormat], limits: DecodeLimits = .default,
        colour: OutputColour = .sRGB
    ) throws(ImagingError) -> RenditionSet {
        guard !formats.isEmpty else { throw .processingFailed("no image format was requested") }
        let info = try ImageProbe.probe(bytes)
        let swapsAxes = info.orientation.swapsDimensions
        let fullWidth = info.displayWidth
        let fullHeight = info.displayHeight
        let targets = targetWidths(requested: widths, fullWidth: fullWidth)
        let largest = targets.max()!
        var warnings: [String] = []
        let profile: ColourProfile?
        do throws(ColourProfileError) {
            profile = try ColourProfileReader.read(bytes, format: info.format)
        } catch {
            profile = nil
            warnings.append("\(error); its colours are published as they are, read as sRGB")
        }
        let colourDecision = profile.map { ColourConversion.decision(for: $0, colour: colour) }
        let colourPlan = colourDecision?.plan
        let space = colourDecision?.space ?? .sRGB
        // A JPEG is decoded at a reduced scale where that is enough: the upright picture must be
        // at least `largest` wide (and as tall as that needs), in stored pixels.
        let neededWidth = largest
        let neededHeight = (fullHeight * largest + fullWidth - 1) / fullWidth
        let minimumWidth = swapsAxes ? neededHeight : neededWidth
        let minimumHeight = swapsAxes ? neededWidth : neededHeight
        let decoded: Image
        var convertedWhileDecoded = false
        if info.format == .jpeg, case .cmyk(let transform)? = colourPlan,
            let cmyk = try CMYKDecoder.decode(
                bytes, info: info, limits: limits, transform: transform, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        {
            decoded = cmyk
            convertedWhileDecoded = true
        } else if info.format == .jpeg, largest < fullWidth {
            let transform: ColourTransform? = if case .transform(let transform)? = colourPlan { transform } else { nil }
            let scaled = try JPEGDecoder.decode(
                bytes, info: info, limits: limits, minimumWidth: minimumWidth, minimumHeight: minimumHeight, converting: transform)
            if let scaled {
                decoded = scaled
                convertedWhileDecoded = transform != nil
            } else {
                decoded = try Image.decode(bytes, info: info, limits: limits)
            }
        } else {
            decoded = try Image.decode(bytes, info: info, limits: limits)
        }
        if let colourPlan, !convertedWhileDecoded, let problem = ColourConversion.apply(colourPlan, to: decoded) {
            warnings.append("\(problem); its colours are published as they are, read as sRGB")
        }
        // The first image made from the decoded picture turns it upright while scaling it (one
        // pass, no turned copy of the whole picture); the others are scaled from upright images.
        var renditions: [Rendition] = []
        var current = decoded
        var orientation = info.orientation
        for width in targets.sorted(by: >) {
            let currentWidth = orientation.swapsDimensions ? current.height : current.width
            if width == currentWidth {  // the picture itself, upright: no scaled copy needed
                current = try current.oriented(orientation)
                orientation = .up
                renditions.append(Rendition(width: current.width, height: current.height, encodings: try current.encoded(as: formats, space: space)))
                continue
            }
            let currentHeight = orientation.swapsDimensions ? current.width : current.height
            let height = max(1, min(currentHeight, Int((Double(fullHeight) * Double(width) / Double(fullWidth)).rounded())))
            // The larger picture is let go of before the scaled one is encoded: a photo's worker
            // never holds the decoded picture, its largest image and the encoder's buffers at once.
            current = try current.resized(width: width, height: height, from: orientation)
            orientation = .up
            renditions.append(Rendition(width: current.width, height: current.height, encodings: try current.encoded(as: formats, space: space)))
        }
        var color = current.averageColor()  // of the smallest image: the cheapest, and the same
        if space == .displayP3 { color = ColourConversion.sRGB(fromDisplayP3: color) }  // CSS: sRGB
        var uprightInfo = info
        uprightInfo.displayWidth = fullWidth
        uprightInfo.displayHeight = fullHeight
        var set = RenditionSet(info: uprightInfo, renditions: renditions.reversed(), averageColor: color, warnings: warnings)
        set.colourSpace = space
        set.wideGamut = colourDecision?.wideGamut ?? false
        return set
    }
}

extension Image {
    /// The picture encoded in each of `formats`, in order; pixels in Display P3 are marked so.
    fileprivate func encoded(as formats: [EncodeFormat], space: ImageColourSpace) throws(ImagingError) -> [[UInt8]] {
        var files: [[UInt8]] = []
        for format in formats {
            let file = try encoded(as: format)
            files.append(space == .displayP3 ? try ProfileEmbedding.displayP3(file, format: format, width: width, height: height) : file)
        }
        return files
    }
}
