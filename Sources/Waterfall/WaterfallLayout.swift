/// Where an item sits, in the terms a fluid (CSS) layout needs.
///
/// For a column width `w`, the item's top is `columnsTop + aspectRatioSumAbove · w + itemsAbove · rowGap`.
public struct Placement: Sendable, Hashable {
    /// The item's column, 0 for the leftmost.
    public var column: Int
    /// The sum of the aspect ratios (height / width) of the items above it in its column.
    public var aspectRatioSumAbove: Double
    /// How many items are above it in its column.
    public var itemsAbove: Int

    /// Creates a placement.
    public init(column: Int, aspectRatioSumAbove: Double, itemsAbove: Int) {
        self.column = column
        self.aspectRatioSumAbove = aspectRatioSumAbove
        self.itemsAbove = itemsAbove
    }
}

/// A waterfall (masonry) layout: columns of one width, each item at its own aspect ratio,
/// each placed under the column whose bottom is currently the smallest (ties to the leftmost).
///
/// The layout is computed once, in the initializer, and kept: frames are indexed like the
/// items. ``indices(intersecting:)`` answers which items a rectangle shows without scanning
/// every item, by a binary search in each column.
public struct WaterfallLayout: Sendable {
    /// The configuration the layout was computed with.
    public let configuration: WaterfallConfiguration
    /// The container width the layout was computed for.
    public let containerWidth: Double
    /// Number of columns.
    public let columnCount: Int
    /// Width of every column.
    public let columnWidth: Double
    /// The gap between columns actually used (wider than configured with `.minimumWidth`).
    public let columnGap: Double
    /// The insets actually used (wider than configured with a single `.minimumWidth` column).
    public let insets: Insets
    /// Each item's aspect ratio (height / width) after bad sizes became squares (1).
    public let aspectRatios: [Double]
    /// Each item's frame, in item order.
    public let frames: [Rect]
    /// Each item's column and what is above it, in item order.
    public let placements: [Placement]
    /// Each column's bottom: the bottom of its last item, or the columns' top when it is empty.
    public let columnHeights: [Double]
    /// The header's frame, nil without a header.
    public let headerFrame: Rect?
    /// The footer's frame, nil without a footer.
    public let footerFrame: Rect?
    /// The size of everything: the container width and the height down to the bottom inset.
    public let contentSize: Size
    /// The y at which the columns start.
    public let columnsTop: Double
    /// Item indices per column, top to bottom.
    private let columnItems: [[Int]]

    /// Lays out items of the given sizes (any unit: only their ratios count) in a container
    /// of width `containerWidth`.
    ///
    /// A size whose width or height is zero, negative, infinite or NaN is laid out as a square.
    public init(itemSizes: [Size], configuration: WaterfallConfiguration, containerWidth: Double) throws(WaterfallError) {
        try Self.validate(configuration)
        guard containerWidth.isFinite, containerWidth > 0 else { throw .invalidContainerWidth(containerWidth) }
        self.configuration = configuration
        self.containerWidth = containerWidth

        var insets = configuration.insets
        var gap = configuration.columnGap
        let available = containerWidth - insets.left - insets.right
        let count: Int
        let width: Double
        switch configuration.columns {
        case .count(let columns):
            count = columns
            width = (available - Double(columns - 1) * gap) / Double(columns)
            guard width > 0, width.isFinite else { throw .containerTooNarrow(containerWidth: containerWidth, columns: columns) }
        case .minimumWidth(let minimum):
            guard minimum <= available else { throw .containerTooNarrow(containerWidth: containerWidth, columns: 1) }
            count = max(1, Int(((available + gap) / (minimum + gap)).rounded(.down)))
            width = minimum
            let leftover = available - Double(count) * minimum
            if count > 1 {
                gap = leftover / Double(count - 1)
            } else {
                insets.left += leftover / 2
                insets.right += leftover / 2
            }
        }
        columnCount = count
        columnWidth = width
        columnGap = gap
        self.insets = insets

        let header = configuration.headerHeight
        let rowGap = configuration.rowGap
        let top = insets.top + header + (header > 0 ? rowGap : 0)
        columnsTop = top
        headerFrame = header > 0 ? Rect(x: insets.left, y: insets.top, width: available, height: header) : nil

        let ratios = itemSizes.map(Self.aspectRatio)
        var ratioSums = Array(repeating: 0.0, count: count)
        var counts = Array(repeating: 0, count: count)
        var bottoms = Array(repeating: top, count: count)
        var items = Array(repeating: [Int](), count: count)
        var frames: [Rect] = []
        var placements: [Placement] = []
        frames.reserveCapacity(ratios.count)
        placements.reserveCapacity(ratios.count)
        for (index, ratio) in ratios.enumerated() {
            var column = 0
            for candidate in 1..<count where bottoms[candidate] < bottoms[column] {
                column = candidate
            }
            let y = top + ratioSums[column] * width + Double(counts[column]) * rowGap
            let frame = Rect(
                x: insets.left + Double(column) * (width + gap), y: y, width: width, height: ratio * width)
            frames.append(frame)
            placements.append(Placement(column: column, aspectRatioSumAbove: ratioSums[column], itemsAbove: counts[column]))
            ratioSums[column] += ratio
            counts[column] += 1
            bottoms[column] = frame.maxY
            items[column].append(index)
        }
        aspectRatios = ratios
        self.frames = frames
        self.placements = placements
        columnHeights = bottoms
        columnItems = items

        let tallest = ratios.isEmpty ? insets.top + header : bottoms.max() ?? top
        var height = tallest
        if configuration.footerHeight > 0 {
            let footerTop = tallest + (ratios.isEmpty && header == 0 ? 0 : rowGap)
            footerFrame = Rect(x: insets.left, y: footerTop, width: available, height: configuration.footerHeight)
            height = footerTop + configuration.footerHeight
        } else {
            footerFrame = nil
        }
        contentSize = Size(width: containerWidth, height: height + insets.bottom)
    }

