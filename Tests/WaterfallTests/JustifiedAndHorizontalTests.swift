import Testing
import Waterfall
import TestSupport

@Suite("Justified rows and the horizontal direction on random inputs")
struct JustifiedAndHorizontalTests {
    static func randomJustified(using random: inout SplitMix64) -> (JustifiedConfiguration, Double) {
        let configuration = JustifiedConfiguration(
            targetRowHeight: random.double(40...400),
            insets: Insets(top: random.double(0...20), left: random.double(0...20), bottom: random.double(0...20), right: random.double(0...20)),
            itemGap: random.chance(0.2) ? 0 : random.double(0...16), rowGap: random.chance(0.2) ? 0 : random.double(0...16))
        return (configuration, random.double(200...3000))
    }

    @Test("rows fill the width exactly, keep their order, never overlap; the last row is at most the target height", arguments: 1...12)
    func rows(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x2040_6080)
        for round in 0..<6 {
            let label = "seed \(seed) round \(round)"
            let (configuration, width) = Self.randomJustified(using: &random)
            let sizes = randomSizes(random.int(0...150), using: &random, badShare: 0.03)
            let layout = try JustifiedLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
            let left = configuration.insets.left
            let right = width - configuration.insets.right
            #expect(layout.frames.count == sizes.count, "\(label)")
            // Every item in exactly one row, in order.
            #expect(layout.rows.flatMap { Array($0.items) } == Array(sizes.indices), "\(label)")
            for (index, row) in layout.rows.enumerated() {
                let frames = row.items.map { layout.frames[$0] }
                // Equal heights in a row, the ratio kept (clamped to the range).
                for (item, frame) in zip(row.items, frames) {
                    let ratio = min(configuration.maximumAspectRatio, max(configuration.minimumAspectRatio, 1 / referenceRatio(sizes[item])))
                    #expect(close(frame.width, ratio * frame.height, scale: width), "\(label)")
                    #expect(frame.height == frames[0].height && frame.minY == frames[0].minY, "\(label)")
                }
                // Fixed gaps between neighbours; the row starts at the left inset.
                #expect(close(frames[0].minX, left, scale: width), "\(label)")
                for (a, b) in zip(frames, frames.dropFirst()) {
                    #expect(close(b.minX - a.maxX, configuration.itemGap, scale: width), "\(label)")
                }
                if index + 1 < layout.rows.count {
                    #expect(row.isJustified, "\(label)")
                    #expect(close(frames.last!.maxX, right, scale: width), "\(label): row \(index) does not fill the width")
                    #expect(close(layout.rowFrames[index + 1].minY - layout.rowFrames[index].maxY, configuration.rowGap, scale: width), "\(label)")
                } else {
                    #expect(frames[0].height <= configuration.targetRowHeight * (1 + 1e-12), "\(label)")
                    #expect(frames.last!.maxX <= right + 1e-9 * width, "\(label)")
                }
            }
            let all = layout.frames
            var overlapping = false
            for a in all.indices { for b in (a + 1)..<all.count where all[a].intersects(all[b]) { overlapping = true } }
            #expect(!overlapping, "\(label)")
            // Queries give what a scan gives.
            for _ in 0..<50 {
                let rect = Rect(x: random.double(-20...width), y: random.double(-20...(layout.contentSize.height + 20)),
                                width: random.double(0...width), height: random.double(0...500))
                #expect(layout.indices(intersecting: rect) == all.indices.filter { all[$0].intersects(rect) }, "\(label)")
            }
        }
    }

    @Test("each row is closed where its height is closest to the target (brute force over the break points)", arguments: 1...8)
    func rowBreaks(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0xB8EA_C5)
        let configuration = JustifiedConfiguration(targetRowHeight: 200, itemGap: 8, rowGap: 8)
        let sizes = randomSizes(80, using: &random)
        let width = 1200.0
        let layout = try JustifiedLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
        let ratios = layout.aspectRatios
        var start = 0
        for row in layout.rows.dropLast() {
            #expect(row.items.lowerBound == start)
            // Brute force: among all ends for this start, the rows at or below the target and the
            // one just above it, pick the height closest to the target by ratio.
            var best = start + 1
            var bestScore = Double.infinity
            var sum = 0.0
            for end in (start + 1)...ratios.count {
                sum += ratios[end - 1]
                let height = (width - Double(end - start - 1) * 8) / sum
                let score = height >= 200 ? height / 200 : 200 / height
                if end < ratios.count || height <= 200, score < bestScore || (score == bestScore && end > best) {
                    bestScore = score
                    best = end
                }
                if height <= 200 { break }
            }
            #expect(row.items.upperBound == best, "seed \(seed): row from \(start)")
            start = row.items.upperBound
        }
    }

    @Test("the horizontal waterfall is the vertical one transposed", arguments: 1...8)
    func horizontal(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x7A45)
        let (configuration, height) = randomConfiguration(using: &random)
        let sizes = randomSizes(random.int(0...120), using: &random)
        let horizontal = try HorizontalWaterfallLayout(itemSizes: sizes, configuration: configuration, containerHeight: height)
        // The vertical layout of the transposed items, computed here independently, transposed.
        var transposedConfiguration = configuration
        transposedConfiguration.insets = Insets(
            top: configuration.insets.left, left: configuration.insets.top,
            bottom: configuration.insets.right, right: configuration.insets.bottom)
        let vertical = try WaterfallLayout(
            itemSizes: sizes.map { Size(width: $0.height, height: $0.width) }, configuration: transposedConfiguration,
            containerWidth: height)
        let expected = vertical.frames.map { Rect(x: $0.y, y: $0.x, width: $0.height, height: $0.width) }
        #expect(horizontal.frames == expected)
        #expect(horizontal.contentSize == Size(width: vertical.contentSize.height, height: height))
        // Items keep their aspect ratio, rows have one height, nothing overlaps.
        for (frame, size) in zip(horizontal.frames, sizes) {
            #expect(close(frame.height / frame.width, referenceRatio(size), scale: 1, tolerance: 1e-6))
            #expect(close(frame.height, horizontal.rowHeight, scale: height))
        }
        let frames = horizontal.frames
        for a in frames.indices { for b in (a + 1)..<frames.count { #expect(!frames[a].intersects(frames[b])) } }
        for _ in 0..<60 {
            let rect = Rect(x: random.double(-20...horizontal.contentSize.width), y: random.double(-20...height),
                            width: random.double(0...800), height: random.double(0...height))
            #expect(horizontal.indices(intersecting: rect) == frames.indices.filter { frames[$0].intersects(rect) })
        }
    }

    @Test("horizontal sections and justified columns are their vertical layouts transposed", arguments: 1...6)
    func horizontalSectionsAndColumns(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x5A7E)
        let height = random.double(300...1500)
        let configuration = WaterfallConfiguration(columns: .count(random.int(1...5)), insets: Insets(top: 3, left: 5, bottom: 7, right: 11), columnGap: 6, rowGap: 4)
        let sections = (0..<random.int(1...5)).map { _ in
            WaterfallSection(headerHeight: random.double(0...50), itemSizes: randomSizes(random.int(0...30), using: &random))
        }
        let sideways = try HorizontalSectionedLayout(sections: sections, configuration: configuration, containerHeight: height)
        var transposedConfiguration = configuration
        transposedConfiguration.insets = Insets(top: 5, left: 3, bottom: 11, right: 7)
        let vertical = try SectionedLayout(
            sections: sections.map { WaterfallSection(headerHeight: $0.headerHeight, itemSizes: $0.itemSizes.map { Size(width: $0.height, height: $0.width) }) },
            configuration: transposedConfiguration, containerWidth: height)
        #expect(sideways.frames == vertical.frames.map { Rect(x: $0.y, y: $0.x, width: $0.height, height: $0.width) })
        #expect(sideways.headerFrames == vertical.headerFrames.map { Rect(x: $0.y, y: $0.x, width: $0.height, height: $0.width) })
        // Headers are left of their items, and sections go left to right.
        for section in 0..<vertical.sectionCount {
            for item in vertical.sectionStarts[section]..<vertical.sectionStarts[section + 1] {
                #expect(sideways.frames[item].minX >= sideways.headerFrames[section].maxX)
            }
        }
        let frames = sideways.frames
        for _ in 0..<40 {
            let rect = Rect(x: random.double(-20...sideways.contentSize.width), y: random.double(-20...height),
                            width: random.double(0...900), height: random.double(0...height))
            #expect(sideways.indices(intersecting: rect).items == frames.indices.filter { frames[$0].intersects(rect) })
        }

        let sizes = randomSizes(random.int(0...100), using: &random)
        let justified = JustifiedConfiguration(targetRowHeight: random.double(60...300), itemGap: 5, rowGap: 9)
        let strip = try HorizontalJustifiedLayout(itemSizes: sizes, configuration: justified, containerHeight: height)
        let upright = try JustifiedLayout(itemSizes: sizes.map { Size(width: $0.height, height: $0.width) }, configuration: justified, containerWidth: height)
        #expect(strip.frames == upright.frames.map { Rect(x: $0.y, y: $0.x, width: $0.height, height: $0.width) })
        // Every column but the last fills the height exactly.
        for column in upright.rows.dropLast() {
            #expect(close(strip.frames[column.items.upperBound - 1].maxY, height, scale: height))
        }
        let stripFrames = strip.frames
        for _ in 0..<40 {
            let rect = Rect(x: random.double(-20...strip.contentSize.width), y: random.double(-20...height),
                            width: random.double(0...900), height: random.double(0...height))
            #expect(strip.indices(intersecting: rect) == stripFrames.indices.filter { stripFrames[$0].intersects(rect) })
        }
    }
}
