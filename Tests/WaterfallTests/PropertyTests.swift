import Testing
import Waterfall
import TestSupport

/// The rules checked on many seeded random inputs.
@Suite("Layout properties on random inputs")
struct PropertyTests {
    /// Checks one layout against the rules and the reference; returns nothing, records issues.
    static func check(_ layout: WaterfallLayout, sizes: [Size], reference: ReferenceLayout, label: String) {
        let configuration = layout.configuration
        let insets = layout.insets
        let rowGap = configuration.rowGap
        let scale = max(layout.contentSize.height, layout.containerWidth)
        #expect(layout.frames.count == sizes.count && layout.placements.count == sizes.count, "\(label)")
        #expect(layout.aspectRatios == sizes.map(referenceRatio), "\(label)")
        #expect(close(layout.columnWidth, reference.columnWidth, scale: scale), "\(label)")
        #expect(layout.columnsTop == reference.columnsTop, "\(label)")

        // The same layout as the independent reference.
        #expect(layout.placements.map(\.column) == reference.columns, "\(label): columns differ from the reference")
        let mismatch = layout.frames.indices.first { !close(layout.frames[$0], reference.frames[$0], scale: scale) }
        #expect(mismatch == nil, "\(label): frame \(mismatch ?? -1) differs from the reference")
        #expect(close(layout.headerFrame, reference.headerFrame, scale: scale), "\(label)")
        #expect(close(layout.footerFrame, reference.footerFrame, scale: scale), "\(label)")
        #expect(layout.contentSize.width == layout.containerWidth, "\(label)")
        #expect(close(layout.contentSize.height, reference.contentHeight, scale: scale), "\(label)")

        // Replay with the engine's own frames: each item went under the then-shortest column,
        // ties to the leftmost, directly below the column's previous item.
        var bottoms = Array(repeating: layout.columnsTop, count: layout.columnCount)
        var counts = Array(repeating: 0, count: layout.columnCount)
        var sums = Array(repeating: 0.0, count: layout.columnCount)
        var chosenWrongly: [Int] = []
        for (index, frame) in layout.frames.enumerated() {
            let shortest = bottoms.indices.min { bottoms[$0] < bottoms[$1] || (bottoms[$0] == bottoms[$1] && $0 < $1) }!
            let placement = layout.placements[index]
            if placement.column != shortest { chosenWrongly.append(index) }
            let expectedY = counts[placement.column] == 0 ? layout.columnsTop : bottoms[placement.column] + rowGap
            #expect(close(frame.y, expectedY, scale: scale), "\(label): item \(index) is not right below its column")
            #expect(frame.x == layout.columnMinX[placement.column], "\(label)")
            #expect(frame.width == layout.columnWidth, "\(label)")
            // The fluid-layout identity, with the placement's values checked independently.
            #expect(placement.itemsAbove == counts[placement.column], "\(label)")
            #expect(close(placement.aspectRatioSumAbove, sums[placement.column], scale: 1), "\(label)")
            let identity = layout.columnsTop + placement.aspectRatioSumAbove * layout.columnWidth
                + Double(placement.itemsAbove) * rowGap
            #expect(close(frame.y, identity, scale: scale), "\(label): item \(index) breaks the placement identity")
            #expect(close(frame.height, layout.aspectRatios[index] * layout.columnWidth, scale: scale), "\(label)")
            bottoms[placement.column] = frame.maxY
            counts[placement.column] += 1
            sums[placement.column] += referenceRatio(sizes[index])
        }
        #expect(chosenWrongly.isEmpty, "\(label): items \(chosenWrongly) were not put under the shortest column")
        #expect(layout.columnHeights == bottoms, "\(label)")
        // Column x follows the formula (up to rounding).
        for column in 0..<layout.columnCount {
            let x = insets.left + Double(column) * (layout.columnWidth + layout.columnGap)
            #expect(close(layout.columnMinX[column], x, scale: scale), "\(label)")
        }

        // Nothing overlaps, nothing is outside the content, nothing is non-finite.
        var all = layout.frames
        if let header = layout.headerFrame { all.append(header) }
        if let footer = layout.footerFrame { all.append(footer) }
        var overlaps: [(Int, Int)] = []
        for i in all.indices {
            for j in (i + 1)..<all.count where all[i].intersects(all[j]) { overlaps.append((i, j)) }
        }
        #expect(overlaps.isEmpty, "\(label): overlapping frames \(overlaps.prefix(5))")
        let slack = 1e-9 * scale
        let footerTop = layout.footerFrame?.minY ?? .infinity
        for (index, frame) in layout.frames.enumerated() {
            #expect(frame.isFinite, "\(label)")
            #expect(frame.minX >= insets.left - slack && frame.maxX <= layout.containerWidth - insets.right + slack, "\(label)")
            #expect(frame.minY >= layout.columnsTop, "\(label): item \(index) is above the columns")
            #expect(frame.maxY <= layout.contentSize.height - insets.bottom, "\(label): item \(index) is below the content")
            #expect(frame.maxY <= footerTop, "\(label): item \(index) reaches into the footer")
            #expect(frame.minY >= (layout.headerFrame?.maxY ?? 0), "\(label)")
        }
        if let footer = layout.footerFrame {
            #expect(footer.maxY + insets.bottom == layout.contentSize.height, "\(label)")
        }
        #expect(layout.contentSize.height.isFinite, "\(label)")
    }

    @Test("random column counts, spacings, headers, footers and sizes match the rules", arguments: 1...12)
    func randomLayouts(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x1234_5678_9ABC)
        for round in 0..<8 {
            let (configuration, width) = randomConfiguration(using: &random)
            let count = random.chance(0.1) ? random.int(0...3) : random.int(1...160)
            let sizes = randomSizes(count, using: &random, badShare: 0.05)
            let layout = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
            let reference = referenceLayout(sizes, configuration, containerWidth: width)
            Self.check(layout, sizes: sizes, reference: reference, label: "seed \(seed) round \(round)")
        }
    }

    @Test("equal sizes fill the columns row by row", arguments: [1, 2, 3, 4, 7])
    func rowByRow(columns: Int) throws {
        let sizes = Array(repeating: Size(width: 3, height: 4), count: 5 * columns + 2)
        let layout = try WaterfallLayout(
            itemSizes: sizes, configuration: WaterfallConfiguration(columns: .count(columns)), containerWidth: 1000)
        #expect(layout.placements.map(\.column) == sizes.indices.map { $0 % columns })
        #expect(layout.placements.map(\.itemsAbove) == sizes.indices.map { $0 / columns })
    }

    @Test("a layout is a pure function of its inputs")
    func deterministic() throws {
        var random = SplitMix64(seed: 77)
        let sizes = randomSizes(100, using: &random)
        let (configuration, width) = randomConfiguration(using: &random)
        let a = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
        let b = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
        #expect(a == b)
        let c = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: width * 2)
        #expect(a != c)
    }
}
