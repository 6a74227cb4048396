import GalleryConfig
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
///
/// A grouped album (sections by date) is the engine's ``SectionedLayout``: each section is a
/// waterfall of its own below a header `sectionHeaderHeight` px tall. A section's header
/// starts at `TA·colW + TK·gap + s·hh` (`s` headers above it), where `TA` and `TK` add up, over
/// the sections above, the largest ratio sum of a column and the largest item count (plus a
/// gap between sections); its tiles are placed as above, below its header and a gap, with
/// `A` and `k` counted from its first tile and the section's terms added in (`--a`, `--k`),
/// and `--s` (the headers down to its own) times `hh`. All linear in `colW`.
struct AlbumWall: Sendable {
    /// Fixed-point scale of the aspect ratios written to CSS.
    static let ratioScale = 100_000
    /// A tile's aspect ratio (height / width) is its photo's, clamped to 1:3 ... 3:1: a strip
    /// or a panorama gets a tile it fills cropped (`object-fit: cover`), never a sliver; the
    /// lightbox and the photo's page show the whole photo.
    static let tileAspectRatioRange: ClosedRange<Double> = (1.0 / 3)...3
    /// Height of a section header, CSS px.
    static let sectionHeaderHeight = 44

    /// One breakpoint's layout as the engine computed it at the reference width.
    struct EngineLayout: Sendable {
        let breakpoint: Breakpoint
        let columnCount: Int
        let columnWidth: Double
        let contentHeight: Double
        let frames: [Rect]
        /// Section headers' frames (empty for an album that is not grouped).
        let headerFrames: [Rect]
    }

    /// A section of a grouped album: the index of its first item and its header's text.
    struct Section: Sendable, Hashable {
        var start: Int
        var label: String
    }

    /// A section's terms at one breakpoint, in ratio units and gaps: its header's top
    /// (`aboveUnits`, `aboveGaps`) and its columns' extent (largest ratio sum, largest count).
    struct SectionTerms: Sendable, Hashable {
        var aboveUnits: Int
        var aboveGaps: Int
        var units: Int
        var count: Int
    }

    let breakpoints: [ColumnBreakpoint]
    let gap: Int
    let layouts: [EngineLayout]
    /// The sections, in order; empty when the album is not grouped.
    let sections: [Section]
    /// Per item, its aspect ratio in units of 1/ratioScale.
    let ratioUnits: [Int]
    /// Per breakpoint, per item: (column, A in units, k), counted within its section.
    let cssPlacements: [[(column: Int, aboveUnits: Int, above: Int)]]
    /// Per breakpoint, per column: (A units of the whole column, item count).
    let columnTotals: [[(units: Int, count: Int)]]
    /// Per breakpoint, per section: its terms (empty when not grouped).
    let sectionTerms: [[SectionTerms]]
    /// Per item, its section (empty when not grouped).
    private let sectionOfItem: [Int]

    /// The rows of an album laid out in rows (`layout: rows`); nil for columns.
    let rowWall: RowWall?

    var isGrouped: Bool { !sections.isEmpty }
    var isRows: Bool { rowWall != nil }

