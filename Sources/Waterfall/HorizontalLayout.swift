extension Size {
    /// The size with width and height exchanged.
    public var transposed: Size { Size(width: height, height: width) }
}

extension Rect {
    /// The rectangle mirrored over the diagonal: x and y exchanged, width and height exchanged.
    public var transposed: Rect { Rect(x: y, y: x, width: height, height: width) }
}

extension Insets {
    /// The insets mirrored over the diagonal: top and left exchanged, bottom and right exchanged.
    public var transposed: Insets { Insets(top: left, left: top, bottom: right, right: bottom) }
}

/// A waterfall that scrolls sideways (seed 004's horizontal direction): rows of one height,
/// each item at its own aspect ratio, each placed at the end of the row that is currently the
/// shortest (ties to the topmost). It is the vertical ``WaterfallLayout`` with the roles of x
/// and y exchanged: ``vertical`` is the layout of the transposed items in a container as wide
/// as this one is tall, and every frame here is its frame transposed.
///
/// In the configuration, "columns" are rows, `columnGap` is the gap between rows,
/// `rowGap` the gap between neighbours in a row, the header sits left of the rows and the
/// footer right of them; insets are as given (top is top).
public struct HorizontalWaterfallLayout: Sendable, Equatable {
    /// The vertical layout this one transposes.
    public let vertical: WaterfallLayout

    /// Lays out items of the given sizes in a container `containerHeight` tall.
    ///
    /// - Throws: ``WaterfallError`` as the vertical layout does (its "container width" is this
    ///   container's height).
    public init(itemSizes: [Size], configuration: WaterfallConfiguration, containerHeight: Double) throws(WaterfallError) {
        var transposed = configuration
        transposed.insets = configuration.insets.transposed
        vertical = try WaterfallLayout(
            itemSizes: itemSizes.map(\.transposed), configuration: transposed, containerWidth: containerHeight)
    }

    /// Each item's frame, in item order.
    public var frames: [Rect] { vertical.frames.map(\.transposed) }
    /// The header's frame (left of the rows), nil without a header.
    public var headerFrame: Rect? { vertical.headerFrame?.transposed }
    /// The footer's frame (right of the rows), nil without a footer.
    public var footerFrame: Rect? { vertical.footerFrame?.transposed }
    /// The size of everything: as wide as the longest row reaches, and the container's height.
    public var contentSize: Size { vertical.contentSize.transposed }
    /// Height of every row.
    public var rowHeight: Double { vertical.columnWidth }

    /// The frame of item `index`.
    public func frame(at index: Int) -> Rect { vertical.frames[index].transposed }

    /// The indices, ascending, of the items whose frames intersect `rect`, by a binary search
    /// in each row (see ``WaterfallLayout/indices(intersecting:)``).
    public func indices(intersecting rect: Rect) -> [Int] {
        vertical.indices(intersecting: rect.transposed)
    }
}

/// Sections that scroll sideways: the vertical ``SectionedLayout`` of the transposed items in
/// a container as wide as this one is tall, every frame transposed. Each section's header is a
/// band at its left, its items in rows to the right of it, and the next section starts right
/// of the previous one's longest row.
public struct HorizontalSectionedLayout: Sendable, Equatable {
    /// The vertical layout this one transposes.
    public let vertical: SectionedLayout

    /// Lays out `sections` (their header heights are the headers' widths here) in a container
    /// `containerHeight` tall.
    ///
    /// - Throws: ``WaterfallError`` as the vertical layout does.
    public init(sections: [WaterfallSection], configuration: WaterfallConfiguration, containerHeight: Double) throws(WaterfallError) {
        var transposed = configuration
        transposed.insets = configuration.insets.transposed
        vertical = try SectionedLayout(
            sections: sections.map { WaterfallSection(headerHeight: $0.headerHeight, itemSizes: $0.itemSizes.map(\.transposed)) },
            configuration: transposed, containerWidth: containerHeight)
    }

    /// Each item's frame, flat (section 0's first).
    public var frames: [Rect] { vertical.frames.map(\.transposed) }
    /// Each section's header frame.
    public var headerFrames: [Rect] { vertical.headerFrames.map(\.transposed) }
    /// The size of everything.
    public var contentSize: Size { vertical.contentSize.transposed }

    /// The items and headers intersecting `rect` (see ``SectionedLayout/indices(intersecting:)``).
    public func indices(intersecting rect: Rect) -> (items: [Int], headers: [Int]) {
        vertical.indices(intersecting: rect.transposed)
    }
}

/// Justified columns for a strip that scrolls sideways: the vertical ``JustifiedLayout`` of the
/// transposed items, every frame transposed. Each column holds as many items as fit at about
/// the target width (the configuration's `targetRowHeight`) and is scaled to fill the height
/// exactly; the last column keeps the target width.
public struct HorizontalJustifiedLayout: Sendable, Equatable {
    /// The vertical layout this one transposes.
    public let vertical: JustifiedLayout

    /// Lays out items in a container `containerHeight` tall; the configuration's ratio bounds
    /// apply to height / width here.
    ///
    /// - Throws: ``WaterfallError`` as the vertical layout does.
    public init(itemSizes: [Size], configuration: JustifiedConfiguration, containerHeight: Double) throws(WaterfallError) {
        var transposed = configuration
        transposed.insets = configuration.insets.transposed
        vertical = try JustifiedLayout(itemSizes: itemSizes.map(\.transposed), configuration: transposed, containerWidth: containerHeight)
    }

    /// Each item's frame, in item order.
    public var frames: [Rect] { vertical.frames.map(\.transposed) }
    /// The size of everything.
    public var contentSize: Size { vertical.contentSize.transposed }

    /// The indices, ascending, of the items intersecting `rect` (see
    /// ``JustifiedLayout/indices(intersecting:)``).
    public func indices(intersecting rect: Rect) -> [Int] {
        vertical.indices(intersecting: rect.transposed)
    }
}
