import Testing
import Waterfall
import TestSupport

/// Sections: each a waterfall of its own under its header, against a brute-force reference.
@Suite("Sections on random inputs")
struct SectionTests {
    /// A reference written from the rules: each section is the plain reference layout of its
    /// items, moved below the previous section; a section's bottom is its largest ratio sum
    /// times the column width plus its largest count of gaps (its linear bound).
    static func reference(_ sections: [WaterfallSection], _ configuration: WaterfallConfiguration, width: Double)
        -> (frames: [Rect], headers: [Rect], height: Double)
    {
        guard case .count(let n) = configuration.columns else { fatalError("count only") }
        let i = configuration.insets
        let w = (width - i.left - i.right - Double(n - 1) * configuration.columnGap) / Double(n)
        let g = configuration.rowGap
        var frames: [Rect] = []
        var headers: [Rect] = []
        var y = i.top
        for (index, section) in sections.enumerated() {
            if index > 0 { y += g }
            headers.append(Rect(x: i.left, y: y, width: width - i.left - i.right, height: section.headerHeight))
            var top = y + section.headerHeight
            if section.headerHeight > 0 && !section.itemSizes.isEmpty { top += g }
            let plain = referenceLayout(
                section.itemSizes, columns: n, columnWidth: w, left: i.left, gap: configuration.columnGap,
                top: top, bottom: 0, contentWidth: 0, rowGap: g, header: 0, footer: 0)
            frames += plain.frames
            var sums = Array(repeating: 0.0, count: n)
            var counts = Array(repeating: 0, count: n)
            for (item, column) in plain.columns.enumerated() {
                sums[column] += referenceRatio(section.itemSizes[item])
                counts[column] += 1
            }
            y = section.itemSizes.isEmpty ? y + section.headerHeight
                : top + sums.max()! * w + Double(counts.max()! - 1) * g
        }
        return (frames, headers, y + i.bottom)
    }

    static func randomSections(using random: inout SplitMix64) -> [WaterfallSection] {
        (0..<random.int(0...7)).map { _ in
            let header = random.chance(0.2) ? 0 : random.double(1...60)
            let count = random.chance(0.15) ? 0 : random.int(1...40)
            return WaterfallSection(headerHeight: header, itemSizes: randomSizes(count, using: &random, badShare: 0.05))
        }
    }

