/// One generated image.
public struct Rendition: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The encoded file.
    public var bytes: [UInt8]

    /// Creates a rendition.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
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

    /// Creates a rendition set.
    public init(info: ImageInfo, renditions: [Rendition], averageColor: RGBColor) {
        self.info = info
        self.renditions = renditions
        self.averageColor = averageColor
    }
}

/// Turns one photo into images of several widths.
public enum Renditions {
    /// Decodes `bytes` once (pixel limit checked from the header first), applies the orientation,
    /// and encodes one image per requested width smaller than the upright picture, plus one at the
    /// picture's own width if any requested width is at least as large: never enlarged, never the
    /// original bytes (re-encoding also drops all metadata, GPS included). Widths are those of
    /// the upright picture; widths of zero or less are ignored, and with none left the picture's
    /// own width is made. Each image is scaled from the next larger one, heights from the upright
    /// picture's aspect ratio.
    public static func make(
        from bytes: [UInt8], widths: [Int], format: EncodeFormat, limits: DecodeLimits = .default
    ) throws(ImagingError) -> RenditionSet {
        let info = try ImageProbe.probe(bytes)
        let upright = try Image.decode(bytes, info: info, limits: limits).oriented(info.orientation)
        let fullWidth = upright.width
        let fullHeight = upright.height
        let requested = widths.filter { $0 > 0 }
        var targets = Set(requested.filter { $0 < fullWidth })
        if requested.contains(where: { $0 >= fullWidth }) || targets.isEmpty { targets.insert(fullWidth) }

        var renditions: [Rendition] = []
        var current = upright
        for width in targets.sorted(by: >) {
            if width == current.width {  // the upright picture itself: no copy needed
                renditions.append(Rendition(width: current.width, height: current.height, bytes: try current.encoded(as: format)))
                continue
            }
            let height = max(1, min(current.height, Int((Double(fullHeight) * Double(width) / Double(fullWidth)).rounded())))
            let image = try current.resized(width: width, height: height)
            renditions.append(Rendition(width: image.width, height: image.height, bytes: try image.encoded(as: format)))
            current = image
        }
        let color = current.averageColor()  // of the smallest image: the cheapest, and the same
        var uprightInfo = info
        uprightInfo.displayWidth = fullWidth
        uprightInfo.displayHeight = fullHeight
        return RenditionSet(info: uprightInfo, renditions: renditions.reversed(), averageColor: color)
    }
}
