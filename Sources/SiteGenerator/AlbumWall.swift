import Waterfall

/// The waterfall of one album at every breakpoint, and its three renderings: the CSS that
/// places the tiles with no script, each tile's custom properties, and the frame arrays of
/// `frames.json`.
///
/// The engine lays the album out once per breakpoint at a reference width. CSS then evaluates
/// the same formulas at the actual width: with `colW = (100cqw - (n-1)·gap) / n`, a tile sits
/// at `left = c·(colW + gap)`, `top = A·colW + k·gap`, `height = r·colW`, where `c` is its
/// column, `A` the sum of the aspect ratios (height/width) above it in that column and `k`
/// their count. Aspect ratios are rounded to 1/100000 once, and `A` is summed from the rounded
/// values, so the CSS of neighbouring tiles agrees exactly and tiles never overlap.
struct AlbumWall: Sendable {
    /// Fixed-point scale of the aspect ratios written to CSS.
    static let ratioScale = 100_000

    let breakpoints: [ColumnBreakpoint]
    let gap: Int
    let layouts: [BreakpointLayout]
    /// Per item, its aspect ratio in units of 1/ratioScale.
    let ratioUnits: [Int]
    /// Per breakpoint, per item: (column, A in units, k).
    let cssPlacements: [[(column: Int, aboveUnits: Int, above: Int)]]
    /// Per breakpoint, per column: (A units of the whole column, item count).
    let columnTotals: [[(units: Int, count: Int)]]

    init(displaySizes: [Size], breakpoints: [ColumnBreakpoint], gap: Int) throws(WaterfallError) {
        let sorted = breakpoints.sorted { $0.minWidth < $1.minWidth }
        self.breakpoints = sorted
        self.gap = gap
        let engineBreakpoints = sorted.enumerated().map { index, breakpoint in
            Breakpoint(
                minWidth: Double(breakpoint.minWidth), columns: breakpoint.columns,
                referenceWidth: Self.referenceWidth(index: index, of: sorted))
        }
        let configuration = WaterfallConfiguration(
            columns: .count(sorted[0].columns), insets: .zero,
            columnGap: Double(gap), rowGap: Double(gap))
        layouts = try WaterfallLayout.layouts(
            itemSizes: displaySizes, breakpoints: engineBreakpoints, configuration: configuration)
        let ratioUnits = (layouts.first?.layout.aspectRatios ?? []).map {
            max(1, Int(($0 * Double(Self.ratioScale)).rounded()))
        }
        self.ratioUnits = ratioUnits
        var placements: [[(column: Int, aboveUnits: Int, above: Int)]] = []
        var totals: [[(units: Int, count: Int)]] = []
        for entry in layouts {
            var columns = Array(repeating: (units: 0, count: 0), count: entry.layout.columnCount)
            var row: [(column: Int, aboveUnits: Int, above: Int)] = []
            row.reserveCapacity(ratioUnits.count)
            for (index, placement) in entry.layout.placements.enumerated() {
                let column = placement.column
                row.append((column, columns[column].units, columns[column].count))
                columns[column].units += ratioUnits[index]
                columns[column].count += 1
            }
            placements.append(row)
            totals.append(columns)
        }
        cssPlacements = placements
        columnTotals = totals
    }

    /// The width at which a breakpoint's columns are chosen: the middle of its range.
    static func referenceWidth(index: Int, of breakpoints: [ColumnBreakpoint]) -> Double {
        let low = Double(breakpoints[index].minWidth)
        if index + 1 < breakpoints.count {
            return (low + Double(breakpoints[index + 1].minWidth)) / 2
        }
        return low == 0 ? 1000 : low * 1.25
    }

    var itemCount: Int { ratioUnits.count }

    /// The custom properties of tile `index`: `--r` and `--cI/--aI/--kI` per breakpoint I.
    func tileStyle(index: Int) -> String {
        var style = "--r:\(Self.decimal(ratioUnits[index], scale: Self.ratioScale))"
        for (breakpoint, placements) in cssPlacements.enumerated() {
            let placement = placements[index]
            style += ";--c\(breakpoint):\(placement.column);--a\(breakpoint):"
                + Self.decimal(placement.aboveUnits, scale: Self.ratioScale)
                + ";--k\(breakpoint):\(placement.above)"
        }
        return style
    }

