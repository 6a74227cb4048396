import Testing
import Waterfall

/// Small layouts whose expected frames were worked out by hand (all values are exact in
/// binary floating point, so the comparisons are exact).
@Suite("Hand-computed layouts")
struct HandComputedTests {
    @Test("defaults are those of seed 001: three columns, every margin and gap 10, no header or footer")
    func defaults() {
        let configuration = WaterfallConfiguration()
        #expect(configuration.columns == .count(3))
        #expect(configuration.insets == Insets(top: 10, left: 10, bottom: 10, right: 10))
        #expect(configuration.columnGap == 10 && configuration.rowGap == 10)
        #expect(configuration.headerHeight == 0 && configuration.footerHeight == 0)
        #expect(Insets(all: 4) == Insets(top: 4, left: 4, bottom: 4, right: 4))
        #expect(Insets.zero == Insets(top: 0, left: 0, bottom: 0, right: 0))
    }

    @Test("three columns of 100: frames, column choice, column bottoms, content size, placements")
    func threeColumns() throws {
        // Container 340: column width = (340 - 10 - 10 - 2·10) / 3 = 100; columns at x 10, 120, 230.
        let sizes = [
            Size(width: 100, height: 50),   // ratio 0.5  -> 50
            Size(width: 200, height: 200),  // ratio 1    -> 100
            Size(width: 50, height: 100),   // ratio 2    -> 200
            Size(width: 100, height: 25),   // ratio 0.25 -> 25
            Size(width: 10, height: 10),    // ratio 1    -> 100
        ]
        let layout = try WaterfallLayout(itemSizes: sizes, configuration: WaterfallConfiguration(), containerWidth: 340)
        #expect(layout.columnCount == 3)
        #expect(layout.columnWidth == 100)
        #expect(layout.columnGap == 10)
        #expect(layout.insets == Insets(all: 10))
        #expect(layout.columnsTop == 10)
        #expect(layout.columnMinX == [10, 120, 230])
        #expect(layout.aspectRatios == [0.5, 1, 2, 0.25, 1])
        #expect(layout.frames == [
            Rect(x: 10, y: 10, width: 100, height: 50),    // all empty: leftmost; bottoms 60, 10, 10
            Rect(x: 120, y: 10, width: 100, height: 100),  // bottoms 60, 110, 10
            Rect(x: 230, y: 10, width: 100, height: 200),  // bottoms 60, 110, 210
            Rect(x: 10, y: 70, width: 100, height: 25),    // column 0 (60) is the shortest; 95, 110, 210
            Rect(x: 10, y: 105, width: 100, height: 100),  // column 0 (95) again; 205, 110, 210
        ])
        #expect(layout.placements == [
            Placement(column: 0, aspectRatioSumAbove: 0, itemsAbove: 0),
            Placement(column: 1, aspectRatioSumAbove: 0, itemsAbove: 0),
            Placement(column: 2, aspectRatioSumAbove: 0, itemsAbove: 0),
            Placement(column: 0, aspectRatioSumAbove: 0.5, itemsAbove: 1),
            Placement(column: 0, aspectRatioSumAbove: 0.75, itemsAbove: 2),
        ])
        #expect(layout.columnHeights == [205, 110, 210])
        #expect(layout.contentSize == Size(width: 340, height: 220))
        #expect(layout.headerFrame == nil && layout.footerFrame == nil)
    }

    @Test("ties go to the leftmost column, at the start and later on")
    func ties() throws {
        let squares = Array(repeating: Size(width: 1, height: 1), count: 7)
        let first = try WaterfallLayout(itemSizes: squares, configuration: WaterfallConfiguration(), containerWidth: 340)
        #expect(first.placements.map(\.column) == [0, 1, 2, 0, 1, 2, 0])

        // Column width 100. Ratios 1, 0.5, 1 give bottoms 110, 60, 110; a 0.5 in column 1
        // makes them 110, 120, 110: a tie between columns 0 and 2, which column 0 wins.
        // Then 220, 120, 110: column 2.
        let sizes = [Size(width: 2, height: 2), Size(width: 2, height: 1), Size(width: 2, height: 2),
                     Size(width: 2, height: 1), Size(width: 2, height: 2), Size(width: 2, height: 2)]
        let later = try WaterfallLayout(itemSizes: sizes, configuration: WaterfallConfiguration(), containerWidth: 340)
        #expect(later.placements.map(\.column) == [0, 1, 2, 1, 0, 2])
        #expect(later.frames[4] == Rect(x: 10, y: 120, width: 100, height: 100))
        #expect(later.frames[5] == Rect(x: 230, y: 120, width: 100, height: 100))
    }

    @Test("header and footer surround the columns; uneven insets frame everything")
    func headerAndFooter() throws {
        let configuration = WaterfallConfiguration(
            columns: .count(2), insets: Insets(top: 5, left: 7, bottom: 11, right: 3), columnGap: 4, rowGap: 6,
            headerHeight: 40, footerHeight: 20)
        // Column width = (100 - 7 - 3 - 4) / 2 = 43; columns' top = 5 + 40 + 6 = 51.
        let layout = try WaterfallLayout(
            itemSizes: [Size(width: 43, height: 43), Size(width: 43, height: 86)], configuration: configuration,
            containerWidth: 100)
        #expect(layout.columnWidth == 43)
        #expect(layout.columnsTop == 51)
        #expect(layout.headerFrame == Rect(x: 7, y: 5, width: 90, height: 40))
        #expect(layout.frames == [Rect(x: 7, y: 51, width: 43, height: 43), Rect(x: 54, y: 51, width: 43, height: 86)])
        #expect(layout.columnHeights == [94, 137])
        // Footer: tallest column (137) + row gap 6; content: footer bottom 163 + bottom inset 11.
        #expect(layout.footerFrame == Rect(x: 7, y: 143, width: 90, height: 20))
        #expect(layout.contentSize == Size(width: 100, height: 174))
    }

    @Test("one column with uneven insets")
    func oneColumn() throws {
        let configuration = WaterfallConfiguration(
            columns: .count(1), insets: Insets(top: 3, left: 20, bottom: 7, right: 30), columnGap: 99, rowGap: 10)
        // Column width = 200 - 20 - 30 = 150 (the column gap plays no part).
        let layout = try WaterfallLayout(
            itemSizes: [Size(width: 4, height: 2), Size(width: 2, height: 3)], configuration: configuration,
            containerWidth: 200)
        #expect(layout.frames == [Rect(x: 20, y: 3, width: 150, height: 75), Rect(x: 20, y: 88, width: 150, height: 225)])
        #expect(layout.placements[1] == Placement(column: 0, aspectRatioSumAbove: 0.5, itemsAbove: 1))
        #expect(layout.contentSize == Size(width: 200, height: 320))
    }

    @Test(
        "no items: the content is the insets, plus the header and footer",
        arguments: [
            // (header, footer, columns' top, footer y, content height) for insets 10, row gap 10.
            (0.0, 0.0, 10.0, nil as Double?, 20.0),
            (30, 0, 50, nil, 60),  // 10 + 30 + gap 10 = 50 is the (empty) columns' top; + 10
            (0, 15, 10, 10, 35),   // no items, so no gap above the footer
            (30, 15, 50, 50, 75),
        ])
    func empty(header: Double, footer: Double, columnsTop: Double, footerY: Double?, height: Double) throws {
        let layout = try WaterfallLayout(
            itemSizes: [], configuration: WaterfallConfiguration(headerHeight: header, footerHeight: footer),
            containerWidth: 300)
        #expect(layout.frames.isEmpty && layout.placements.isEmpty && layout.aspectRatios.isEmpty)
        #expect(layout.columnsTop == columnsTop)
        #expect(layout.columnHeights == [columnsTop, columnsTop, columnsTop])
        #expect(layout.headerFrame == (header > 0 ? Rect(x: 10, y: 10, width: 280, height: header) : nil))
        #expect(layout.footerFrame == footerY.map { Rect(x: 10, y: $0, width: 280, height: footer) })
        #expect(layout.contentSize == Size(width: 300, height: height))
        #expect(layout.indices(intersecting: Rect(x: -1000, y: -1000, width: 5000, height: 5000)).isEmpty)
    }

    @Test("zero gaps and insets: items touch but do not intersect")
    func zeroSpacing() throws {
        let configuration = WaterfallConfiguration(columns: .count(4), insets: .zero, columnGap: 0, rowGap: 0)
        let layout = try WaterfallLayout(
            itemSizes: Array(repeating: Size(width: 1, height: 1), count: 8), configuration: configuration,
            containerWidth: 400)
        #expect(layout.frames.map(\.x) == [0, 100, 200, 300, 0, 100, 200, 300])
        #expect(layout.frames.map(\.y) == [0, 0, 0, 0, 100, 100, 100, 100])
        #expect(layout.contentSize == Size(width: 400, height: 200))
        #expect(!layout.frames[0].intersects(layout.frames[1]))
        #expect(!layout.frames[0].intersects(layout.frames[4]))
    }
}

