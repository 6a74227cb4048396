/// Why a layout cannot be computed.
public enum WaterfallError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The column count is below 1.
    case invalidColumnCount(Int)
    /// More columns than ``WaterfallLayout/maximumColumnCount`` were asked for, or would fit.
    case tooManyColumns(limit: Int)
    /// The minimum column width is not a positive finite number.
    case invalidMinimumColumnWidth(Double)
    /// A spacing (an inset, a gap, the header or footer height) is negative or not finite.
    /// `name` says which one, in words ("column gap", "top inset", ...).
    case invalidSpacing(name: String, value: Double)
    /// The container width is not a positive finite number.
    case invalidContainerWidth(Double)
    /// The columns, insets and gaps do not fit into the container.
    case containerTooNarrow(containerWidth: Double, columns: Int)
    /// The layout would be taller than a finite number can express (absurd item sizes or
    /// spacings).
    case layoutTooLarge
    /// No breakpoints were given.
    case noBreakpoints
    /// Two breakpoints start at the same width.
    case duplicateBreakpoint(minWidth: Double)
    /// A breakpoint's minimum width is negative or not finite.
    case invalidBreakpointWidth(Double)

    /// A sentence a user understands, saying what is wrong and with which value.
    public var description: String {
        switch self {
        case .invalidColumnCount(let count):
            "the column count must be at least 1 (got \(count))"
        case .tooManyColumns(let limit):
            "too many columns: at most \(limit) are supported"
        case .invalidMinimumColumnWidth(let width):
            "the minimum column width must be a positive number (got \(width))"
        case .invalidSpacing(let name, let value):
            "the \(name) must be zero or a positive number (got \(value))"
        case .invalidContainerWidth(let width):
            "the container width must be a positive number (got \(width))"
        case .containerTooNarrow(let width, let columns):
            "a container \(width) wide is too narrow for \(columns) column(s) with these insets and gaps"
        case .layoutTooLarge:
            "the layout is too tall to compute: an item size, inset or gap is absurdly large"
        case .noBreakpoints:
            "at least one breakpoint is needed"
        case .duplicateBreakpoint(let minWidth):
            "two breakpoints start at the same width (\(minWidth))"
        case .invalidBreakpointWidth(let width):
            "a breakpoint's minimum width must be zero or a positive number (got \(width))"
        }
    }
}
