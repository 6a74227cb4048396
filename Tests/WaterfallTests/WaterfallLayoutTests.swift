import Testing
import Waterfall

/// A deterministic generator for test inputs (no Foundation).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func randomSizes(_ count: Int, seed: UInt64) -> [Size] {
    var random = SplitMix64(state: seed)
    return (0..<count).map { _ in
        Size(width: Double.random(in: 50...5000, using: &random), height: Double.random(in: 50...5000, using: &random))
    }
}

/// A straightforward reference: the rules of the seeds, written independently of the engine.
func referenceFrames(_ sizes: [Size], columns n: Int, width: Double, insets: Insets, gap: Double, rowGap: Double, top: Double) -> [Rect] {
    let columnWidth = (width - insets.left - insets.right - Double(n - 1) * gap) / Double(n)
    var bottoms = Array(repeating: top, count: n)
    var started = Array(repeating: false, count: n)
    var frames: [Rect] = []
    for size in sizes {
        var ratio = size.height / size.width
        if !(size.width > 0 && size.height > 0 && ratio.isFinite && size.width.isFinite && size.height.isFinite) { ratio = 1 }
        let column = bottoms.indices.min { bottoms[$0] < bottoms[$1] || (bottoms[$0] == bottoms[$1] && $0 < $1) }!
        let y = started[column] ? bottoms[column] + rowGap : top
        let frame = Rect(x: insets.left + Double(column) * (columnWidth + gap), y: y, width: columnWidth, height: ratio * columnWidth)
        frames.append(frame)
        bottoms[column] = frame.maxY
        started[column] = true
    }
    return frames
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance * max(1, abs(a), abs(b)) }
func close(_ a: Rect, _ b: Rect) -> Bool { close(a.x, b.x) && close(a.y, b.y) && close(a.width, b.width) && close(a.height, b.height) }

