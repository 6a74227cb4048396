/// One section of a ``SectionedLayout``: a header and the items below it.
public struct WaterfallSection: Sendable, Hashable {
    /// The header's height (0 for none).
    public var headerHeight: Double
    /// The items' sizes (any unit: only their aspect ratios count).
    public var itemSizes: [Size]

    /// Creates a section.
    public init(headerHeight: Double, itemSizes: [Size]) {
        self.headerHeight = headerHeight
        self.itemSizes = itemSizes
    }
}

/// Where a section sits, in the terms a fluid (CSS) layout needs. For a column width `w` and a
/// row gap `g`, the section's header starts at
/// `top inset + aspectRatioSumAbove · w + gapsAbove · g + headerHeightAbove`, and the section
/// (its header, a gap, its columns) is `headerHeight + aspectRatioSum · w + gapCount · g` tall;
/// both are linear in `w`, so a page can place sections at any width.
public struct SectionPlacement: Sendable, Hashable {
    /// The sum of the column heights' ratio parts of the sections above (see ``aspectRatioSum``).
    public var aspectRatioSumAbove: Double
    /// How many row gaps are above the section's header.
    public var gapsAbove: Int
    /// The heights of the headers above this section's header, added up.
    public var headerHeightAbove: Double
    /// The largest sum of aspect ratios of one of the section's columns.
    public var aspectRatioSum: Double
    /// The row gaps in the section below its header: the gap under the header (when there is
    /// a header and items) plus the largest item count of a column less one.
    public var gapCount: Int

    /// Creates a section placement.
    public init(aspectRatioSumAbove: Double, gapsAbove: Int, headerHeightAbove: Double, aspectRatioSum: Double, gapCount: Int) {
        self.aspectRatioSumAbove = aspectRatioSumAbove
        self.gapsAbove = gapsAbove
        self.headerHeightAbove = headerHeightAbove
        self.aspectRatioSum = aspectRatioSum
        self.gapCount = gapCount
    }
}

/// Items in sections, one below the other, each section a waterfall of its own under its
/// header (a multi-section data source, seed 004: a phone's photo library by day).
///
/// All sections share the columns (count, width, gap) of the configuration. From the top: the
/// top inset; per section its header, a row gap (only with a header and items), its columns,
/// and a row gap before the next section; the bottom inset.
///
/// A section ends at `aspectRatioSum · w + (largest count − 1) · g` below its columns' top,
/// where `aspectRatioSum` is the largest ratio sum of its columns: the bottom of its tallest
/// column, or a little below when the column with the largest ratio sum holds fewer items
/// than another one. So every position is linear in the column width `w`, which lets CSS and
/// a script place sections exactly at any width without redoing the layout, and the next
/// section never starts above the tallest column of this one at any width.
///
/// Items are indexed flat, section 0's first: ``sectionStarts`` gives each section's first
/// index. ``frames`` and ``placements`` are indexed like that; placements are relative to the
/// section's columns top. The configuration's header and footer heights are not used (each
/// section has its own header).
public struct SectionedLayout: Sendable, Equatable {
    /// The configuration the layout was computed with.
    public let configuration: WaterfallConfiguration
    /// The container width the layout was computed for.
    public let containerWidth: Double
    /// Number of columns.
    public let columnCount: Int
    /// Width of every column.
    public let columnWidth: Double
    /// The left edge (x) of each column.
    public let columnMinX: [Double]
    /// Per section, the flat index of its first item; one more entry at the end, the item count.
    public let sectionStarts: [Int]
    /// Per section, its header's frame (zero height when the section has no header). Headers
    /// span the content width.
    public let headerFrames: [Rect]
    /// Per section, its place as linear terms of the column width.
    public let sectionPlacements: [SectionPlacement]
    /// Per section, the bottom of the section (its header's bottom when it has no items).
    public let sectionBottoms: [Double]
    /// Each item's aspect ratio (height / width), flat.
    public let aspectRatios: [Double]
    /// Each item's frame, flat.
    public let frames: [Rect]
    /// Each item's column and what is above it in that column of its section, flat.
    public let placements: [Placement]
    /// The size of everything.
    public let contentSize: Size
    /// Item indices per column across all sections, top to bottom.
    private let columnItems: [[Int]]

