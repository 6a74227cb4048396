/// How the number of columns is chosen.
public enum ColumnRule: Sendable, Hashable {
    /// A fixed number of columns, all of one width: the container width less the insets and
    /// the gaps, divided by the count.
    case count(Int)
    /// As many columns of exactly this width as fit with at least the configured gap between
    /// them; the leftover width is spread evenly over the gaps (with a single column, over the
    /// left and right insets, which centres it).
    case minimumWidth(Double)
}

/// The inputs of a waterfall layout other than the items and the container width: the
/// columns and the six spacings, plus an optional header and footer.
///
/// The defaults are those of CFWaterFlowView (seed 001): three columns and every margin and
/// gap 10, with no header and no footer.
public struct WaterfallConfiguration: Sendable, Hashable {
    /// How many columns.
    public var columns: ColumnRule
    /// Space kept free around everything (header, columns and footer).
    public var insets: Insets
    /// Space between two neighbouring columns.
    public var columnGap: Double
    /// Space between two items of a column, and between the header or footer and the columns.
    public var rowGap: Double
    /// Height of a header above the columns (0 for none).
    public var headerHeight: Double
    /// Height of a footer below the columns (0 for none).
    public var footerHeight: Double
    /// The range each item's aspect ratio (height / width) is clamped to for its tile, e.g.
    /// `1.0 / 3 ... 3` (a strip or panorama is shown cropped, not as a sliver); nil: unclamped.
    public var tileAspectRatioRange: ClosedRange<Double>?

    /// Creates a configuration; the defaults are 3 columns, every margin and gap 10, and no
    /// header or footer.
    public init(
        columns: ColumnRule = .count(3),
        insets: Insets = Insets(all: 10),
        columnGap: Double = 10,
        rowGap: Double = 10,
        headerHeight: Double = 0,
        footerHeight: Double = 0,
        tileAspectRatioRange: ClosedRange<Double>? = nil
    ) {
        self.columns = columns
        self.insets = insets
        self.columnGap = columnGap
        self.rowGap = rowGap
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.tileAspectRatioRange = tileAspectRatioRange
    }
}

/// A column count that applies from a container width upwards (a responsive breakpoint),
/// laid out at a reference width.
public struct Breakpoint: Sendable, Hashable {
    /// The smallest container width at which this breakpoint applies (zero or more).
    public var minWidth: Double
    /// Number of columns at this breakpoint.
    public var columns: Int
    /// The container width at which the breakpoint's layout is computed.
    public var referenceWidth: Double

    /// Creates a breakpoint.
    public init(minWidth: Double, columns: Int, referenceWidth: Double) {
        self.minWidth = minWidth
        self.columns = columns
        self.referenceWidth = referenceWidth
    }
}

/// One breakpoint and the layout computed for it.
public struct BreakpointLayout: Sendable, Equatable {
    /// The breakpoint.
    public let breakpoint: Breakpoint
    /// The layout at the breakpoint's reference width, with the breakpoint's column count.
    public let layout: WaterfallLayout

    /// Pairs a breakpoint with its layout.
    public init(breakpoint: Breakpoint, layout: WaterfallLayout) {
        self.breakpoint = breakpoint
        self.layout = layout
    }
}