    @Test("frames match the reference; nothing overlaps; sections in order; headers above their items", arguments: 1...10)
    func randomSectioned(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x5EC7_1015)
        for round in 0..<6 {
            let label = "seed \(seed) round \(round)"
            var (configuration, width) = randomConfiguration(using: &random)
            configuration.headerHeight = 0
            configuration.footerHeight = 0
            let sections = Self.randomSections(using: &random)
            let layout = try SectionedLayout(sections: sections, configuration: configuration, containerWidth: width)
            let expected = Self.reference(sections, configuration, width: width)
            let scale = max(layout.contentSize.height, width)
            #expect(layout.frames.count == expected.frames.count, "\(label)")
            let mismatch = zip(layout.frames, expected.frames).enumerated().first { !close($1.0, $1.1, scale: scale) }
            #expect(mismatch == nil, "\(label): item \(mismatch?.offset ?? -1) differs from the reference")
            #expect(zip(layout.headerFrames, expected.headers).allSatisfy { close($0, $1, scale: scale) }, "\(label)")
            #expect(close(layout.contentSize.height, expected.height, scale: scale), "\(label)")

            // No two frames (items and non-empty headers) overlap.
            let all = layout.frames + layout.headerFrames.filter { $0.height > 0 }
            var overlaps: [(Int, Int)] = []
            for a in all.indices { for b in (a + 1)..<all.count where all[a].intersects(all[b]) { overlaps.append((a, b)) } }
            #expect(overlaps.isEmpty, "\(label): overlaps \(overlaps.prefix(4))")

            for section in 0..<layout.sectionCount {
                let items = layout.sectionStarts[section]..<layout.sectionStarts[section + 1]
                #expect(items.count == sections[section].itemSizes.count, "\(label)")
                let header = layout.headerFrames[section]
                for item in items {
                    #expect(layout.section(ofItem: item) == section, "\(label)")
                    #expect(layout.frames[item].minY >= header.maxY, "\(label): item \(item) above its header")
                    #expect(layout.frames[item].maxY <= layout.sectionBottoms[section] + 1e-9 * scale, "\(label)")
                }
                if section > 0 {
                    #expect(header.minY >= layout.sectionBottoms[section - 1], "\(label): section \(section) out of order")
                }
                // The linear terms give the same top at this width.
                let p = layout.sectionPlacements[section]
                let top = configuration.insets.top + p.aspectRatioSumAbove * layout.columnWidth
                    + Double(p.gapsAbove) * configuration.rowGap + p.headerHeightAbove
                #expect(close(header.minY, top, scale: scale), "\(label): section \(section) breaks its identity")
                let bottom = top + sections[section].headerHeight + p.aspectRatioSum * layout.columnWidth
                    + Double(p.gapCount) * configuration.rowGap
                #expect(close(layout.sectionBottoms[section], bottom, scale: scale), "\(label)")
            }
        }
    }

    @Test("the linear section bounds keep sections apart at every width", arguments: 1...6)
    func otherWidths(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0xA11_CE)
        let sections = Self.randomSections(using: &random).filter { !$0.itemSizes.isEmpty }
        let configuration = WaterfallConfiguration(columns: .count(random.int(2...6)), insets: .zero, columnGap: 8, rowGap: 8)
        let layout = try SectionedLayout(sections: sections, configuration: configuration, containerWidth: 1000)
        // Evaluate the placements at other column widths, as CSS does: nothing overlaps.
        for w in [40.0, 97.3, 180, 333.3, 900] {
            var frames: [Rect] = []
            for section in 0..<layout.sectionCount {
                let p = layout.sectionPlacements[section]
                let top = p.aspectRatioSumAbove * w + Double(p.gapsAbove) * 8 + p.headerHeightAbove
                let header = sections[section].headerHeight
                frames.append(Rect(x: 0, y: top, width: 10, height: header))
                let columnsTop = top + header + (header > 0 ? 8 : 0)
                for item in layout.sectionStarts[section]..<layout.sectionStarts[section + 1] {
                    let q = layout.placements[item]
                    frames.append(Rect(
                        x: Double(q.column) * (w + 8), y: columnsTop + q.aspectRatioSumAbove * w + Double(q.itemsAbove) * 8,
                        width: w, height: layout.aspectRatios[item] * w))
                }
            }
            let overlapping = frames.indices.contains { a in
                frames.indices.contains { b in b > a && frames[a].height > 0 && frames[b].height > 0
                    && frames[a].minY < frames[b].maxY - 1e-6 && frames[b].minY < frames[a].maxY - 1e-6
                    && frames[a].minX < frames[b].maxX - 1e-6 && frames[b].minX < frames[a].maxX - 1e-6 }
            }
            #expect(!overlapping, "seed \(seed): overlap at column width \(w)")
        }
    }

    @Test("rectangle queries give what a scan of every frame gives", arguments: 1...6)
    func queries(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x0E4E)
        let sections = Self.randomSections(using: &random)
        let (configuration, width) = randomConfiguration(using: &random)
        let layout = try SectionedLayout(sections: sections, configuration: configuration, containerWidth: width)
        for _ in 0..<200 {
            let rect = Rect(
                x: random.double(-50...width), y: random.double(-50...(layout.contentSize.height + 50)),
                width: random.double(0...width), height: random.double(0...600))
            let found = layout.indices(intersecting: rect)
            #expect(found.items == layout.frames.indices.filter { layout.frames[$0].intersects(rect) })
            #expect(found.headers == layout.headerFrames.indices.filter { layout.headerFrames[$0].intersects(rect) })
        }
    }

    @Test("one section without a header is the plain waterfall")
    func oneSectionIsPlain() throws {
        var random = SplitMix64(seed: 9)
        let sizes = randomSizes(300, using: &random)
        let configuration = WaterfallConfiguration(columns: .count(4), insets: Insets(all: 10), columnGap: 8, rowGap: 8)
        let plain = try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: 900)
        let sectioned = try SectionedLayout(
            sections: [WaterfallSection(headerHeight: 0, itemSizes: sizes)], configuration: configuration, containerWidth: 900)
        #expect(sectioned.frames == plain.frames)
        #expect(sectioned.placements == plain.placements)
    }

    @Test("a negative or NaN header height is refused")
    func badHeader() {
        for value in [-1.0, .nan, .infinity] {
            let error = caught {
                try SectionedLayout(sections: [WaterfallSection(headerHeight: value, itemSizes: [])],
                                    configuration: WaterfallConfiguration(), containerWidth: 500)
            }
            #expect(error == .invalidSpacing(name: "section header height", value: value) || value.isNaN && error != nil)
        }
    }
}
