/// The inputs of a ``JustifiedLayout`` other than the items and the container width.
public struct JustifiedConfiguration: Sendable, Hashable {
    /// The height rows are aimed at; each row is scaled from about this height to fill the width.
    public var targetRowHeight: Double
    /// Space kept free around the rows.
    public var insets: Insets
    /// Space between two neighbours in a row.
    public var itemGap: Double
    /// Space between two rows.
    public var rowGap: Double
    /// The smallest aspect ratio (width / height) used for layout: a taller photo is laid out
    /// as if it were this wide, and shown whole inside its tile.
    public var minimumAspectRatio: Double
    /// The largest aspect ratio (width / height) used for layout: a wider panorama is laid out
    /// as if it were this wide, and shown whole inside its tile.
    public var maximumAspectRatio: Double

    /// Creates a configuration; by default rows of about 220, gaps of 8, no insets, and layout
    /// ratios from 1:3 to 4:1.
    public init(
        targetRowHeight: Double = 220, insets: Insets = .zero, itemGap: Double = 8, rowGap: Double = 8,
        minimumAspectRatio: Double = 1.0 / 3.0, maximumAspectRatio: Double = 4
    ) {
        self.targetRowHeight = targetRowHeight
        self.insets = insets
        self.itemGap = itemGap
        self.rowGap = rowGap
        self.minimumAspectRatio = minimumAspectRatio
        self.maximumAspectRatio = maximumAspectRatio
    }
}

/// One row of a ``JustifiedLayout``.
public struct JustifiedRow: Sendable, Hashable {
    /// The items of the row (flat indices).
    public var items: Range<Int>
    /// The sum of the row's layout aspect ratios (width / height).
    public var aspectRatioSum: Double
    /// Whether the row is scaled to fill the width. Only the last row may not be: it keeps the
    /// target height (or less, if even that is too wide), left-aligned.
    public var isJustified: Bool

    /// Creates a row.
    public init(items: Range<Int>, aspectRatioSum: Double, isJustified: Bool) {
        self.items = items
        self.aspectRatioSum = aspectRatioSum
        self.isJustified = isJustified
    }

    /// The row's height in a content width `width` with gap `gap`: the justified height
    /// `(width - (n-1)·gap) / aspectRatioSum`, linear in `width`; for the last row at most
    /// `target`.
    public func height(contentWidth width: Double, itemGap gap: Double, target: Double) -> Double {
        let justified = (width - Double(items.count - 1) * gap) / aspectRatioSum
        return isJustified ? justified : min(target, justified)
    }
}

/// Justified rows (seed 002's flow of items of varying width; what Flickr and Google Photos
/// show): items in order, as many in a row as fit at about the target height, each row
/// scaled so that it fills the content width exactly with fixed gaps; the last row keeps the
/// target height, left-aligned.
///
/// A row is closed at the first item that makes it at least as wide as the content at the
/// target height, with or without that item, whichever height is closer to the target (by
/// ratio). Aspect ratios are clamped to the configuration's range for layout only.
///
/// Once the rows are chosen, every row height, top and left edge is linear in the content
/// width (see ``JustifiedRow/height(contentWidth:itemGap:target:)``), so a page can keep the
/// same rows at any width between breakpoints and place them by CSS alone.
public struct JustifiedLayout: Sendable, Equatable {
    /// The configuration the layout was computed with.
    public let configuration: JustifiedConfiguration
    /// The container width the layout was computed for.
    public let containerWidth: Double
    /// Each item's layout aspect ratio (width / height, clamped), in item order.
    public let aspectRatios: [Double]
    /// The rows, top to bottom.
    public let rows: [JustifiedRow]
    /// Each row's frame (spanning its items), top to bottom.
    public let rowFrames: [Rect]
    /// Each item's frame, in item order.
    public let frames: [Rect]
    /// The size of everything.
    public let contentSize: Size

