import TestSupport
import Testing
import Waterfall

@testable import SiteGenerator

/// The custom properties of a tile style, parsed back.
func properties(_ style: String) -> [String: Double] {
    var result: [String: Double] = [:]
    for part in style.split(separator: ";") {
        let pair = part.split(separator: ":", maxSplits: 1)
        if pair.count == 2, let value = Double(pair[1]) { result[String(pair[0])] = value }
    }
    return result
}

@Suite("The album wall: CSS placement from the engine")
struct AlbumWallTests {
    static let breakpoints = [
        ColumnBreakpoint(minWidth: 0, columns: 2), ColumnBreakpoint(minWidth: 600, columns: 3),
        ColumnBreakpoint(minWidth: 1000, columns: 4),
    ]

    func randomSizes(_ count: Int, seed: UInt64) -> [Size] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in
            Size(width: Double(Int.random(in: 100...6000, using: &random)),
                 height: Double(Int.random(in: 100...6000, using: &random)))
        }
    }

    /// Evaluates the theme's CSS formulas for tile `index` at breakpoint `b` and wall width `width`.
    func cssFrame(_ wall: AlbumWall, index: Int, breakpoint b: Int, width: Double) -> Rect {
        let p = properties(wall.tileStyle(index: index))
        let n = Double(wall.breakpoints[b].columns)
        let gap = Double(wall.gap)
        let colW = (width - (n - 1) * gap) / n
        return Rect(
            x: p["--c\(b)"]! * (colW + gap), y: p["--a\(b)"]! * colW + p["--k\(b)"]! * gap,
            width: colW, height: p["--r"]! * colW)
    }

    @Test("at each reference width the CSS places every tile where the engine's frame is", arguments: [1, 7, 200])
    func cssMatchesEngine(count: Int) throws {
        let sizes = randomSizes(count, seed: UInt64(count))
        let wall = try AlbumWall(displaySizes: sizes, breakpoints: Self.breakpoints, gap: 8)
        for (b, entry) in wall.layouts.enumerated() {
            for index in 0..<count {
                let css = cssFrame(wall, index: index, breakpoint: b, width: entry.breakpoint.referenceWidth)
                let frame = entry.frames[index]
                // Aspect ratios are written with 5 decimals: allow that rounding, summed over a column.
                let tolerance = 1e-5 * entry.columnWidth * Double(count) + 1e-6
                #expect(abs(css.x - frame.x) < 1e-6)
                #expect(abs(css.y - frame.y) <= tolerance)
                #expect(abs(css.height - frame.height) <= 1e-5 * entry.columnWidth + 1e-6)
            }
        }
    }

    @Test("at any width the CSS never overlaps two tiles", arguments: [320.0, 599, 777, 1000, 2560, 3840])
    func noOverlapAtAnyWidth(width: Double) throws {
        let sizes = randomSizes(120, seed: 42)
        let wall = try AlbumWall(displaySizes: sizes, breakpoints: Self.breakpoints, gap: 8)
        for b in wall.breakpoints.indices {
            let frames = (0..<sizes.count).map { cssFrame(wall, index: $0, breakpoint: b, width: width) }
            for i in frames.indices {
                for j in frames.indices where j > i {
                    #expect(!frames[i].intersects(frames[j]), "tiles \(i) and \(j) overlap at \(width) px")
                }
            }
        }
    }

    @Test("the CSS chooses a breakpoint per container width and sizes the wall from its columns")
    func css() throws {
        let wall = try AlbumWall(
            displaySizes: [Size(width: 100, height: 50), Size(width: 100, height: 200), Size(width: 100, height: 100)],
            breakpoints: [ColumnBreakpoint(minWidth: 0, columns: 2), ColumnBreakpoint(minWidth: 700, columns: 3)], gap: 10)
        let css = wall.css()
        #expect(css.contains(".wall{--g:10px}.wall{--n:2;height:max(calc(1.5 * var(--colw) + 1 * var(--g)),calc(2 * var(--colw) + 0 * var(--g)))}"))
        #expect(css.contains("@container wall (min-width:700px){.wall{--n:3;"))
        #expect(css.contains(".tile{--c:var(--c1);--a:var(--a1);--k:var(--k1)}"))
        // Item 2 goes under item 0 (the shorter column) with two columns, and into column 2 with three.
        #expect(wall.tileStyle(index: 2) == "--r:1;--c0:0;--a0:0.5;--k0:1;--c1:2;--a1:0;--k1:0")
        #expect(wall.isInFirstRow(index: 2))
    }

    @Test("an album with no photos has a wall of height zero")
    func empty() throws {
        let wall = try AlbumWall(displaySizes: [], breakpoints: Self.breakpoints, gap: 8)
        #expect(wall.css().contains("height:0px"))
        #expect(wall.itemCount == 0)
    }

    @Test("the sizes attribute lists the column width per breakpoint, widest first")
    func sizes() throws {
        let wall = try AlbumWall(displaySizes: [], breakpoints: Self.breakpoints, gap: 8)
        #expect(wall.sizesAttribute(pagePadding: 12) ==
            "(min-width: 1024px) calc((100vw - 48px) / 4), (min-width: 624px) calc((100vw - 40px) / 3), calc((100vw - 32px) / 2)")
    }

    @Test("a strip's and a panorama's tiles are clamped to 3:1 and 1:3, in the CSS and the frames, sections or not")
    func extremeShapesAreClamped() throws {
        let sizes = [Size(width: 300, height: 9000), Size(width: 12000, height: 400), Size(width: 800, height: 600)]
        for sections in [[], [AlbumWall.Section(start: 0, label: "A"), AlbumWall.Section(start: 2, label: "B")]] {
            let wall = try AlbumWall(displaySizes: sizes, sections: sections, breakpoints: Self.breakpoints, gap: 8)
            #expect(wall.ratioUnits == [300_000, 33_333, 75_000])
            for entry in wall.layouts {
                #expect(abs(entry.frames[0].height - 3 * entry.columnWidth) < 1e-6)
                #expect(abs(entry.frames[1].height - entry.columnWidth / 3) < 1e-6)
            }
        }
    }

    @Test("decimals are short and exact", arguments: [(150_000, "1.5"), (100_000, "1"), (1, "0.00001"), (123_456, "1.23456")])
    func decimal(units: Int, expected: String) {
        #expect(AlbumWall.decimal(units, scale: 100_000) == expected)
    }
}
