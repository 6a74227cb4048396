import TestSupport
import Testing
import Waterfall

@testable import SiteGenerator

/// An album in justified rows (`layout: rows`): the CSS formulas, evaluated as the theme's
/// cascade.css does, against the engine and at every width between breakpoints.
@Suite("The row wall: justified rows placed by CSS")
struct RowWallTests {
    static let breakpoints = [
        ColumnBreakpoint(minWidth: 0, columns: 2, rowHeight: 120), ColumnBreakpoint(minWidth: 600, columns: 3),
        ColumnBreakpoint(minWidth: 1000, columns: 4, rowHeight: 240), ColumnBreakpoint(minWidth: 2000, columns: 6, rowHeight: 320),
    ]

    static func wall(count: Int, seed: UInt64) throws -> AlbumWall {
        var random = SplitMix64(state: seed)
        let sizes = (0..<count).map { index -> Size in
            // Camera shapes, with a panorama and a tall strip now and then (clamped for layout).
            if index % 37 == 5 { return Size(width: 12000, height: 400) }
            if index % 41 == 7 { return Size(width: 300, height: 9000) }
            return Size(width: Double(Int.random(in: 400...6000, using: &random)), height: Double(Int.random(in: 400...6000, using: &random)))
        }
        return try AlbumWall(displaySizes: sizes, layout: .rows, breakpoints: breakpoints, gap: 8)
    }

    /// cascade.css for `.wall.is-rows .tile` at breakpoint `b` and wall width `width`.
    static func cssFrame(_ wall: AlbumWall, index: Int, breakpoint b: Int, width: Double) -> Rect {
        let p = properties(wall.tileStyle(index: index))
        let g = Double(wall.gap)
        var height = p["--w\(b)"]! * (width - p["--z\(b)"]! * g)
        if let cap = wall.tileStyle(index: index).split(separator: ";").first(where: { $0.hasPrefix("--m\(b):") }) {
            height = min(Double(cap.dropFirst("--m\(b):".count).dropLast(2))!, height)
        }
        return Rect(x: p["--p\(b)"]! * height + p["--j\(b)"]! * g, y: p["--t\(b)"]! * width + p["--y\(b)"]! * g,
                    width: p["--q"]! * height, height: height)
    }

    @Test("at each reference width the CSS puts every tile where the engine's frame is", arguments: [1, 30, 400])
    func cssMatchesEngine(count: Int) throws {
        let wall = try Self.wall(count: count, seed: UInt64(count))
        let rows = try #require(wall.rowWall)
        for (b, entry) in wall.layouts.enumerated() {
            let width = entry.breakpoint.referenceWidth
            let reference = try JustifiedLayout(
                itemSizes: rows.ratioUnits.map { Size(width: Double($0), height: Double(RowWall.ratioScale)) },
                configuration: JustifiedConfiguration(targetRowHeight: Double(rows.targets[b]), itemGap: 8, rowGap: 8),
                containerWidth: width)
            #expect(reference.rows.map(\.items.count) == rows.rowCounts(breakpoint: b))
            for index in 0..<count {
                let css = Self.cssFrame(wall, index: index, breakpoint: b, width: width)
                let frame = reference.frames[index]
                #expect(abs(css.x - frame.x) < 0.01 && abs(css.width - frame.width) < 0.01, "tile \(index) at breakpoint \(b)")
                #expect(abs(css.y - frame.y) < 0.01 * Double(1 + index), "tile \(index) at breakpoint \(b)")
            }
        }
    }

    @Test("at any width: rows of one height fill the wall exactly, nothing overlaps, the last row is at most the target",
          arguments: [320.0, 414, 599.5, 600, 777, 999, 1000, 1440, 1999, 2000, 3840])
    func rowsHoldAtAnyWidth(width: Double) throws {
        let wall = try Self.wall(count: 300, seed: 5)
        let rows = try #require(wall.rowWall)
        let b = wall.breakpoints.lastIndex { Double($0.minWidth) <= width }!
        let frames = (0..<wall.itemCount).map { Self.cssFrame(wall, index: $0, breakpoint: b, width: width) }
        var previousBottom = -Double.infinity
        for (number, row) in rows.rows[b].enumerated() {
            let tiles = Array(frames[row.start..<(row.start + row.count)])
            #expect(tiles.allSatisfy { abs($0.height - tiles[0].height) < 1e-9 && abs($0.y - tiles[0].y) < 1e-9 })
            #expect(abs(tiles[0].x) < 1e-9)
            for (a, c) in zip(tiles, tiles.dropFirst()) { #expect(abs(c.minX - a.maxX - 8) < 1e-6) }
            if row.isLast {
                #expect(tiles[0].height <= Double(rows.targets[b]) + 1e-9)
                #expect(tiles.last!.maxX <= width + 1e-6)
            } else {
                #expect(abs(tiles.last!.maxX - width) < 1e-3, "row \(number) ends at \(tiles.last!.maxX) in \(width)")
            }
            #expect(tiles[0].minY >= previousBottom + 8 - 1e-6, "row \(number) overlaps the row above")
            #expect(abs(tiles[0].minY - (previousBottom.isFinite ? previousBottom + 8 : 0)) < 1e-6)
            previousBottom = tiles[0].maxY
        }
        // Each photo keeps its (clamped) ratio.
        for (index, frame) in frames.enumerated() {
            #expect(abs(frame.width / frame.height - Double(rows.ratioUnits[index]) / 100_000) < 1e-6)
        }
    }

    @Test("the page's CSS sizes the wall down to the last row, and marks the last row's cap")
    func css() throws {
        let wall = try Self.wall(count: 50, seed: 9)
        let css = wall.css()
        #expect(css.hasPrefix(".wall{--g:8px}.wall{height:calc("))
        #expect(css.contains("min(120px, "))
        #expect(css.contains("@container wall (min-width:600px){.wall{height:calc("))
        #expect(css.contains(".tile{--t:var(--t1);--y:var(--y1);--w:var(--w1);--z:var(--z1);--p:var(--p1);--j:var(--j1);--m:var(--m1)}"))
        // The row height of a breakpoint without one is the default's for its width.
        #expect(wall.rowWall?.targets == [120, 180, 240, 320])
        #expect(wall.isInFirstRow(index: 0))
        #expect(!wall.isInFirstRow(index: 49))
    }
}
