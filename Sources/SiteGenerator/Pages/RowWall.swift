import Waterfall

/// An album laid out in justified rows (`layout: rows`) at every breakpoint, in the fixed-point
/// terms its CSS uses, so that the page places every tile exactly at any width with no script.
///
/// The engine (``JustifiedLayout``) chooses the rows at each breakpoint's reference width and
/// target row height. Between breakpoints the rows stay, and with `W` the wall width and `g`
/// the gap, a row of `n` tiles whose layout ratios (width / height) add up to `R` is
/// `H = c·(W - (n-1)·g)` tall, `c = 1/R` (the last row at most the target height), its top is
/// `T·W + Y·g` (`T`, `Y` the sums over the rows above of `c` and `1 - c·(n-1)`), and a tile
/// is at `left = P·H + j·g`, `P` the sum of the ratios before it in its row and `j` their
/// count, `width = q·H`, `q` its ratio: all linear in `W` (the last row's height is a `min`).
/// Ratios are rounded to 1/100000 and `c` to 1/10^8 (rounded down, so a row never overflows),
/// and the sums are of the rounded values, so neighbours and rows agree exactly.
struct RowWall: Sendable {
    /// Fixed-point scale of the layout ratios (width / height).
    static let ratioScale = 100_000
    /// Fixed-point scale of the row coefficients `c`, `T` and `Y`.
    static let coefficientScale = 100_000_000

    /// One row at one breakpoint, in fixed-point units.
    struct Row: Sendable, Hashable {
        var start: Int
        var count: Int
        /// `c`, in 1/coefficientScale: `floor(1 / R)`.
        var coefficient: Int
        /// `T` and `Y` of the row's top, in 1/coefficientScale.
        var topWidth: Int
        var topGap: Int
        /// Whether it is the last row (at most the target height).
        var isLast: Bool
    }

    let gap: Int
    /// Per breakpoint, its target row height (CSS px).
    let targets: [Int]
    /// Per item, its layout ratio (width / height, clamped) in 1/ratioScale.
    let ratioUnits: [Int]
    /// Per breakpoint, the rows.
    let rows: [[Row]]
    /// Per breakpoint, per item: its row, and the ratio units before it in that row.
    let rowOfItem: [[Int]]
    let unitsBefore: [[Int]]
    /// Per breakpoint, the engine's content height at the reference width.
    let contentHeights: [Double]

    init(displaySizes: [Size], breakpoints: [Breakpoint], targets: [Int], gap: Int) throws(WaterfallError) {
        self.gap = gap
        self.targets = targets
        var ratioUnits: [Int] = []
        var rows: [[Row]] = []
        var rowOfItem: [[Int]] = []
        var unitsBefore: [[Int]] = []
        var heights: [Double] = []
        for (index, breakpoint) in breakpoints.enumerated() {
            let configuration = JustifiedConfiguration(
                targetRowHeight: Double(targets[index]), insets: .zero, itemGap: Double(gap), rowGap: Double(gap))
            let layout = try JustifiedLayout(itemSizes: displaySizes, configuration: configuration, containerWidth: breakpoint.referenceWidth)
            if index == 0 {
                ratioUnits = layout.aspectRatios.map { max(1, Int(($0 * Double(Self.ratioScale)).rounded())) }
            }
            heights.append(layout.contentSize.height)
            var list: [Row] = []
            var owners = Array(repeating: 0, count: displaySizes.count)
            var before = Array(repeating: 0, count: displaySizes.count)
            var topWidth = 0
            var topGap = 0
            for (number, row) in layout.rows.enumerated() {
                var sum = 0
                for item in row.items {
                    owners[item] = number
                    before[item] = sum
                    sum += ratioUnits[item]
                }
                let coefficient = (Self.coefficientScale * Self.ratioScale) / max(1, sum)
                list.append(Row(start: row.items.lowerBound, count: row.items.count, coefficient: coefficient,
                                topWidth: topWidth, topGap: topGap, isLast: number == layout.rows.count - 1))
                topWidth += coefficient
                topGap += Self.coefficientScale - coefficient * (row.items.count - 1)
            }
            rows.append(list)
            rowOfItem.append(owners)
            unitsBefore.append(before)
        }
        self.ratioUnits = ratioUnits
        self.rows = rows
        self.rowOfItem = rowOfItem
        self.unitsBefore = unitsBefore
        contentHeights = heights
    }

    var itemCount: Int { ratioUnits.count }

    /// The custom properties of tile `index` besides `--r`: `--q` (its ratio), and per
    /// breakpoint I its row's `--tI`, `--yI`, `--wI` (`c`), `--zI` (`n-1`), its own `--pI`,
    /// `--jI`, and on the last row the target height `--mI`.
    func tileStyle(index: Int) -> String {
        var style = ";--q:" + AlbumWall.decimal(ratioUnits[index], scale: Self.ratioScale)
        for breakpoint in rows.indices {
            let row = rows[breakpoint][rowOfItem[breakpoint][index]]
            style += ";--t\(breakpoint):" + AlbumWall.decimal(row.topWidth, scale: Self.coefficientScale)
                + ";--y\(breakpoint):" + Self.signedDecimal(row.topGap, scale: Self.coefficientScale)
                + ";--w\(breakpoint):" + AlbumWall.decimal(row.coefficient, scale: Self.coefficientScale)
                + ";--z\(breakpoint):\(row.count - 1)"
                + ";--p\(breakpoint):" + AlbumWall.decimal(unitsBefore[breakpoint][index], scale: Self.ratioScale)
                + ";--j\(breakpoint):\(index - row.start)"
            if row.isLast { style += ";--m\(breakpoint):\(targets[breakpoint])px" }
        }
        return style
    }

    /// Whether tile `index` is in the first row at some breakpoint (not lazy-loaded).
    func isInFirstRow(index: Int) -> Bool {
        rowOfItem.contains { $0[index] == 0 }
    }

    /// The per-breakpoint rule: which custom properties the tiles use.
    func rules(breakpoint: Int) -> String {
        ".tile{--t:var(--t\(breakpoint));--y:var(--y\(breakpoint));--w:var(--w\(breakpoint));--z:var(--z\(breakpoint))"
            + ";--p:var(--p\(breakpoint));--j:var(--j\(breakpoint));--m:var(--m\(breakpoint))}"
    }

    /// The wall's height at a breakpoint holding the first `count` items: down to the bottom of
    /// the row of the last one.
    func wallHeight(breakpoint: Int, count: Int) -> String {
        guard count > 0 else { return "0px" }
        let row = rows[breakpoint][rowOfItem[breakpoint][count - 1]]
        var height = "\(AlbumWall.decimal(row.coefficient, scale: Self.coefficientScale)) * (100cqw - \(row.count - 1) * var(--g))"
        if row.isLast { height = "min(\(targets[breakpoint])px, \(height))" }
        return "calc(\(AlbumWall.decimal(row.topWidth, scale: Self.coefficientScale)) * 100cqw + "
            + "\(Self.signedDecimal(row.topGap, scale: Self.coefficientScale)) * var(--g) + \(height))"
    }

    /// Each row's item count at a breakpoint.
    func rowCounts(breakpoint: Int) -> [Int] { rows[breakpoint].map(\.count) }

    /// `units / scale` as a short decimal, with a sign when negative.
    static func signedDecimal(_ units: Int, scale: Int) -> String {
        units < 0 ? "-" + AlbumWall.decimal(-units, scale: scale) : AlbumWall.decimal(units, scale: scale)
    }
}
