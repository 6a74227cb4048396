/// How the number of columns is chosen.
public enum ColumnRule: Sendable, Hashable {
    /// A fixed number of columns.
    case count(Int)
    /// As many columns of this width as fit; the leftover width is spread over the gaps
    /// (with a single column, over the left and right insets, centring it).
    case minimumWidth(Double)
}

/// The inputs of a waterfall layout other than the items: columns and spacings.
///
/// The defaults are those of CFWaterFlowView: three columns and every margin 10.
public struct WaterfallConfiguration: Sendable, Hashable {
    /// How many columns.
    public var columns: ColumnRule
    /// Space around the content.
    public var insets: Insets
    /// Space between two columns.
    public var columnGap: Double
    /// Space between two items of a column.
    public var rowGap: Double
    /// Height of a header above the columns (0 for none).
    public var headerHeight: Double
    /// Height of a footer below the columns (0 for none).
    public var footerHeight: Double

    /// Creates a configuration.
    public init(
        columns: ColumnRule = .count(3),
        insets: Insets = Insets(all: 10),
        columnGap: Double = 10,
        rowGap: Double = 10,
        headerHeight: Double = 0,
        footerHeight: Double = 0
    ) {
        self.columns = columns
        self.insets = insets
        self.columnGap = columnGap
        self.rowGap = rowGap
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
    }
}

/// A column count that applies from a container width upwards, laid out at a reference width.
public struct Breakpoint: Sendable, Hashable {
    /// The smallest container width at which this breakpoint applies.
    public var minWidth: Double
    /// Number of columns.
    public var columns: Int
    /// The container width at which the layout is computed.
    public var referenceWidth: Double

    /// Creates a breakpoint.
    public init(minWidth: Double, columns: Int, referenceWidth: Double) {
        self.minWidth = minWidth
        self.columns = columns
        self.referenceWidth = referenceWidth
    }
}

/// Why a layout cannot be computed.
public enum WaterfallError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The column count is below 1.
    case invalidColumnCount(Int)
    /// The minimum column width is not a positive finite number.
    case invalidMinimumColumnWidth(Double)
    /// A spacing (inset, gap, header or footer height) is negative or not finite.
    case invalidSpacing(name: String, value: Double)
    /// The container width is not a positive finite number.
    case invalidContainerWidth(Double)
    /// The columns and gaps do not fit into the container.
    case containerTooNarrow(containerWidth: Double, columns: Int)
    /// No breakpoints were given.
    case noBreakpoints
    /// Two breakpoints start at the same width.
    case duplicateBreakpoint(minWidth: Double)
    /// A breakpoint's minimum width is negative or not finite.
    case invalidBreakpointWidth(Double)

    /// A sentence a user understands.
    public var description: String {
        switch self {
        case .invalidColumnCount(let count):
            "the column count must be at least 1 (got \(count))"
        case .invalidMinimumColumnWidth(let width):
            "the minimum column width must be a positive number (got \(width))"
        case .invalidSpacing(let name, let value):
            "the \(name) must be zero or a positive number (got \(value))"
        case .invalidContainerWidth(let width):
            "the container width must be a positive number (got \(width))"
        case .containerTooNarrow(let width, let columns):
            "a container \(width) wide is too narrow for \(columns) column(s) with these insets and gaps"
        case .noBreakpoints:
            "at least one breakpoint is needed"
        case .duplicateBreakpoint(let minWidth):
            "two breakpoints start at the same width (\(minWidth))"
        case .invalidBreakpointWidth(let width):
            "a breakpoint's minimum width must be zero or a positive number (got \(width))"
        }
    }
}
