import Testing
import Waterfall
import TestSupport

/// `.minimumWidth`: the column count derived from a minimum width, the leftover spread over
/// the gaps, a single column centred.
@Suite("Minimum column width")
struct MinimumWidthTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var container: Double
        var minimum: Double
        var insets = Insets(all: 10)
        var gap = 10.0
        // Expected, worked out by hand.
        var count: Int
        var effectiveGap: Double
        var left: Double
        var right: Double
        var testDescription: String { "\(minimum) in \(container)" }
    }

    @Test(
        "hand-computed counts, gaps and insets",
        arguments: [
            // available 380; (380+10)/(100+10) = 3.5 -> 3; leftover 80 over 2 gaps = 40.
            Case(container: 400, minimum: 100, count: 3, effectiveGap: 40, left: 10, right: 10),
            // available 320; 330/110 = 3 exactly; leftover 20 over 2 gaps = 10.
            Case(container: 340, minimum: 100, count: 3, effectiveGap: 10, left: 10, right: 10),
            // available 319; 329/110 < 3 -> 2; leftover 119 in the one gap.
            Case(container: 339, minimum: 100, count: 2, effectiveGap: 119, left: 10, right: 10),
            // available 230; 240/160 = 1.5 -> 1; leftover 80 split: insets 50 and 50.
            Case(container: 250, minimum: 150, count: 1, effectiveGap: 10, left: 50, right: 50),
            // available 150 = minimum: one column, nothing left over.
            Case(container: 170, minimum: 150, count: 1, effectiveGap: 10, left: 10, right: 10),
            // uneven insets: available 400 - 30 - 50 = 320 -> 1 column, leftover 120: 90 and 110.
            Case(container: 400, minimum: 200, insets: Insets(top: 0, left: 30, bottom: 0, right: 50),
                 count: 1, effectiveGap: 10, left: 90, right: 110),
            // no insets, no gap: 1000/91 = 10.99 -> 10; leftover 90 over 9 gaps = 10.
            Case(container: 1000, minimum: 91, insets: .zero, gap: 0, count: 10, effectiveGap: 10, left: 0, right: 0),
            Case(container: 1000, minimum: 100, insets: .zero, gap: 0, count: 10, effectiveGap: 0, left: 0, right: 0),
        ])
    func handComputed(_ c: Case) throws {
        let configuration = WaterfallConfiguration(columns: .minimumWidth(c.minimum), insets: c.insets, columnGap: c.gap)
        let layout = try WaterfallLayout(
            itemSizes: Array(repeating: Size(width: 1, height: 1), count: 2 * c.count + 1),
            configuration: configuration, containerWidth: c.container)
        #expect(layout.columnCount == c.count)
        #expect(layout.columnWidth == c.minimum)
        #expect(layout.columnGap == c.effectiveGap)
        #expect(layout.insets == Insets(top: c.insets.top, left: c.left, bottom: c.insets.bottom, right: c.right))
        let xs = (0..<c.count).map { c.left + Double($0) * (c.minimum + c.effectiveGap) }
        #expect(layout.columnMinX == xs)
        #expect(layout.frames.map(\.x) == layout.placements.map { xs[$0.column] })
        // The columns span exactly from the effective left inset to the effective right one.
        #expect(xs.last! + c.minimum == c.container - c.right)
    }

    @Test("a single column is centred, with the header and footer above and below it")
    func centred() throws {
        let configuration = WaterfallConfiguration(columns: .minimumWidth(150), headerHeight: 20, footerHeight: 30)
        let layout = try WaterfallLayout(itemSizes: [Size(width: 1, height: 1)], configuration: configuration, containerWidth: 250)
        #expect(layout.frames == [Rect(x: 50, y: 40, width: 150, height: 150)])
        #expect(layout.headerFrame == Rect(x: 50, y: 10, width: 150, height: 20))
        #expect(layout.footerFrame == Rect(x: 50, y: 200, width: 150, height: 30))
        #expect(layout.contentSize == Size(width: 250, height: 240))
    }

    @Test(
        "a container too narrow for one column is refused",
        arguments: [(100.0, 150.0), (169, 150), (20, 1), (21, 1.000001)])
    func tooNarrow(container: Double, minimum: Double) {
        let error = caught {
            try WaterfallLayout(itemSizes: [], configuration: WaterfallConfiguration(columns: .minimumWidth(minimum)), containerWidth: container)
        }
        #expect(error == .containerTooNarrow(containerWidth: container, columns: 1))
    }

    @Test("more columns than supported are refused")
    func tooMany() {
        let configuration = WaterfallConfiguration(columns: .minimumWidth(0.001), insets: .zero, columnGap: 0)
        let error = caught { try WaterfallLayout(itemSizes: [], configuration: configuration, containerWidth: 1e6) }
        #expect(error == .tooManyColumns(limit: WaterfallLayout.maximumColumnCount))
    }

    @Test("random minimum widths: the most columns that fit, gaps spread evenly, all layout rules hold", arguments: 1...6)
    func random(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 7919)
        for round in 0..<10 {
            let insets = Insets(
                top: random.double(0...30), left: random.chance(0.3) ? 0 : random.double(0...30),
                bottom: random.double(0...30), right: random.chance(0.3) ? 0 : random.double(0...30))
            let gap = random.chance(0.3) ? 0 : random.double(0...30)
            let minimum = random.double(20...500)
            let container = insets.left + insets.right + minimum * random.double(1...12)
            let configuration = WaterfallConfiguration(
                columns: .minimumWidth(minimum), insets: insets, columnGap: gap, rowGap: random.double(0...20),
                headerHeight: random.chance(0.5) ? 0 : 40, footerHeight: random.chance(0.5) ? 0 : 25)
            let sizes = randomSizes(random.int(0...120), using: &random, badShare: 0.05)
            let layout = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: container)
            let label = "seed \(seed) round \(round)"

            let available = container - insets.left - insets.right
            let n = max(1, Int(((available + gap) / (minimum + gap)).rounded(.down)))
            #expect(layout.columnCount == n, "\(label)")
            #expect(layout.columnWidth == minimum, "\(label)")
            // n columns fit with the configured gap (up to rounding); n + 1 do not.
            #expect(Double(n) * minimum + Double(n - 1) * gap <= available * (1 + 1e-12), "\(label)")
            #expect(Double(n + 1) * minimum + Double(n) * gap > available, "\(label)")
            let leftover = available - Double(n) * minimum
            var effective = insets
            if n > 1 {
                #expect(close(layout.columnGap, leftover / Double(n - 1), scale: container), "\(label)")
                #expect(layout.columnGap >= gap, "\(label)")
                #expect(layout.insets == insets, "\(label)")
            } else {
                effective.left += leftover / 2
                effective.right += leftover / 2
                #expect(close(layout.insets.left, effective.left, scale: container), "\(label)")
                #expect(close(layout.insets.right, effective.right, scale: container), "\(label)")
                #expect(layout.insets.top == insets.top && layout.insets.bottom == insets.bottom, "\(label)")
            }
            let reference = referenceLayout(
                sizes, columns: n, columnWidth: minimum, left: effective.left, gap: n > 1 ? leftover / Double(n - 1) : gap,
                top: insets.top, bottom: insets.bottom, contentWidth: container - effective.left - effective.right,
                rowGap: configuration.rowGap, header: configuration.headerHeight, footer: configuration.footerHeight)
            PropertyTests.check(layout, sizes: sizes, reference: reference, label: label)
            #expect(close(layout.columnMinX.last! + minimum, container - layout.insets.right, scale: container), "\(label)")
        }
    }
}
