import Testing
import Waterfall
import TestSupport

/// `indices(intersecting:)` against a brute-force scan.
@Suite("Rectangle queries")
struct QueryTests {
    static func bruteForce(_ layout: WaterfallLayout, _ rect: Rect) -> [Int] {
        layout.frames.indices.filter { layout.frames[$0].intersects(rect) }
    }

    /// Rectangles around, across and inside a layout, including degenerate ones.
    static func probes(for layout: WaterfallLayout, using random: inout SplitMix64) -> [Rect] {
        let width = layout.containerWidth
        let height = layout.contentSize.height
        var rects: [Rect] = [
            Rect(x: 0, y: -500, width: width, height: 400),             // above the content
            Rect(x: 0, y: -500, width: width, height: 500),             // ends exactly at its top
            Rect(x: 0, y: height + 10, width: width, height: 400),      // below it
            Rect(x: 0, y: height, width: width, height: 400),           // starts exactly at its bottom
            Rect(x: -300, y: 0, width: 250, height: height),            // left of it
            Rect(x: width + 1, y: 0, width: 50, height: height),        // right of it
            Rect(x: 0, y: 0, width: width, height: height),             // all of it
            Rect(x: -1e9, y: -1e9, width: 3e9, height: 3e9),            // more than all of it
            Rect(x: 0, y: height / 2, width: width, height: 0),         // a horizontal line
            Rect(x: width / 2, y: 0, width: 0, height: height),         // a vertical line
            Rect(x: width / 3, y: height / 3, width: 0, height: 0),     // a point
            Rect(x: width, y: height, width: -width, height: -height),  // negative size
            Rect(x: .nan, y: 0, width: width, height: height),
            Rect(x: 0, y: .nan, width: width, height: height),
            Rect(x: 0, y: 0, width: .infinity, height: .infinity),
            Rect(x: -.infinity, y: -.infinity, width: .infinity, height: .infinity),
            Rect(x: 0, y: -.infinity, width: width, height: .infinity),
        ]
        // Rectangles and lines lying exactly on frame edges, where "touching" matters.
        for _ in 0..<40 where !layout.frames.isEmpty {
            let frame = layout.frames[random.int(0...(layout.frames.count - 1))]
            rects.append(Rect(x: 0, y: frame.maxY, width: width, height: random.double(0...300)))
            rects.append(Rect(x: 0, y: frame.minY - 50, width: width, height: 50))
            rects.append(Rect(x: frame.minX, y: frame.minY, width: 0, height: frame.height))
            rects.append(Rect(x: frame.maxX, y: frame.minY, width: random.double(0...100), height: frame.height))
            rects.append(Rect(x: frame.minX, y: frame.maxY, width: frame.width, height: 0))
            rects.append(Rect(x: frame.minX, y: (frame.minY + frame.maxY) / 2, width: frame.width, height: 0))
        }
        for _ in 0..<400 {
            let zeroHeight = random.chance(0.15)
            rects.append(Rect(
                x: random.double(-200...(width + 200)), y: random.double(-300...(height + 300)),
                width: random.double(0...(width / 2)), height: zeroHeight ? 0 : random.double(0...(height / 3))))
        }
        return rects
    }

    @Test("random layouts: every query equals a brute-force scan", arguments: 1...8)
    func matchesBruteForce(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &+ 1000)
        let (configuration, width) = randomConfiguration(using: &random)
        let sizes = randomSizes(random.int(0...1500), using: &random, badShare: 0.02)
        let layout = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
        var failures: [Rect] = []
        for rect in Self.probes(for: layout, using: &random) where layout.indices(intersecting: rect) != Self.bruteForce(layout, rect) {
            failures.append(rect)
        }
        #expect(failures.isEmpty, "queries differing from the brute force: \(failures.prefix(3))")
    }

    @Test("queries in minimum-width layouts (spread gaps, centred single column)", arguments: [90.0, 150, 400])
    func minimumWidthQueries(minimum: Double) throws {
        var random = SplitMix64(seed: UInt64(minimum))
        let sizes = randomSizes(600, using: &random)
        let layout = try WaterfallLayout(
            itemSizes: sizes, configuration: WaterfallConfiguration(columns: .minimumWidth(minimum)), containerWidth: 777)
        for rect in Self.probes(for: layout, using: &random) {
            #expect(layout.indices(intersecting: rect) == Self.bruteForce(layout, rect), "\(rect)")
        }
    }

    @Test("known answers: the whole content, nothing outside it, one column's strip")
    func knownAnswers() throws {
        var random = SplitMix64(seed: 5)
        let sizes = randomSizes(300, using: &random)
        let layout = try WaterfallLayout(itemSizes: sizes, configuration: WaterfallConfiguration(), containerWidth: 1000)
        let height = layout.contentSize.height
        #expect(layout.indices(intersecting: Rect(x: 0, y: 0, width: 1000, height: height)) == Array(sizes.indices))
        #expect(layout.indices(intersecting: Rect(x: 0, y: height, width: 1000, height: 100)).isEmpty)
        #expect(layout.indices(intersecting: Rect(x: 0, y: -100, width: 1000, height: 100 + 10)).isEmpty)  // ends at the columns' top
        #expect(layout.indices(intersecting: Rect(x: 0, y: 0, width: 10, height: height)).isEmpty)  // the left inset
        let strip = layout.indices(intersecting: Rect(x: layout.columnMinX[1] + 1, y: 0, width: 1, height: height))
        #expect(strip == sizes.indices.filter { layout.placements[$0].column == 1 })
    }

    @Test("queries do not scan every item: far cheaper than a brute-force scan on a large layout")
    func sublinear() throws {
        var random = SplitMix64(seed: 9)
        let sizes = randomSizes(200_000, using: &random)
        let layout = try WaterfallLayout(
            itemSizes: sizes, configuration: WaterfallConfiguration(columns: .count(6)), containerWidth: 1200)
        let height = layout.contentSize.height
        let rects = (0..<50).map { _ in Rect(x: 0, y: random.double(0...height), width: 1200, height: 800) }
        let clock = ContinuousClock()
        var bruteFound = 0
        let brute = clock.measure {
            for rect in rects { bruteFound += Self.bruteForce(layout, rect).count }
        }
        let repetitions = 20
        var found = 0
        let engine = clock.measure {
            for _ in 0..<repetitions {
                for rect in rects { found += layout.indices(intersecting: rect).count }
            }
        }
        #expect(found == bruteFound * repetitions)
        // A scan touches 200 000 frames per query; the binary searches about 6 · 18 plus the
        // ~30 hits. Asking for a per-query cost 20 times lower than the scan's leaves a wide
        // margin for noisy timing, yet fails for any implementation that scans every item.
        #expect(engine / repetitions * 20 < brute, "engine \(engine / repetitions) vs brute force \(brute) per 50 queries")
    }
}
