import Testing
import Waterfall
import TestSupport

/// `WaterfallLayout.layouts`: one call, several breakpoints.
@Suite("Breakpoints")
struct BreakpointTests {
    static let sets: [[Breakpoint]] = [
        [Breakpoint(minWidth: 0, columns: 2, referenceWidth: 400)],
        [Breakpoint(minWidth: 1000, columns: 4, referenceWidth: 1200), Breakpoint(minWidth: 0, columns: 2, referenceWidth: 400)],
        [Breakpoint(minWidth: 600, columns: 3, referenceWidth: 800), Breakpoint(minWidth: 1600, columns: 5, referenceWidth: 2000),
         Breakpoint(minWidth: 0, columns: 1, referenceWidth: 300), Breakpoint(minWidth: 1000, columns: 4, referenceWidth: 1300)],
        // A reference width below the minimum width is allowed: it is only where the layout is computed.
        [Breakpoint(minWidth: 500, columns: 2, referenceWidth: 200), Breakpoint(minWidth: 100, columns: 1, referenceWidth: 150)],
    ]

    @Test("one layout per breakpoint, sorted, each with the breakpoint's columns at its reference width", arguments: sets)
    func layouts(breakpoints: [Breakpoint]) throws {
        var random = SplitMix64(seed: UInt64(breakpoints.count))
        let sizes = randomSizes(60, using: &random, badShare: 0.05)
        // The configuration's column rule is replaced; everything else is kept.
        let configuration = WaterfallConfiguration(
            columns: .minimumWidth(999), insets: Insets(top: 1, left: 2, bottom: 3, right: 4), columnGap: 8, rowGap: 6,
            headerHeight: 12, footerHeight: 0)
        let result = try WaterfallLayout.layouts(itemSizes: sizes, breakpoints: breakpoints, configuration: configuration)
        #expect(result.count == breakpoints.count)
        #expect(result.map(\.breakpoint.minWidth) == breakpoints.map(\.minWidth).sorted())
        #expect(Set(result.map(\.breakpoint)) == Set(breakpoints))
        for entry in result {
            let bp = entry.breakpoint
            #expect(entry.layout.columnCount == bp.columns)
            #expect(entry.layout.containerWidth == bp.referenceWidth)
            #expect(entry.layout.configuration.columns == .count(bp.columns))
            #expect(entry.layout.configuration.insets == configuration.insets)
            #expect(entry.layout.configuration.rowGap == 6 && entry.layout.configuration.headerHeight == 12)
            let i = configuration.insets
            #expect(close(entry.layout.columnWidth, (bp.referenceWidth - i.left - i.right - Double(bp.columns - 1) * 8) / Double(bp.columns)))
            // The same as laying out that breakpoint alone, and as the reference.
            var single = configuration
            single.columns = .count(bp.columns)
            try #expect(entry.layout == WaterfallLayout(itemSizes: sizes, configuration: single, containerWidth: bp.referenceWidth))
            PropertyTests.check(
                entry.layout, sizes: sizes, reference: referenceLayout(sizes, single, containerWidth: bp.referenceWidth),
                label: "breakpoint \(bp.minWidth)")
        }
    }

    @Test(
        "invalid breakpoint lists are refused",
        arguments: [
            ([], WaterfallError.noBreakpoints),
            ([Breakpoint(minWidth: 0, columns: 2, referenceWidth: 400), Breakpoint(minWidth: 0, columns: 3, referenceWidth: 500)],
             .duplicateBreakpoint(minWidth: 0)),
            ([Breakpoint(minWidth: 700, columns: 2, referenceWidth: 800), Breakpoint(minWidth: 0, columns: 1, referenceWidth: 300),
              Breakpoint(minWidth: 700, columns: 3, referenceWidth: 900)],
             .duplicateBreakpoint(minWidth: 700)),
            ([Breakpoint(minWidth: -1, columns: 2, referenceWidth: 400)], .invalidBreakpointWidth(-1)),
            ([Breakpoint(minWidth: .infinity, columns: 2, referenceWidth: 400)], .invalidBreakpointWidth(.infinity)),
            ([Breakpoint(minWidth: 0, columns: 0, referenceWidth: 400)], .invalidColumnCount(0)),
            ([Breakpoint(minWidth: 0, columns: 2, referenceWidth: 0)], .invalidContainerWidth(0)),
            ([Breakpoint(minWidth: 0, columns: 2, referenceWidth: 400), Breakpoint(minWidth: 500, columns: 40, referenceWidth: 300)],
             .containerTooNarrow(containerWidth: 300, columns: 40)),
        ])
    func invalid(breakpoints: [Breakpoint], error: WaterfallError) {
        let thrown = caught {
            try WaterfallLayout.layouts(itemSizes: [Size(width: 1, height: 2)], breakpoints: breakpoints, configuration: WaterfallConfiguration())
        }
        #expect(thrown == error)
    }

    @Test("a NaN minimum width is refused")
    func nanMinimumWidth() {
        let thrown = caught {
            try WaterfallLayout.layouts(
                itemSizes: [], breakpoints: [Breakpoint(minWidth: .nan, columns: 2, referenceWidth: 400)],
                configuration: WaterfallConfiguration())
        }
        guard case .invalidBreakpointWidth(let width) = thrown else {
            Issue.record("expected invalidBreakpointWidth, got \(String(describing: thrown))")
            return
        }
        #expect(width.isNaN)
    }
}
