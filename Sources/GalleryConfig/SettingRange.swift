/// The values each numeric setting may take: the one source for the checks of `cascade.yml`,
/// of the command line and of a build's options, and for what `cascade init` and the README say.
public enum SettingRange {
    /// Gap between tiles, CSS px.
    public static let gap = 0...200
    /// Padding around the page content, CSS px.
    public static let pagePadding = 0...400
    /// A width of the generated images, px.
    public static let imageWidth = 16...20_000
    /// Quality of the lossy formats.
    public static let quality = 1...100
    /// The megapixel limit above which photos are refused before decoding.
    public static let maxMegapixels = 1...10_000
    /// Columns of one breakpoint.
    public static let columns = 1...24
    /// The row height of a breakpoint, CSS px (albums laid out in rows).
    public static let rowHeight = 40...2000
    /// A breakpoint's minimum album width, CSS px.
    public static let breakpointMinWidth = 0...100_000
    /// Seconds a photo stays on screen in the lightbox's slideshow.
    public static let slideshowInterval = 1...600
    /// The largest height of a video's web version as shown, px.
    public static let videoMaxHeight = 144...4320
    /// Minutes a video may last to be published.
    public static let videoMaxDuration = 1...1440
    /// The fewest stars a published photo has (`min_rating`).
    public static let minRating = 0...5

    /// `range` as the README and `cascade init` write it: "16 to 20000".
    public static func text(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound) to \(range.upperBound)"
    }
}
