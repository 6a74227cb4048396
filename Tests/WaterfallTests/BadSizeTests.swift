import Testing
import Waterfall

/// Unknown and broken sizes become squares; nothing non-finite ever reaches the output.
@Suite("Bad item sizes")
struct BadSizeTests {
    @Test("each bad size is laid out as a square and every output is finite", arguments: badSizes)
    func square(size: Size) throws {
        // Two columns of 100 (container 230): a 10×20 item (ratio 2), then the bad one twice.
        let layout = try WaterfallLayout(
            itemSizes: [Size(width: 10, height: 20), size, size],
            configuration: WaterfallConfiguration(columns: .count(2), headerHeight: 5, footerHeight: 5),
            containerWidth: 230)
        #expect(layout.aspectRatios == [2, 1, 1])
        #expect(layout.frames == [
            Rect(x: 10, y: 25, width: 100, height: 200),
            Rect(x: 120, y: 25, width: 100, height: 100),
            Rect(x: 120, y: 135, width: 100, height: 100),
        ])
        #expect(layout.placements[2] == Placement(column: 1, aspectRatioSumAbove: 1, itemsAbove: 1))
        #expect(layout.frames.allSatisfy { $0.isFinite })
        #expect(layout.placements.allSatisfy { $0.aspectRatioSumAbove.isFinite })
        #expect(layout.columnHeights.allSatisfy { $0.isFinite })
        #expect(layout.footerFrame?.isFinite == true && layout.headerFrame?.isFinite == true)
        #expect(layout.contentSize.width.isFinite && layout.contentSize.height.isFinite)
        #expect(WaterfallLayout.aspectRatio(of: size) == 1)
    }

    @Test("a layout of only bad sizes equals a layout of squares")
    func allBad() throws {
        let configuration = WaterfallConfiguration(columns: .count(4))
        let bad = try WaterfallLayout(itemSizes: badSizes, configuration: configuration, containerWidth: 800)
        let squares = try WaterfallLayout(
            itemSizes: Array(repeating: Size(width: 7, height: 7), count: badSizes.count), configuration: configuration,
            containerWidth: 800)
        #expect(bad.frames == squares.frames)
        #expect(bad.placements == squares.placements)
        #expect(bad.contentSize == squares.contentSize)
    }

    @Test("extreme but valid ratios are kept", arguments: [(1.0, 1e-6), (1e-6, 1.0), (3.0, 1e5)])
    func extremeRatios(width: Double, height: Double) throws {
        let layout = try WaterfallLayout(
            itemSizes: [Size(width: width, height: height)], configuration: WaterfallConfiguration(columns: .count(1)),
            containerWidth: 120)
        #expect(layout.aspectRatios == [height / width])
        #expect(layout.frames[0].height == height / width * 100)
    }

    @Test("a layout too tall for a finite number is refused instead of producing infinities")
    func overflow() {
        let hugeRatio = Array(repeating: Size(width: 1, height: 1e307), count: 4)
        #expect(caught { try WaterfallLayout(itemSizes: hugeRatio, configuration: WaterfallConfiguration(), containerWidth: 340) }
            == .layoutTooLarge)
        let hugeSpacing = WaterfallConfiguration(
            insets: Insets(top: 1e308, left: 0, bottom: 1e308, right: 0), headerHeight: 1e308)
        #expect(caught { try WaterfallLayout(itemSizes: [], configuration: hugeSpacing, containerWidth: 340) } == .layoutTooLarge)
    }
}