@Suite("Rect")
struct RectTests {
    static let box = Rect(x: 10, y: 20, width: 30, height: 40)  // 10...40 × 20...60

    @Test("edges", arguments: [Rect(x: -5, y: 0, width: 10, height: 2)])
    func edges(rect: Rect) {
        #expect(rect.minX == -5 && rect.maxX == 5 && rect.minY == 0 && rect.maxY == 2)
    }

    @Test(
        "touching edges or corners do not intersect",
        arguments: [
            Rect(x: 40, y: 20, width: 10, height: 40),  // right neighbour
            Rect(x: 0, y: 20, width: 10, height: 40),   // left neighbour
            Rect(x: 10, y: 60, width: 30, height: 5),   // below
            Rect(x: 10, y: 0, width: 30, height: 20),   // above
            Rect(x: 40, y: 60, width: 5, height: 5),    // corner
            Rect(x: 100, y: 100, width: 5, height: 5),  // far away
            Rect(x: 20, y: 60, width: 5, height: 0),    // a line on the bottom edge
            Rect(x: .nan, y: 30, width: 5, height: 5),
        ])
    func apart(other: Rect) {
        #expect(!Self.box.intersects(other))
        #expect(!other.intersects(Self.box))
    }

    @Test(
        "overlapping interiors intersect",
        arguments: [
            Rect(x: 39, y: 59, width: 10, height: 10),  // overlaps a corner by 1
            Rect(x: 15, y: 25, width: 1, height: 1),    // inside
            Rect(x: 0, y: 0, width: 100, height: 100),  // contains it
            RectTests.box,                                    // itself
            Rect(x: 0, y: 30, width: 100, height: 0),   // a horizontal line across it
        ])
    func overlapping(other: Rect) {
        #expect(Self.box.intersects(other))
        #expect(other.intersects(Self.box))
    }
}