@Suite("Waterfall layout rules")
struct WaterfallLayoutTests {
    @Test("hand-computed: three columns, default margins of 10")
    func handComputed() throws {
        // Container 340: column width = (340 - 10 - 10 - 2·10) / 3 = 100.
        let sizes = [Size(width: 100, height: 50), Size(width: 200, height: 200), Size(width: 50, height: 100),
                     Size(width: 100, height: 30), Size(width: 10, height: 10)]
        let layout = try WaterfallLayout(itemSizes: sizes, configuration: WaterfallConfiguration(), containerWidth: 340)
        #expect(layout.columnCount == 3)
        #expect(layout.columnWidth == 100)
        #expect(layout.frames == [
            Rect(x: 10, y: 10, width: 100, height: 50),    // column 0 (all empty: leftmost)
            Rect(x: 120, y: 10, width: 100, height: 100),  // column 1
            Rect(x: 230, y: 10, width: 100, height: 200),  // column 2
            Rect(x: 10, y: 70, width: 100, height: 30),    // column 0 is shortest (60)
            Rect(x: 10, y: 110, width: 100, height: 100),  // column 0 (100) vs 1 (110) vs 2 (210)
        ])
        #expect(layout.columnHeights == [210, 110, 210])
        #expect(layout.contentSize == Size(width: 340, height: 220))
        #expect(layout.placements[4] == Placement(column: 0, aspectRatioSumAbove: 0.8, itemsAbove: 2))
    }

    @Test("ties go to the leftmost column")
    func ties() throws {
        let squares = Array(repeating: Size(width: 1, height: 1), count: 7)
        let layout = try WaterfallLayout(itemSizes: squares, configuration: WaterfallConfiguration(columns: .count(3)), containerWidth: 340)
        #expect(layout.placements.map(\.column) == [0, 1, 2, 0, 1, 2, 0])
    }

    @Test("header and footer surround the columns; insets frame everything")
    func headerFooter() throws {
        let configuration = WaterfallConfiguration(
            columns: .count(2), insets: Insets(top: 5, left: 7, bottom: 11, right: 3), columnGap: 4, rowGap: 6,
            headerHeight: 40, footerHeight: 20)
        // Column width = (100 - 7 - 3 - 4) / 2 = 43.
        let layout = try WaterfallLayout(
            itemSizes: [Size(width: 43, height: 43), Size(width: 43, height: 86)], configuration: configuration, containerWidth: 100)
        #expect(layout.headerFrame == Rect(x: 7, y: 5, width: 90, height: 40))
        #expect(layout.frames[0] == Rect(x: 7, y: 51, width: 43, height: 43))
        #expect(layout.frames[1] == Rect(x: 54, y: 51, width: 43, height: 86))
        #expect(layout.footerFrame == Rect(x: 7, y: 51 + 86 + 6, width: 90, height: 20))
        #expect(layout.contentSize.height == 51 + 86 + 6 + 20 + 11)
    }

    @Test("no items: content is the insets (plus header and footer)")
    func empty() throws {
        let plain = try WaterfallLayout(itemSizes: [], configuration: WaterfallConfiguration(), containerWidth: 300)
        #expect(plain.frames.isEmpty)
        #expect(plain.contentSize == Size(width: 300, height: 20))
        #expect(plain.indices(intersecting: Rect(x: 0, y: 0, width: 300, height: 300)).isEmpty)
        let framed = try WaterfallLayout(
            itemSizes: [], configuration: WaterfallConfiguration(headerHeight: 30, footerHeight: 15), containerWidth: 300)
        #expect(framed.contentSize.height == 10 + 30 + 10 + 15 + 10)
    }

    @Test(
        "unknown, zero, negative and non-finite sizes become squares, and nothing non-finite reaches a frame",
        arguments: [
            Size(width: .nan, height: 10), Size(width: 10, height: .nan), Size(width: .infinity, height: 10),
            Size(width: 10, height: -.infinity), Size(width: -5, height: 10), Size(width: 10, height: -5),
            Size(width: 0, height: 10), Size(width: 10, height: 0), Size(width: 0, height: 0),
            Size(width: .leastNonzeroMagnitude, height: .greatestFiniteMagnitude),
        ])
    func badSizes(size: Size) throws {
        let layout = try WaterfallLayout(
            itemSizes: [Size(width: 10, height: 20), size, size], configuration: WaterfallConfiguration(columns: .count(2)),
            containerWidth: 210)
        #expect(layout.aspectRatios[1] == 1)
        #expect(layout.frames[1].height == layout.columnWidth)
        for frame in layout.frames {
            #expect(frame.x.isFinite && frame.y.isFinite && frame.width.isFinite && frame.height.isFinite)
        }
        #expect(layout.contentSize.height.isFinite)
        #expect(layout.placements.allSatisfy { $0.aspectRatioSumAbove.isFinite })
    }

    @Test("random inputs match the reference, never overlap and stay inside the content", arguments: [1, 2, 3, 5, 8])
    func properties(columns: Int) throws {
        for seed in UInt64(1)...UInt64(5) {
            let sizes = randomSizes(300, seed: seed &* 31 &+ UInt64(columns))
            let configuration = WaterfallConfiguration(
                columns: .count(columns), insets: Insets(top: 3, left: 4, bottom: 5, right: 6), columnGap: 7, rowGap: 9)
            let width = 1234.0
            let layout = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: width)
            let expected = referenceFrames(sizes, columns: columns, width: width, insets: configuration.insets, gap: 7, rowGap: 9, top: 3)
            let mismatch = zip(layout.frames, expected).enumerated().first { !close($0.element.0, $0.element.1) }?.offset
            #expect(mismatch == nil, "seed \(seed): frame \(mismatch ?? -1) differs from the reference")
            for i in layout.frames.indices {
                let frame = layout.frames[i]
                #expect(frame.minX >= 4 - 1e-9 && frame.maxX <= width - 6 + 1e-9)
                #expect(frame.minY >= 3 && frame.maxY <= layout.contentSize.height - 5 + 1e-6)
                for j in (i + 1)..<layout.frames.count {
                    #expect(!frame.intersects(layout.frames[j]))
                }
                // The fluid-layout identity: y = top + A·w + k·rowGap.
                let placement = layout.placements[i]
                #expect(close(frame.y, 3 + placement.aspectRatioSumAbove * layout.columnWidth + Double(placement.itemsAbove) * 9))
                #expect(close(frame.height, layout.aspectRatios[i] * layout.columnWidth))
            }
            #expect(close(layout.contentSize.height, (expected.map(\.maxY).max() ?? 3) + 5))
        }
    }

    @Test("rectangle queries equal a brute-force scan", arguments: [1, 3, 6])
    func queries(columns: Int) throws {
        let sizes = randomSizes(2000, seed: UInt64(columns))
        let layout = try WaterfallLayout(
            itemSizes: sizes, configuration: WaterfallConfiguration(columns: .count(columns)), containerWidth: 1000)
        var random = SplitMix64(state: 99)
        let height = layout.contentSize.height
        var rects: [Rect] = [
            Rect(x: 0, y: -500, width: 1000, height: 400),             // above the content
            Rect(x: 0, y: height + 10, width: 1000, height: 400),      // below it
            Rect(x: -300, y: 0, width: 250, height: height),           // left of it
            Rect(x: 1001, y: 0, width: 50, height: height),            // right of it
            Rect(x: 0, y: 0, width: 1000, height: height),             // everything
        ]
        for _ in 0..<300 {
            rects.append(Rect(
                x: Double.random(in: -100...1100, using: &random), y: Double.random(in: -100...(height + 100), using: &random),
                width: Double.random(in: 0...600, using: &random), height: Double.random(in: 0...2000, using: &random)))
        }
        for rect in rects {
            let expected = layout.frames.indices.filter { layout.frames[$0].intersects(rect) }
            #expect(layout.indices(intersecting: rect) == expected, "\(rect)")
        }
        #expect(layout.indices(intersecting: rects[4]).count == sizes.count)
    }

    @Test("a minimum column width derives the count and spreads the leftover over the gaps")
    func minimumWidth() throws {
        // Available 400 - 20 = 380; (380 + 10) / (100 + 10) = 3.5 -> 3 columns; leftover 80 over 2 gaps = 40.
        let layout = try WaterfallLayout(
            itemSizes: randomSizes(9, seed: 1), configuration: WaterfallConfiguration(columns: .minimumWidth(100)),
            containerWidth: 400)
        #expect(layout.columnCount == 3)
        #expect(layout.columnWidth == 100)
        #expect(layout.columnGap == 40)
        #expect(Set(layout.frames.map(\.x)) == [10, 150, 290])
        // One column: centred by growing the insets.
        let single = try WaterfallLayout(
            itemSizes: [Size(width: 1, height: 1)], configuration: WaterfallConfiguration(columns: .minimumWidth(150)), containerWidth: 250)
        #expect(single.columnCount == 1)
        #expect(single.frames[0] == Rect(x: 50, y: 10, width: 150, height: 150))
        #expect(single.insets.left == 50 && single.insets.right == 50)
        #expect(throws: WaterfallError.containerTooNarrow(containerWidth: 100, columns: 1)) {
            try WaterfallLayout(itemSizes: [], configuration: WaterfallConfiguration(columns: .minimumWidth(150)), containerWidth: 100)
        }
    }

    @Test("several breakpoints from one call, sorted, each at its reference width")
    func breakpoints() throws {
        let sizes = randomSizes(50, seed: 7)
        let layouts = try WaterfallLayout.layouts(
            itemSizes: sizes,
            breakpoints: [Breakpoint(minWidth: 1000, columns: 4, referenceWidth: 1200), Breakpoint(minWidth: 0, columns: 2, referenceWidth: 400)],
            configuration: WaterfallConfiguration(insets: .zero, columnGap: 8, rowGap: 8))
        #expect(layouts.map(\.breakpoint.columns) == [2, 4])
        #expect(layouts.map(\.layout.columnCount) == [2, 4])
        #expect(layouts.map(\.layout.containerWidth) == [400, 1200])
        #expect(layouts[1].layout.columnWidth == (1200 - 24) / 4)
        let single = try WaterfallLayout(
            itemSizes: sizes, configuration: WaterfallConfiguration(columns: .count(4), insets: .zero, columnGap: 8, rowGap: 8), containerWidth: 1200)
        #expect(single.frames == layouts[1].layout.frames)
        #expect(throws: WaterfallError.noBreakpoints) {
            try WaterfallLayout.layouts(itemSizes: sizes, breakpoints: [], configuration: WaterfallConfiguration())
        }
        #expect(throws: WaterfallError.duplicateBreakpoint(minWidth: 0)) {
            try WaterfallLayout.layouts(
                itemSizes: sizes,
                breakpoints: [Breakpoint(minWidth: 0, columns: 2, referenceWidth: 400), Breakpoint(minWidth: 0, columns: 3, referenceWidth: 500)],
                configuration: WaterfallConfiguration())
        }
    }

    @Test(
        "invalid configurations are refused with a readable reason",
        arguments: [
            (WaterfallConfiguration(columns: .count(0)), 300.0, WaterfallError.invalidColumnCount(0)),
            (WaterfallConfiguration(columns: .minimumWidth(-1)), 300, .invalidMinimumColumnWidth(-1)),
            (WaterfallConfiguration(columnGap: -1), 300, .invalidSpacing(name: "column gap", value: -1)),
            (WaterfallConfiguration(rowGap: .infinity), 300, .invalidSpacing(name: "row gap", value: .infinity)),
            (WaterfallConfiguration(insets: Insets(top: -2, left: 0, bottom: 0, right: 0)), 300, .invalidSpacing(name: "top inset", value: -2)),
            (WaterfallConfiguration(headerHeight: -1), 300, .invalidSpacing(name: "header height", value: -1)),
            (WaterfallConfiguration(), 0, .invalidContainerWidth(0)),
            (WaterfallConfiguration(), -.infinity, .invalidContainerWidth(-.infinity)),
            (WaterfallConfiguration(columns: .count(10)), 100, .containerTooNarrow(containerWidth: 100, columns: 10)),
        ])
    func invalid(configuration: WaterfallConfiguration, width: Double, error: WaterfallError) {
        #expect(throws: error) {
            try WaterfallLayout(itemSizes: [Size(width: 1, height: 1)], configuration: configuration, containerWidth: width)
        }
        #expect(!error.description.isEmpty)
    }

    @Test("NaN spacing is refused too")
    func nanSpacing() {
        #expect(throws: WaterfallError.self) {
            try WaterfallLayout(itemSizes: [], configuration: WaterfallConfiguration(columnGap: .nan), containerWidth: 300)
        }
        #expect(throws: WaterfallError.self) {
            try WaterfallLayout(itemSizes: [], configuration: WaterfallConfiguration(), containerWidth: .nan)
        }
    }
}