    /// Lays the same items out once per breakpoint; each breakpoint's column count replaces
    /// the configuration's, and its reference width is the container width. Sorted by `minWidth`.
    public static func layouts(
        itemSizes: [Size], breakpoints: [Breakpoint], configuration: WaterfallConfiguration
    ) throws(WaterfallError) -> [BreakpointLayout] {
        guard !breakpoints.isEmpty else { throw .noBreakpoints }
        var seen: Set<Double> = []
        for breakpoint in breakpoints {
            guard breakpoint.minWidth.isFinite, breakpoint.minWidth >= 0 else {
                throw .invalidBreakpointWidth(breakpoint.minWidth)
            }
            guard seen.insert(breakpoint.minWidth).inserted else {
                throw .duplicateBreakpoint(minWidth: breakpoint.minWidth)
            }
        }
        var result: [BreakpointLayout] = []
        for breakpoint in breakpoints.sorted(by: { $0.minWidth < $1.minWidth }) {
            var configuration = configuration
            configuration.columns = .count(breakpoint.columns)
            let layout = try WaterfallLayout(
                itemSizes: itemSizes, configuration: configuration, containerWidth: breakpoint.referenceWidth)
            result.append(BreakpointLayout(breakpoint: breakpoint, layout: layout))
        }
        return result
    }

    /// The indices, ascending, of the items whose frames intersect `rect`.
    ///
    /// Runs in O(columns · log n + k) for k results: each column's items are in increasing
    /// y, so a binary search finds the first one reaching below `rect.minY`.
    public func indices(intersecting rect: Rect) -> [Int] {
        guard rect.width.isFinite, rect.height.isFinite, rect.x.isFinite, rect.y.isFinite else { return [] }
        var result: [Int] = []
        for (column, items) in columnItems.enumerated() where !items.isEmpty {
            let columnX = insets.left + Double(column) * (columnWidth + columnGap)
            guard columnX < rect.maxX, rect.minX < columnX + columnWidth else { continue }
            var low = 0
            var high = items.count
            while low < high {
                let middle = (low + high) / 2
                if frames[items[middle]].maxY > rect.minY { high = middle } else { low = middle + 1 }
            }
            var position = low
            while position < items.count, frames[items[position]].minY < rect.maxY {
                if frames[items[position]].intersects(rect) { result.append(items[position]) }
                position += 1
            }
        }
        result.sort()
        return result
    }

    /// Height over width, or 1 (a square) for a size that is unknown, zero, negative or not finite.
    static func aspectRatio(_ size: Size) -> Double {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else { return 1 }
        let ratio = size.height / size.width
        return ratio.isFinite && ratio > 0 ? ratio : 1
    }

    private static func validate(_ configuration: WaterfallConfiguration) throws(WaterfallError) {
        switch configuration.columns {
        case .count(let count):
            guard count >= 1 else { throw .invalidColumnCount(count) }
        case .minimumWidth(let width):
            guard width.isFinite, width > 0 else { throw .invalidMinimumColumnWidth(width) }
        }
        let spacings: [(String, Double)] = [
            ("top inset", configuration.insets.top), ("left inset", configuration.insets.left),
            ("bottom inset", configuration.insets.bottom), ("right inset", configuration.insets.right),
            ("column gap", configuration.columnGap), ("row gap", configuration.rowGap),
            ("header height", configuration.headerHeight), ("footer height", configuration.footerHeight),
        ]
        for (name, value) in spacings where !(value.isFinite && value >= 0) {
            throw .invalidSpacing(name: name, value: value)
        }
    }
}

/// One breakpoint's layout.
public struct BreakpointLayout: Sendable {
    /// The breakpoint.
    public let breakpoint: Breakpoint
    /// Its layout at the breakpoint's reference width.
    public let layout: WaterfallLayout
}
