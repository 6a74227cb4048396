/// A waterfall (masonry) layout: columns of one width, each item at its own aspect ratio,
/// each placed under the column whose bottom is currently the smallest (ties go to the
/// leftmost column).
///
/// Everything is computed once, in the initializer, and kept: ``frames`` and ``placements``
/// are indexed like the items. ``indices(intersecting:)`` answers which items a rectangle
/// shows without scanning every item, by a binary search in each column.
///
/// Vertically, from the top: the top inset, the header and a row gap (only with a header),
/// the columns, a row gap and the footer (only with a footer; the gap only when there are
/// items), and the bottom inset.
public struct WaterfallLayout: Sendable, Equatable {
    /// The largest number of columns a layout accepts (for `.count`) or derives (for
    /// `.minimumWidth`).
    public static let maximumColumnCount = 10_000

    /// The configuration the layout was computed with.
    public let configuration: WaterfallConfiguration
    /// The container width the layout was computed for.
    public let containerWidth: Double
    /// Number of columns.
    public let columnCount: Int
    /// Width of every column (and so of every item).
    public let columnWidth: Double
    /// The gap between columns actually used: the configured one, or wider with
    /// `.minimumWidth`, where the leftover width is spread over the gaps.
    public let columnGap: Double
    /// The insets actually used: the configured ones, or with a single `.minimumWidth`
    /// column, wider left and right insets that centre the column.
    public let insets: Insets
    /// Each item's aspect ratio (height / width), in item order; 1 (a square) for a size that
    /// is unknown, zero, negative or not finite.
    public let aspectRatios: [Double]
    /// Each item's frame, in item order.
    public let frames: [Rect]
    /// Each item's column and what is above it there, in item order.
    public let placements: [Placement]
    /// Each column's bottom: the bottom (maxY) of its last item, or ``columnsTop`` when the
    /// column is empty.
    public let columnHeights: [Double]
    /// The header's frame, nil when the header height is 0. It spans the content width
    /// (the container width less the effective left and right insets).
    public let headerFrame: Rect?
    /// The footer's frame, nil when the footer height is 0. It spans the content width.
    public let footerFrame: Rect?
    /// The size of everything: the container width, and the height down to the bottom inset.
    public let contentSize: Size
    /// The y at which every column starts: the top inset, plus the header height and a row
    /// gap when there is a header.
    public let columnsTop: Double
    /// The left edge (x) of each column.
    public let columnMinX: [Double]
    /// Item indices per column, top to bottom (so in ascending index and ascending y).
    private let columnItems: [[Int]]

    /// Lays out items of the given sizes (any unit: only their aspect ratios count) in a
    /// container `containerWidth` wide.
    ///
    /// A size whose width or height is zero, negative, infinite or NaN is laid out as a square.
    ///
    /// - Throws: ``WaterfallError`` when the configuration or the width is invalid, when the
    ///   columns do not fit into the container, or when the layout would not be finite.
    public init(itemSizes: [Size], configuration: WaterfallConfiguration, containerWidth: Double) throws(WaterfallError) {
        try Self.validate(configuration)
        guard containerWidth.isFinite, containerWidth > 0 else { throw .invalidContainerWidth(containerWidth) }
        let geometry = try Self.columnGeometry(configuration: configuration, containerWidth: containerWidth)
        let count = geometry.count
        let width = geometry.width
        let insets = geometry.insets
        self.configuration = configuration
        self.containerWidth = containerWidth
        columnCount = count
        columnWidth = width
        columnGap = geometry.gap
        self.insets = insets

        // Column edges: the formula, nudged right by at most a rounding error where rounding
        // would otherwise let a column overlap its left neighbour (possible with a zero gap).
        var lefts: [Double] = []
        lefts.reserveCapacity(count)
        for column in 0..<count {
            let x = insets.left + Double(column) * (width + geometry.gap)
            lefts.append(column == 0 ? x : max(x, lefts[column - 1] + width))
        }
        columnMinX = lefts

        let header = configuration.headerHeight
        let rowGap = configuration.rowGap
        let contentWidth = containerWidth - insets.left - insets.right
        let top = insets.top + header + (header > 0 ? rowGap : 0)
        columnsTop = top
        headerFrame = header > 0 ? Rect(x: insets.left, y: insets.top, width: contentWidth, height: header) : nil

        let ratios = itemSizes.map { Self.tileAspectRatio(of: $0, in: configuration.tileAspectRatioRange) }
        var ratioSums = Array(repeating: 0.0, count: count)
        var itemCounts = Array(repeating: 0, count: count)
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
            // The fluid-layout identity gives the top; it can only differ from "previous
            // bottom + row gap" by rounding, and the larger of the two keeps frames apart.
            let identity = top + ratioSums[column] * width + Double(itemCounts[column]) * rowGap
            let y = itemCounts[column] == 0 ? identity : max(identity, bottoms[column] + rowGap)
            let frame = Rect(x: lefts[column], y: y, width: width, height: ratio * width)
            frames.append(frame)
            placements.append(
                Placement(column: column, aspectRatioSumAbove: ratioSums[column], itemsAbove: itemCounts[column]))
            ratioSums[column] += ratio
            itemCounts[column] += 1
            bottoms[column] = frame.maxY
            items[column].append(index)
        }
        aspectRatios = ratios
        self.frames = frames
        self.placements = placements
        columnHeights = bottoms
        columnItems = items