    /// Lays out `sections` in a container `containerWidth` wide.
    ///
    /// - Throws: ``WaterfallError`` as ``WaterfallLayout/init(itemSizes:configuration:containerWidth:)``,
    ///   and ``WaterfallError/invalidSpacing(name:value:)`` for a header height that is negative
    ///   or not finite.
    public init(sections: [WaterfallSection], configuration: WaterfallConfiguration, containerWidth: Double) throws(WaterfallError) {
        for section in sections where !(section.headerHeight.isFinite && section.headerHeight >= 0) {
            throw .invalidSpacing(name: "section header height", value: section.headerHeight)
        }
        // The column geometry (and every check of the configuration) is the plain layout's.
        var plain = configuration
        plain.headerHeight = 0
        plain.footerHeight = 0
        let geometry = try WaterfallLayout(itemSizes: [], configuration: plain, containerWidth: containerWidth)
        self.configuration = configuration
        self.containerWidth = containerWidth
        let count = geometry.columnCount
        let width = geometry.columnWidth
        let lefts = geometry.columnMinX
        let insets = geometry.insets
        let gap = configuration.rowGap
        columnCount = count
        columnWidth = width
        columnMinX = lefts
        let contentWidth = containerWidth - insets.left - insets.right

        var starts: [Int] = [0]
        var headers: [Rect] = []
        var sectionPlacements: [SectionPlacement] = []
        var sectionBottoms: [Double] = []
        var ratios: [Double] = []
        var frames: [Rect] = []
        var placements: [Placement] = []
        let total = sections.reduce(0) { $0 + $1.itemSizes.count }
        ratios.reserveCapacity(total)
        frames.reserveCapacity(total)
        placements.reserveCapacity(total)
        var items = Array(repeating: [Int](), count: count)

        // The running linear terms of the next section's top, and the bottom actually reached
        // (the top is kept at or below it, against rounding).
        var ratioAbove = 0.0
        var gapsAbove = 0
        var headerAbove = 0.0
        var reached = insets.top
        var sums = Array(repeating: 0.0, count: count)
        var counts = Array(repeating: 0, count: count)
        var bottoms = Array(repeating: 0.0, count: count)
        for (sectionIndex, section) in sections.enumerated() {
            if sectionIndex > 0 { gapsAbove += 1 }
            let identityTop = insets.top + ratioAbove * width + Double(gapsAbove) * gap + headerAbove
            let top = sectionIndex == 0 ? identityTop : max(identityTop, reached + gap)
            let header = section.headerHeight
            headers.append(Rect(x: insets.left, y: top, width: contentWidth, height: header))
            let hasItems = !section.itemSizes.isEmpty
            let headerGaps = header > 0 && hasItems ? 1 : 0
            let columnsTop = top + header + Double(headerGaps) * gap
            for column in 0..<count {
                sums[column] = 0
                counts[column] = 0
                bottoms[column] = columnsTop
            }
            for size in section.itemSizes {
                let ratio = WaterfallLayout.tileAspectRatio(of: size, in: configuration.tileAspectRatioRange)
                var column = 0
                for candidate in 1..<count where bottoms[candidate] < bottoms[column] {
                    column = candidate
                }
                let identity = columnsTop + sums[column] * width + Double(counts[column]) * gap
                let y = counts[column] == 0 ? identity : max(identity, bottoms[column] + gap)
                let frame = Rect(x: lefts[column], y: y, width: width, height: ratio * width)
                items[column].append(frames.count)
                frames.append(frame)
                ratios.append(ratio)
                placements.append(Placement(column: column, aspectRatioSumAbove: sums[column], itemsAbove: counts[column]))
                sums[column] += ratio
                counts[column] += 1
                bottoms[column] = frame.maxY
            }
            let largestSum = hasItems ? sums.max()! : 0
            let largestCount = hasItems ? counts.max()! : 1
            let gapCount = headerGaps + largestCount - 1
            sectionPlacements.append(SectionPlacement(
                aspectRatioSumAbove: ratioAbove, gapsAbove: gapsAbove, headerHeightAbove: headerAbove,
                aspectRatioSum: largestSum, gapCount: gapCount))
            let identityBottom = top + header + largestSum * width + Double(gapCount) * gap
            let bottom = max(identityBottom, hasItems ? bottoms.max()! : top + header)
            sectionBottoms.append(bottom)
            reached = bottom
            ratioAbove += largestSum
            gapsAbove += gapCount
            headerAbove += header
            starts.append(frames.count)
        }
        let height = (sections.isEmpty ? insets.top : reached) + insets.bottom
        guard height.isFinite else { throw .layoutTooLarge }
        sectionStarts = starts
        headerFrames = headers
        self.sectionPlacements = sectionPlacements
        self.sectionBottoms = sectionBottoms
        aspectRatios = ratios
        self.frames = frames
        self.placements = placements
        columnItems = items
        contentSize = Size(width: containerWidth, height: height)
    }

    /// Number of sections.
    public var sectionCount: Int { headerFrames.count }

    /// The section of the item at flat index `item`, by binary search.
    public func section(ofItem item: Int) -> Int {
        var low = 0
        var high = sectionCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sectionStarts[middle] <= item { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The items (flat indices, ascending) and the sections whose headers (ascending)
    /// intersect `rect`, in the sense of ``Rect/intersects(_:)``; headers of zero height are
    /// never included.
    ///
    /// Runs in O(columns · log n + log sections + k · log columns) for k results: a binary
    /// search in each column (its items are in increasing y across the sections) and one over
    /// the headers; never a scan of every item.
    public func indices(intersecting rect: Rect) -> (items: [Int], headers: [Int]) {
        let items = WaterfallLayout.columnItems(
            intersecting: rect, columnItems: columnItems, columnMinX: columnMinX, columnWidth: columnWidth, frames: frames)
        var headers: [Int] = []
        var low = WaterfallLayout.partitionPoint(in: headerFrames.indices) { headerFrames[$0].maxY > rect.minY }
        while low < headerFrames.count, headerFrames[low].minY < rect.maxY {
            if headerFrames[low].intersects(rect) { headers.append(low) }
            low += 1
        }
        return (items, headers)
    }
}
