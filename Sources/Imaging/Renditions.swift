/// One generated image.
public struct Rendition: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The encoded file.
    public var bytes: [UInt8]
}

/// Every generated image of one photo.
public struct RenditionSet: Sendable {
    /// What the header said.
    public var info: ImageInfo
    /// The images, by ascending width.
    public var renditions: [Rendition]
    /// The upright picture's average colour.
    public var averageColor: RGBColor
}

/// Turns one photo into images of several widths.
public enum Renditions {
    /// Decodes `bytes` once (after checking the header against `limits`), turns the picture
    /// upright, and encodes one image per requested width smaller than the picture, plus one at
    /// the picture's own width when a requested width is larger: never enlarged, never the
    /// original bytes (re-encoding also drops every piece of metadata, GPS included). Widths
    /// are those of the upright picture. Each smaller image is scaled from the next larger one.
    public static func make(
        from bytes: [UInt8], widths: [Int], format: EncodeFormat, limits: DecodeLimits = .default
    ) throws(ImagingError) -> RenditionSet {
        let info = try ImageProbe.probe(bytes)
        let upright = try Image.decode(bytes, info: info, limits: limits).oriented(info.orientation)
        let own = upright.width
        var targets = Set(widths.filter { $0 > 0 && $0 < own })
        if widths.contains(where: { $0 >= own }) || targets.isEmpty { targets.insert(own) }
        let ordered = targets.sorted(by: >)
        var renditions: [Rendition] = []
        var color = RGBColor(red: 128, green: 128, blue: 128)
        let uprightWidth = upright.width
        let uprightHeight = upright.height
        var current = upright
        for width in ordered {
            let image = try current.resized(toWidth: width)
            renditions.append(Rendition(width: image.width, height: image.height, bytes: try image.encoded(as: format)))
            if width == ordered.last {
                color = image.averageColor()
            }
            current = image
        }
        var displayInfo = info
        displayInfo.displayWidth = uprightWidth
        displayInfo.displayHeight = uprightHeight
        return RenditionSet(info: displayInfo, renditions: renditions.reversed(), averageColor: color)
    }
}