        let tallest = bottoms.max() ?? top
        var bottom = tallest
        if configuration.footerHeight > 0 {
            let footer = Rect(
                x: insets.left, y: tallest + (ratios.isEmpty ? 0 : rowGap), width: contentWidth,
                height: configuration.footerHeight)
            footerFrame = footer
            bottom = footer.maxY
        } else {
            footerFrame = nil
        }
        let height = bottom + insets.bottom
        // Every frame ends at or above `bottom`, and sums of non-negative numbers only grow,
        // so a finite height means every frame and placement is finite too.
        guard height.isFinite else { throw .layoutTooLarge }
        contentSize = Size(width: containerWidth, height: height)
    }

    /// Lays the same items out once per breakpoint: each breakpoint's column count replaces
    /// the configuration's column rule, and its reference width is the container width.
    ///
    /// - Returns: One layout per breakpoint, sorted by `minWidth`.
    /// - Throws: ``WaterfallError/noBreakpoints`` for an empty list,
    ///   ``WaterfallError/invalidBreakpointWidth(_:)`` for a negative or non-finite `minWidth`,
    ///   ``WaterfallError/duplicateBreakpoint(minWidth:)`` when two breakpoints start at the
    ///   same width, and any error of ``init(itemSizes:configuration:containerWidth:)``.
    public static func layouts(
        itemSizes: [Size], breakpoints: [Breakpoint], configuration: WaterfallConfiguration
    ) throws(WaterfallError) -> [BreakpointLayout] {
        guard !breakpoints.isEmpty else { throw .noBreakpoints }
        for breakpoint in breakpoints where !(breakpoint.minWidth.isFinite && breakpoint.minWidth >= 0) {
            throw .invalidBreakpointWidth(breakpoint.minWidth)
        }
        let sorted = breakpoints.sorted { $0.minWidth < $1.minWidth }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.minWidth == next.minWidth {
            throw .duplicateBreakpoint(minWidth: next.minWidth)
        }
        var result: [BreakpointLayout] = []
        result.reserveCapacity(sorted.count)
        for breakpoint in sorted {
            var configuration = configuration
            configuration.columns = .count(breakpoint.columns)
            let layout = try WaterfallLayout(
                itemSizes: itemSizes, configuration: configuration, containerWidth: breakpoint.referenceWidth)
            result.append(BreakpointLayout(breakpoint: breakpoint, layout: layout))
        }
        return result
    }

    /// The indices, ascending, of the items whose frames intersect `rect` (in the sense of
    /// ``Rect/intersects(_:)``: frames that only touch `rect` are not included).
    ///
    /// Runs in O(columns · log n + k · log columns) for k results, without scanning every
    /// item: a column's items are in increasing y, so a binary search finds the first one
    /// reaching below `rect.minY`, and the following ones are taken while they start above
    /// `rect.maxY`.
    public func indices(intersecting rect: Rect) -> [Int] {
        Self.columnItems(intersecting: rect, columnItems: columnItems, columnMinX: columnMinX, columnWidth: columnWidth, frames: frames)
    }

    /// The items, ascending, of the columns `columnItems` (each in increasing y, at `columnMinX`
    /// and `columnWidth` wide) whose frames intersect `rect`: a binary search in each column
    /// crossing `rect`, then its items while they start above `rect.maxY`, the runs merged.
    static func columnItems(
        intersecting rect: Rect, columnItems: [[Int]], columnMinX: [Double], columnWidth: Double, frames: [Rect]
    ) -> [Int] {
        var runs: [[Int]] = []
        for (column, items) in columnItems.enumerated() where !items.isEmpty {
            let x = columnMinX[column]
            guard x < rect.maxX, rect.minX < x + columnWidth else { continue }
            var low = partitionPoint(in: items.indices) { frames[items[$0]].maxY > rect.minY }
            var run: [Int] = []
            while low < items.count, frames[items[low]].minY < rect.maxY {
                run.append(items[low])
                low += 1
            }
            if !run.isEmpty { runs.append(run) }
        }
        return mergeAscending(runs)
    }

    /// Height over width, or 1 (a square) for a size that is unknown, zero, negative or not
    /// finite, or whose ratio is not a positive finite number.
    public static func aspectRatio(of size: Size) -> Double {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else { return 1 }
        let ratio = size.height / size.width
        return ratio.isFinite && ratio > 0 ? ratio : 1
    }

    /// An item's tile ratio: its aspect ratio, clamped to `range` when there is one.
    public static func tileAspectRatio(of size: Size, in range: ClosedRange<Double>?) -> Double {
        let ratio = aspectRatio(of: size)
        guard let range else { return ratio }
        return min(range.upperBound, max(range.lowerBound, ratio))
    }

    private static func validate(_ configuration: WaterfallConfiguration) throws(WaterfallError) {
        switch configuration.columns {
        case .count(let count):
            guard count >= 1 else { throw .invalidColumnCount(count) }
            guard count <= maximumColumnCount else { throw .tooManyColumns(limit: maximumColumnCount) }
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

    /// Column count, column width, effective gap and effective insets for a validated
    /// configuration and container width.
    private static func columnGeometry(
        configuration: WaterfallConfiguration, containerWidth: Double
    ) throws(WaterfallError) -> (count: Int, width: Double, gap: Double, insets: Insets) {
        var insets = configuration.insets
        let gap = configuration.columnGap
        let available = containerWidth - insets.left - insets.right
        switch configuration.columns {
        case .count(let count):
            let width = (available - Double(count - 1) * gap) / Double(count)
            guard width > 0, width.isFinite else {
                throw .containerTooNarrow(containerWidth: containerWidth, columns: count)
            }
            return (count, width, gap, insets)
        case .minimumWidth(let minimum):
            guard minimum <= available else { throw .containerTooNarrow(containerWidth: containerWidth, columns: 1) }
            let quotient = (available + gap) / (minimum + gap)
            var count: Int
            if quotient.isNaN {
                count = 1  // both sums overflowed; the loop below settles the count
            } else if quotient >= Double(maximumColumnCount + 1) {
                throw .tooManyColumns(limit: maximumColumnCount)
            } else {
                count = max(1, Int(quotient.rounded(.down)))
            }
            // Guard against the quotient rounding up past a column that does not quite fit.
            while count > 1, Double(count) * minimum + Double(count - 1) * gap > available {
                count -= 1
            }
            let leftover = available - Double(count) * minimum
            if count > 1 {
                return (count, minimum, max(gap, leftover / Double(count - 1)), insets)
            }
            insets.left += leftover / 2
            insets.right += leftover / 2
            return (1, minimum, gap, insets)
        }
    }

    /// The first position in `range` where `holds` is true, for a predicate that is false and
    /// then true along the range (frames ordered by y or x): a binary search.
    static func partitionPoint(in range: Range<Int>, where holds: (Int) -> Bool) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Merges ascending index lists into one ascending list, pairwise (O(k · log runs)).
    static func mergeAscending(_ runs: [[Int]]) -> [Int] {
        var runs = runs
        while runs.count > 1 {
            var merged: [[Int]] = []
            merged.reserveCapacity((runs.count + 1) / 2)
            var index = 0
            while index + 1 < runs.count {
                merged.append(merge(runs[index], runs[index + 1]))
                index += 2
            }
            if index < runs.count { merged.append(runs[index]) }
            runs = merged
        }
        return runs.first ?? []
    }

    private static func merge(_ a: [Int], _ b: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                result.append(a[i])
                i += 1
            } else {
                result.append(b[j])
                j += 1
            }
        }
        result.append(contentsOf: a[i...])
        result.append(contentsOf: b[j...])
        return result
    }
}