    /// Lays out items of the given sizes (only their aspect ratios count; a size that is
    /// unknown, zero, negative or not finite is a square) in a container `containerWidth` wide.
    ///
    /// - Throws: ``WaterfallError/invalidSpacing(name:value:)`` for a negative or non-finite
    ///   inset or gap, or a target height or ratio bound that is not positive and finite (or
    ///   bounds in the wrong order); ``WaterfallError/invalidContainerWidth(_:)``;
    ///   ``WaterfallError/containerTooNarrow(containerWidth:columns:)`` when the insets leave
    ///   no room; ``WaterfallError/layoutTooLarge`` when the layout would not be finite.
    public init(itemSizes: [Size], configuration: JustifiedConfiguration, containerWidth: Double) throws(WaterfallError) {
        let c = configuration
        let spacings: [(String, Double)] = [
            ("top inset", c.insets.top), ("left inset", c.insets.left), ("bottom inset", c.insets.bottom),
            ("right inset", c.insets.right), ("item gap", c.itemGap), ("row gap", c.rowGap),
        ]
        for (name, value) in spacings where !(value.isFinite && value >= 0) {
            throw .invalidSpacing(name: name, value: value)
        }
        for (name, value) in [("target row height", c.targetRowHeight), ("minimum aspect ratio", c.minimumAspectRatio),
                              ("maximum aspect ratio", c.maximumAspectRatio)] where !(value.isFinite && value > 0) {
            throw .invalidSpacing(name: name, value: value)
        }
        guard c.minimumAspectRatio <= c.maximumAspectRatio else {
            throw .invalidSpacing(name: "minimum aspect ratio (above the maximum)", value: c.minimumAspectRatio)
        }
        guard containerWidth.isFinite, containerWidth > 0 else { throw .invalidContainerWidth(containerWidth) }
        let width = containerWidth - c.insets.left - c.insets.right
        guard width > 0 else { throw .containerTooNarrow(containerWidth: containerWidth, columns: 1) }
        self.configuration = configuration
        self.containerWidth = containerWidth

        let ratios = itemSizes.map { size in
            min(c.maximumAspectRatio, max(c.minimumAspectRatio, 1 / WaterfallLayout.aspectRatio(of: size)))
        }
        let rows = Self.breakRows(ratios, width: width, target: c.targetRowHeight, gap: c.itemGap)
        var frames: [Rect] = []
        frames.reserveCapacity(ratios.count)
        var rowFrames: [Rect] = []
        rowFrames.reserveCapacity(rows.count)
        var y = c.insets.top
        for (index, row) in rows.enumerated() {
            if index > 0 { y += c.rowGap }
            let height = row.height(contentWidth: width, itemGap: c.itemGap, target: c.targetRowHeight)
            var x = c.insets.left
            var before = 0.0
            for item in row.items {
                // The left edge from the linear formula, kept right of the neighbour against rounding.
                let formula = c.insets.left + before * height + Double(item - row.items.lowerBound) * c.itemGap
                let left = item == row.items.lowerBound ? formula : max(formula, x + c.itemGap)
                let frame = Rect(x: left, y: y, width: ratios[item] * height, height: height)
                frames.append(frame)
                x = frame.maxX
                before += ratios[item]
            }
            rowFrames.append(Rect(x: c.insets.left, y: y, width: x - c.insets.left, height: height))
            y += height
        }
        let height = y + c.insets.bottom
        guard height.isFinite else { throw .layoutTooLarge }
        aspectRatios = ratios
        self.rows = rows
        self.rowFrames = rowFrames
        self.frames = frames
        contentSize = Size(width: containerWidth, height: height)
    }

    /// The rows for layout ratios `ratios` in a content `width` wide.
    static func breakRows(_ ratios: [Double], width: Double, target: Double, gap: Double) -> [JustifiedRow] {
        var rows: [JustifiedRow] = []
        var start = 0
        var sum = 0.0
        var index = 0
        while index < ratios.count {
            let count = index - start + 1
            let with = sum + ratios[index]
            if with * target + Double(count - 1) * gap >= width {
                let heightWith = (width - Double(count - 1) * gap) / with
                let heightWithout = count > 1 ? (width - Double(count - 2) * gap) / sum : .infinity
                // Closer to the target by ratio: heightWith <= target < heightWithout.
                if count == 1 || heightWith > 0 && target / heightWith <= heightWithout / target {
                    rows.append(JustifiedRow(items: start..<(index + 1), aspectRatioSum: with, isJustified: heightWith > 0))
                    start = index + 1
                    sum = 0
                } else {
                    rows.append(JustifiedRow(items: start..<index, aspectRatioSum: sum, isJustified: true))
                    start = index
                    sum = ratios[index]
                }
            } else {
                sum = with
            }
            index += 1
        }
        if start < ratios.count {
            rows.append(JustifiedRow(items: start..<ratios.count, aspectRatioSum: sum, isJustified: false))
        }
        return rows
    }

    /// The indices, ascending, of the items whose frames intersect `rect`: a binary search over
    /// the rows by y, then one over each row's items by x; never a scan of every item.
    public func indices(intersecting rect: Rect) -> [Int] {
        var low = WaterfallLayout.partitionPoint(in: rowFrames.indices) { rowFrames[$0].maxY > rect.minY }
        var result: [Int] = []
        while low < rowFrames.count, rowFrames[low].minY < rect.maxY {
            let items = rows[low].items
            var first = WaterfallLayout.partitionPoint(in: items) { frames[$0].maxX > rect.minX }
            while first < items.upperBound, frames[first].minX < rect.maxX {
                if frames[first].intersects(rect) { result.append(first) }
                first += 1
            }
            low += 1
        }
        return result
    }
}