    /// `sections` splits the items (their starts ascending, the first 0); empty for a plain
    /// waterfall.
    init(
        displaySizes: [Size], sections: [Section] = [], layout: AlbumLayout = .columns,
        breakpoints: [ColumnBreakpoint], gap: Int
    ) throws(WaterfallError) {
        let sorted = breakpoints.sorted { $0.minWidth < $1.minWidth }
        self.breakpoints = sorted
        self.gap = gap
        self.sections = displaySizes.isEmpty ? [] : sections
        let engineBreakpoints = sorted.enumerated().map { index, breakpoint in
            Breakpoint(
                minWidth: Double(breakpoint.minWidth), columns: breakpoint.columns,
                referenceWidth: Self.referenceWidth(index: index, of: sorted))
        }
        let configuration = WaterfallConfiguration(
            columns: .count(sorted[0].columns), insets: .zero,
            columnGap: Double(gap), rowGap: Double(gap), tileAspectRatioRange: Self.tileAspectRatioRange)
        var engine: [EngineLayout] = []
        var enginePlacements: [[Placement]] = []
        var ratios: [Double] = []
        if self.sections.isEmpty {
            let plain = try WaterfallLayout.layouts(
                itemSizes: displaySizes, breakpoints: engineBreakpoints, configuration: configuration)
            for entry in plain {
                let layout = entry.layout
                engine.append(EngineLayout(
                    breakpoint: entry.breakpoint, columnCount: layout.columnCount, columnWidth: layout.columnWidth,
                    contentHeight: layout.contentSize.height, frames: layout.frames, headerFrames: []))
                enginePlacements.append(layout.placements)
            }
            ratios = plain.first?.layout.aspectRatios ?? []
            sectionOfItem = []
        } else {
            let bounds = self.sections.map(\.start) + [displaySizes.count]
            let engineSections = (0..<self.sections.count).map { index in
                WaterfallSection(
                    headerHeight: Double(Self.sectionHeaderHeight),
                    itemSizes: Array(displaySizes[bounds[index]..<bounds[index + 1]]))
            }
            for breakpoint in engineBreakpoints {
                var perBreakpoint = configuration
                perBreakpoint.columns = .count(breakpoint.columns)
                let layout = try SectionedLayout(
                    sections: engineSections, configuration: perBreakpoint, containerWidth: breakpoint.referenceWidth)
                engine.append(EngineLayout(
                    breakpoint: breakpoint, columnCount: layout.columnCount, columnWidth: layout.columnWidth,
                    contentHeight: layout.contentSize.height, frames: layout.frames, headerFrames: layout.headerFrames))
                enginePlacements.append(layout.placements)
                ratios = layout.aspectRatios
            }
            var owners: [Int] = []
            owners.reserveCapacity(displaySizes.count)
            for index in 0..<self.sections.count {
                owners += Array(repeating: index, count: bounds[index + 1] - bounds[index])
            }
            sectionOfItem = owners
        }
        layouts = engine
        let ratioUnits = ratios.map { max(1, Int(($0 * Double(Self.ratioScale)).rounded())) }
        self.ratioUnits = ratioUnits
        var placements: [[(column: Int, aboveUnits: Int, above: Int)]] = []
        var totals: [[(units: Int, count: Int)]] = []
        var terms: [[SectionTerms]] = []
        for (b, entry) in engine.enumerated() {
            var columns = Array(repeating: (units: 0, count: 0), count: entry.columnCount)
            var row: [(column: Int, aboveUnits: Int, above: Int)] = []
            row.reserveCapacity(ratioUnits.count)
            var sectionTerms: [SectionTerms] = []
            var nextSection = 0
            for (index, placement) in enginePlacements[b].enumerated() {
                if nextSection < self.sections.count, self.sections[nextSection].start == index {
                    sectionTerms.append(SectionTerms(aboveUnits: 0, aboveGaps: 0, units: 0, count: 0))
                    nextSection += 1
                    columns = Array(repeating: (units: 0, count: 0), count: entry.columnCount)
                }
                let column = placement.column
                row.append((column, columns[column].units, columns[column].count))
                columns[column].units += ratioUnits[index]
                columns[column].count += 1
                if !sectionTerms.isEmpty {
                    let last = sectionTerms.count - 1
                    sectionTerms[last].units = max(sectionTerms[last].units, columns[column].units)
                    sectionTerms[last].count = max(sectionTerms[last].count, columns[column].count)
                }
            }
            // Each section's header below the sections above it.
            var aboveUnits = 0
            var aboveGaps = 0
            for index in sectionTerms.indices {
                sectionTerms[index].aboveUnits = aboveUnits
                sectionTerms[index].aboveGaps = aboveGaps
                aboveUnits += sectionTerms[index].units
                aboveGaps += sectionTerms[index].count + 1
            }
            placements.append(row)
            totals.append(columns)
            terms.append(sectionTerms)
        }
        cssPlacements = placements
        columnTotals = totals
        sectionTerms = terms
        rowWall = layout == .rows
            ? try RowWall(displaySizes: displaySizes, breakpoints: engineBreakpoints,
                          targets: sorted.map(\.effectiveRowHeight), gap: gap)
            : nil
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

    /// The custom properties of tile `index`: `--r` and `--cI/--aI/--kI` per breakpoint I, and
    /// in a grouped album `--s`, the number of section headers down to its own.
    func tileStyle(index: Int) -> String {
        var style = "--r:\(Self.decimal(ratioUnits[index], scale: Self.ratioScale))"
        if let rowWall { return style + rowWall.tileStyle(index: index) }
        for (breakpoint, placements) in cssPlacements.enumerated() {
            let placement = placements[index]
            var units = placement.aboveUnits
            var above = placement.above
            if isGrouped {
                let terms = sectionTerms[breakpoint][sectionOfItem[index]]
                units += terms.aboveUnits
                above += terms.aboveGaps + 1
            }
            style += ";--c\(breakpoint):\(placement.column);--a\(breakpoint):"
                + Self.decimal(units, scale: Self.ratioScale)
                + ";--k\(breakpoint):\(above)"
        }
        if isGrouped { style += ";--s:\(sectionOfItem[index] + 1)" }
        return style
    }

    /// The section that item `index` starts, if it starts one.
    func section(startingAt index: Int) -> Int? {
        guard isGrouped, sectionOfItem[index] < sections.count, sections[sectionOfItem[index]].start == index else { return nil }
        return sectionOfItem[index]
    }

    /// The custom properties of section `section`'s box (its header, sticky within it): per
    /// breakpoint I its top terms `--aI`, `--kI` and its columns' extent `--eI`, `--fI`, and
    /// `--s`, the headers above it. With `renderedCount`, the extent covers only the items
    /// before it (the static page's last section may hold only some of its photos).
    func sectionStyle(_ section: Int, renderedCount: Int? = nil) -> String {
        var style = "--s:\(section)"
        let end = section + 1 < sections.count ? sections[section + 1].start : itemCount
        let rendered = max(sections[section].start, min(end, renderedCount ?? end))
        for (breakpoint, terms) in sectionTerms.enumerated() {
            var extent = (units: terms[section].units, count: terms[section].count)
            if rendered < end {
                extent = partialExtent(breakpoint: breakpoint, from: sections[section].start, to: rendered)
            }
            style += ";--a\(breakpoint):\(Self.decimal(terms[section].aboveUnits, scale: Self.ratioScale))"
                + ";--k\(breakpoint):\(terms[section].aboveGaps)"
                + ";--e\(breakpoint):\(Self.decimal(extent.units, scale: Self.ratioScale))"
                + ";--f\(breakpoint):\(extent.count)"
        }
        return style
    }

    /// The largest column ratio sum and item count of items `from..<to` (one section's).
    private func partialExtent(breakpoint: Int, from: Int, to: Int) -> (units: Int, count: Int) {
        var units = 0
        var count = 0
        for index in from..<to {
            let placement = cssPlacements[breakpoint][index]
            units = max(units, placement.aboveUnits + ratioUnits[index])
            count = max(count, placement.above + 1)
        }
        return (units, count)
    }

    /// Whether tile `index` starts a column at some breakpoint (it is in the first row, so
    /// its image must not be lazy-loaded). In a grouped album only the first section counts.
    func isInFirstRow(index: Int) -> Bool {
        if let rowWall { return rowWall.isInFirstRow(index: index) }
        if isGrouped, sectionOfItem[index] > 0 { return false }
        return cssPlacements.contains { $0[index].above == 0 }
    }

    /// The CSS that picks a breakpoint by the wall container's width and sizes the wall.
    ///
    /// `renderedCount` is the number of tiles the page itself holds (the first ones): without
    /// the viewer the wall is as tall as they are; with the viewer (`.wall.is-full`) it is as
    /// tall as the whole album.
    func css(renderedCount: Int? = nil) -> String {
        let rendered = min(renderedCount ?? itemCount, itemCount)
        var css = ""
        if let rowWall {
            for index in breakpoints.indices {
                var rules = ".wall{height:\(rowWall.wallHeight(breakpoint: index, count: rendered))}"
                if rendered < itemCount {
                    rules += ".wall.is-full{height:\(rowWall.wallHeight(breakpoint: index, count: itemCount))}"
                }
                rules += rowWall.rules(breakpoint: index)
                css += index == 0 ? ".wall{--g:\(gap)px}" + rules + "\n"
                    : "@container wall (min-width:\(breakpoints[index].minWidth)px){\(rules)}\n"
            }
            return css
        }
        for (index, breakpoint) in breakpoints.enumerated() {
            var rules = ".wall{--n:\(breakpoint.columns);height:\(wallHeight(breakpoint: index, count: itemCount))}"
            if rendered < itemCount {
                rules = ".wall{--n:\(breakpoint.columns);height:\(wallHeight(breakpoint: index, count: rendered))}"
                    + ".wall.is-full{height:\(wallHeight(breakpoint: index, count: itemCount))}"
            }
            rules += ".tile{--c:var(--c\(index));--a:var(--a\(index));--k:var(--k\(index))}"
            if isGrouped {
                rules += ".section{--a:var(--a\(index));--k:var(--k\(index));--e:var(--e\(index));--f:var(--f\(index))}"
            }
            if index == 0 {
                let header = isGrouped ? ";--hh:\(Self.sectionHeaderHeight)px" : ""
                css += ".wall{--g:\(gap)px\(header)}" + rules + "\n"
            } else {
                css += "@container wall (min-width:\(breakpoint.minWidth)px){\(rules)}\n"
            }
        }
        return css
    }

    /// The wall's height holding the first `count` items at a breakpoint.
    private func wallHeight(breakpoint: Int, count: Int) -> String {
        guard isGrouped else {
            return wallHeight(count == itemCount ? columnTotals[breakpoint] : partialTotals(breakpoint: breakpoint, count: count))
        }
        guard count > 0 else { return "0px" }
        let section = sectionOfItem[count - 1]
        let terms = sectionTerms[breakpoint][section]
        let extent = partialExtent(breakpoint: breakpoint, from: sections[section].start, to: count)
        let units = terms.aboveUnits + extent.units
        let gaps = terms.aboveGaps + extent.count
        return "calc(\(Self.decimal(units, scale: Self.ratioScale)) * var(--colw) + \(gaps) * var(--g) + \(section + 1) * var(--hh))"
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
        if isRows {
            // Tiles in rows are as wide as their photo at about the row height: a typical
            // landscape photo's width, at most the page's.
            for breakpoint in breakpoints.reversed() {
                let width = "min(\(breakpoint.effectiveRowHeight * 3 / 2)px, calc(100vw - \(2 * pagePadding)px))"
                parts.append(breakpoint.minWidth == 0 ? width : "(min-width: \(breakpoint.minWidth + 2 * pagePadding)px) \(width)")
            }
            return parts.joined(separator: ", ")
        }
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