    /// Whether tile `index` starts a column at some breakpoint (it is in the first row, so
    /// its image must not be lazy-loaded).
    func isInFirstRow(index: Int) -> Bool {
        cssPlacements.contains { $0[index].above == 0 }
    }

    /// The CSS that picks a breakpoint by the wall container's width and sizes the wall.
    ///
    /// `renderedCount` is the number of tiles the page itself holds (the first ones): without
    /// the viewer the wall is as tall as they are; with the viewer (`.wall.is-full`) it is as
    /// tall as the whole album.
    func css(renderedCount: Int? = nil) -> String {
        let rendered = min(renderedCount ?? itemCount, itemCount)
        var css = ""
        for (index, breakpoint) in breakpoints.enumerated() {
            var rules = ".wall{--n:\(breakpoint.columns);height:\(wallHeight(columnTotals[index]))}"
            if rendered < itemCount {
                rules = ".wall{--n:\(breakpoint.columns);height:\(wallHeight(partialTotals(breakpoint: index, count: rendered)))}"
                    + ".wall.is-full{height:\(wallHeight(columnTotals[index]))}"
            }
            rules += ".tile{--c:var(--c\(index));--a:var(--a\(index));--k:var(--k\(index))}"
            if index == 0 {
                css += ".wall{--g:\(gap)px}" + rules + "\n"
            } else {
                css += "@container wall (min-width:\(breakpoint.minWidth)px){\(rules)}\n"
            }
        }
        return css
    }

    /// Per column, the ratio units and item count of the first `count` items.
    func partialTotals(breakpoint: Int, count: Int) -> [(units: Int, count: Int)] {
        var totals = Array(repeating: (units: 0, count: 0), count: columnTotals[breakpoint].count)
        for index in 0..<count {
            let placement = cssPlacements[breakpoint][index]
            totals[placement.column] = (placement.aboveUnits + ratioUnits[index], placement.above + 1)
        }
        return totals
    }

    private func wallHeight(_ totals: [(units: Int, count: Int)]) -> String {
        let bottoms = totals.filter { $0.count > 0 }.map { total in
            "calc(\(Self.decimal(total.units, scale: Self.ratioScale)) * var(--colw) + \(total.count - 1) * var(--g))"
        }
        switch bottoms.count {
        case 0: return "0px"
        case 1: return bottoms[0]
        default: return "max(" + bottoms.joined(separator: ",") + ")"
        }
    }

    /// Per breakpoint, each item's column as one base-36 digit (columns are at most 24).
    func columnString(breakpoint: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for placement in cssPlacements[breakpoint] {
            let digit = placement.column
            scalars.append(Unicode.Scalar(UInt8(digit < 10 ? 48 + digit : 87 + digit)))
        }
        return String(scalars)
    }

    /// The `sizes` attribute of a tile image: the column width at each breakpoint, in viewport units.
    func sizesAttribute(pagePadding: Int) -> String {
        var parts: [String] = []
        for breakpoint in breakpoints.reversed() {
            let fixed = 2 * pagePadding + (breakpoint.columns - 1) * gap
            let width = breakpoint.columns == 1
                ? "calc(100vw - \(fixed)px)" : "calc((100vw - \(fixed)px) / \(breakpoint.columns))"
            if breakpoint.minWidth == 0 {
                parts.append(width)
            } else {
                parts.append("(min-width: \(breakpoint.minWidth + 2 * pagePadding)px) \(width)")
            }
        }
        if breakpoints.first?.minWidth != 0, let first = breakpoints.first {
            parts.append("calc((100vw - \(2 * pagePadding)px) / \(first.columns))")
        }
        return parts.joined(separator: ", ")
    }

    /// `units / scale` as a short decimal.
    static func decimal(_ units: Int, scale: Int) -> String {
        let whole = units / scale
        var fraction = units % scale
        if fraction == 0 { return String(whole) }
        var digits = String(fraction).leftPadded(to: String(scale).count - 1)
        while digits.hasSuffix("0") { digits.removeLast(); fraction /= 10 }
        return "\(whole).\(digits)"
    }

    /// A JSON number with at most three decimals.
    static func jsonNumber(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let units = Int((value * 1000).rounded())
        let sign = units < 0 ? "-" : ""
        return sign + decimal(abs(units), scale: 1000)
    }
}
