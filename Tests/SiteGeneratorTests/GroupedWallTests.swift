import TestSupport
import Testing
import Waterfall

@testable import SiteGenerator

/// A grouped album's wall (sections by date): the CSS formulas against the engine, and no
/// tile over another or over a header at any width.
@Suite("The grouped album wall: sections placed by CSS")
struct GroupedWallTests {
    static let breakpoints = [
        ColumnBreakpoint(minWidth: 0, columns: 2), ColumnBreakpoint(minWidth: 600, columns: 3),
        ColumnBreakpoint(minWidth: 1000, columns: 4), ColumnBreakpoint(minWidth: 1600, columns: 6),
    ]

    static func wall(count: Int, seed: UInt64) throws -> AlbumWall {
        var random = SplitMix64(state: seed)
        let sizes = (0..<count).map { _ in
            Size(width: Double(Int.random(in: 100...6000, using: &random)), height: Double(Int.random(in: 100...6000, using: &random)))
        }
        var sections: [AlbumWall.Section] = []
        var start = 0
        while start < count {
            sections.append(AlbumWall.Section(start: start, label: "Day \(sections.count)"))
            start += Int.random(in: 1...9, using: &random)
        }
        return try AlbumWall(displaySizes: sizes, sections: sections, breakpoints: breakpoints, gap: 8)
    }

    /// The theme's formulas (cascade.css, `.wall.is-grouped .tile` and `.section`) at breakpoint
    /// `b` and wall width `width`: every tile's frame and every section's box.
    static func cssFrames(_ wall: AlbumWall, breakpoint b: Int, width: Double, rendered: Int? = nil)
        -> (tiles: [Rect], boxes: [Rect], heads: [Rect])
    {
        let n = Double(wall.breakpoints[b].columns)
        let gap = Double(wall.gap)
        let hh = Double(AlbumWall.sectionHeaderHeight)
        let colW = (width - (n - 1) * gap) / n
        let tiles = (0..<wall.itemCount).map { index in
            let p = properties(wall.tileStyle(index: index))
            return Rect(
                x: p["--c\(b)"]! * (colW + gap), y: p["--a\(b)"]! * colW + p["--k\(b)"]! * gap + p["--s"]! * hh,
                width: colW, height: p["--r"]! * colW)
        }
        var boxes: [Rect] = []
        var heads: [Rect] = []
        for section in wall.sections.indices {
            let p = properties(wall.sectionStyle(section, renderedCount: rendered))
            let top = p["--a\(b)"]! * colW + p["--k\(b)"]! * gap + p["--s"]! * hh
            boxes.append(Rect(x: 0, y: top, width: width, height: hh + p["--e\(b)"]! * colW + p["--f\(b)"]! * gap))
            heads.append(Rect(x: 0, y: top, width: width, height: hh))
        }
        return (tiles, boxes, heads)
    }

    @Test("at each reference width the CSS puts every tile and header where the engine's frames are", arguments: [1, 9, 150])
    func cssMatchesEngine(count: Int) throws {
        let wall = try Self.wall(count: count, seed: UInt64(count))
        #expect(wall.isGrouped)
        for (b, entry) in wall.layouts.enumerated() {
            let css = Self.cssFrames(wall, breakpoint: b, width: entry.breakpoint.referenceWidth)
            let tolerance = 1e-5 * entry.columnWidth * Double(count) + 1e-6
            for index in 0..<count {
                #expect(abs(css.tiles[index].x - entry.frames[index].x) < 1e-6)
                #expect(abs(css.tiles[index].y - entry.frames[index].y) <= tolerance, "tile \(index) at breakpoint \(b)")
            }
            for (section, header) in entry.headerFrames.enumerated() {
                #expect(abs(css.heads[section].y - header.y) <= tolerance, "header \(section) at breakpoint \(b)")
            }
            #expect(abs((css.boxes.last?.maxY ?? 0) - entry.contentHeight) <= tolerance)
        }
    }

    @Test("at any width no tile overlaps another or a header; each section's tiles are inside its box, below its header",
          arguments: [320.0, 599, 600, 777, 999.5, 1000, 1599, 2560, 3840])
    func noOverlapAtAnyWidth(width: Double) throws {
        let wall = try Self.wall(count: 160, seed: 42)
        let b = wall.breakpoints.lastIndex { Double($0.minWidth) <= width }!
        let css = Self.cssFrames(wall, breakpoint: b, width: width)
        let slack = 1e-6
        func overlap(_ a: Rect, _ c: Rect) -> Bool {
            a.minX < c.maxX - slack && c.minX < a.maxX - slack && a.minY < c.maxY - slack && c.minY < a.maxY - slack
        }
        let all = css.tiles + css.heads
        for i in all.indices {
            for j in all.indices where j > i {
                #expect(!overlap(all[i], all[j]), "\(i) and \(j) overlap at \(width) px")
            }
        }
        for section in wall.sections.indices {
            let end = section + 1 < wall.sections.count ? wall.sections[section + 1].start : wall.itemCount
            for index in wall.sections[section].start..<end {
                #expect(css.tiles[index].minY >= css.heads[section].maxY + Double(wall.gap) - slack)
                #expect(css.tiles[index].maxY <= css.boxes[section].maxY + slack, "tile \(index) leaves its section at \(width) px")
            }
            if section > 0 {
                #expect(css.boxes[section].minY >= css.boxes[section - 1].maxY + Double(wall.gap) - slack)
            }
        }
    }

    @Test("the wall's CSS and the static page's partial wall hold every rendered tile")
    func partialWall() throws {
        let wall = try Self.wall(count: 60, seed: 7)
        let css = wall.css(renderedCount: 25)
        #expect(css.contains(".wall{--g:8px;--hh:44px}"))
        #expect(css.contains(".section{--a:var(--a0);--k:var(--k0);--e:var(--e0);--f:var(--f0)}"))
        #expect(css.contains(".wall.is-full{height:calc("))
        // The last rendered section's box holds only its rendered tiles.
        let frames = Self.cssFrames(wall, breakpoint: 0, width: 400, rendered: 25)
        let last = wall.sections.lastIndex { $0.start < 25 }!
        let bottom = (wall.sections[last].start..<25).map { frames.tiles[$0].maxY }.max()!
        #expect(bottom <= frames.boxes[last].maxY + 1e-6)
        #expect(frames.boxes[last].maxY - bottom < 8 * 9 + 1e-6 + (frames.tiles.map(\.height).max() ?? 0))
    }

    @Test("a plain wall's styles and CSS are unchanged by the sections code")
    func plainUnchanged() throws {
        let wall = try AlbumWall(
            displaySizes: [Size(width: 100, height: 50), Size(width: 100, height: 200), Size(width: 100, height: 100)],
            breakpoints: [ColumnBreakpoint(minWidth: 0, columns: 2)], gap: 10)
        #expect(!wall.isGrouped)
        #expect(wall.tileStyle(index: 2) == "--r:1;--c0:0;--a0:0.5;--k0:1")
        #expect(!wall.css().contains("--hh") && !wall.css().contains(".section"))
        #expect(wall.section(startingAt: 0) == nil)
    }
}
