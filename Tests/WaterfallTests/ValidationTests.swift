import Testing
import Waterfall

/// Invalid configurations and container widths are refused with a reason a user understands.
@Suite("Validation")
struct ValidationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var configuration: WaterfallConfiguration
        var width = 300.0
        var error: WaterfallError
        /// Words the description must contain.
        var mentions: [String]
        var testDescription: String { error.description }
    }

    static func spacing(_ name: String, _ value: Double, _ configure: (inout WaterfallConfiguration) -> Void) -> Case {
        var configuration = WaterfallConfiguration()
        configure(&configuration)
        return Case(configuration: configuration, error: .invalidSpacing(name: name, value: value), mentions: [name, "\(value)"])
    }

    static let cases: [Case] = [
        Case(configuration: WaterfallConfiguration(columns: .count(0)), error: .invalidColumnCount(0), mentions: ["column count", "0"]),
        Case(configuration: WaterfallConfiguration(columns: .count(-3)), error: .invalidColumnCount(-3), mentions: ["column count", "-3"]),
        Case(configuration: WaterfallConfiguration(columns: .count(10_001)), width: 1e9,
             error: .tooManyColumns(limit: 10_000), mentions: ["columns", "10000"]),
        Case(configuration: WaterfallConfiguration(columns: .minimumWidth(0)), error: .invalidMinimumColumnWidth(0),
             mentions: ["minimum column width", "0"]),
        Case(configuration: WaterfallConfiguration(columns: .minimumWidth(-1)), error: .invalidMinimumColumnWidth(-1),
             mentions: ["minimum column width", "-1"]),
        Case(configuration: WaterfallConfiguration(columns: .minimumWidth(.nan)), error: .invalidMinimumColumnWidth(.nan),
             mentions: ["minimum column width", "nan"]),
        Case(configuration: WaterfallConfiguration(columns: .minimumWidth(.infinity)), error: .invalidMinimumColumnWidth(.infinity),
             mentions: ["minimum column width", "inf"]),
        spacing("top inset", -2) { $0.insets.top = -2 },
        spacing("left inset", .nan) { $0.insets.left = .nan },
        spacing("bottom inset", .infinity) { $0.insets.bottom = .infinity },
        spacing("right inset", -0.5) { $0.insets.right = -0.5 },
        spacing("column gap", -1) { $0.columnGap = -1 },
        spacing("column gap", .nan) { $0.columnGap = .nan },
        spacing("row gap", .infinity) { $0.rowGap = .infinity },
        spacing("row gap", -.infinity) { $0.rowGap = -.infinity },
        spacing("header height", -1) { $0.headerHeight = -1 },
        spacing("footer height", .nan) { $0.footerHeight = .nan },
        Case(configuration: WaterfallConfiguration(), width: 0, error: .invalidContainerWidth(0), mentions: ["container width", "0"]),
        Case(configuration: WaterfallConfiguration(), width: -5, error: .invalidContainerWidth(-5), mentions: ["container width", "-5"]),
        Case(configuration: WaterfallConfiguration(), width: .nan, error: .invalidContainerWidth(.nan), mentions: ["container width", "nan"]),
        Case(configuration: WaterfallConfiguration(), width: .infinity, error: .invalidContainerWidth(.infinity),
             mentions: ["container width", "inf"]),
        // 10 columns need 9 gaps of 10 plus 20 of insets: more than 100.
        Case(configuration: WaterfallConfiguration(columns: .count(10)), width: 100,
             error: .containerTooNarrow(containerWidth: 100, columns: 10), mentions: ["too narrow", "100", "10 column"]),
        // The insets alone are wider than the container.
        Case(configuration: WaterfallConfiguration(columns: .count(2), insets: Insets(all: 60)), width: 100,
             error: .containerTooNarrow(containerWidth: 100, columns: 2), mentions: ["too narrow"]),
        // Exactly no room left for the column.
        Case(configuration: WaterfallConfiguration(columns: .count(1), insets: Insets(all: 50)), width: 100,
             error: .containerTooNarrow(containerWidth: 100, columns: 1), mentions: ["too narrow"]),
        Case(configuration: WaterfallConfiguration(columns: .minimumWidth(150)), width: 100,
             error: .containerTooNarrow(containerWidth: 100, columns: 1), mentions: ["too narrow"]),
    ]

    @Test("each invalid input throws its error", arguments: cases)
    func invalid(_ c: Case) {
        let thrown = caught {
            try WaterfallLayout(itemSizes: [Size(width: 1, height: 1)], configuration: c.configuration, containerWidth: c.width)
        }
        // Descriptions compare NaN payloads too (NaN is never == NaN).
        #expect(thrown?.description == c.error.description)
        if !c.error.description.contains("nan") { #expect(thrown == c.error) }
        for word in c.mentions {
            #expect(c.error.description.contains(word), "“\(c.error.description)” should mention \(word)")
        }
    }

    @Test("valid edge values are accepted: zero spacings, negative zero, a single column filling the container")
    func validEdges() throws {
        let configuration = WaterfallConfiguration(
            columns: .count(1), insets: Insets(top: 0, left: -0.0, bottom: 0, right: 0), columnGap: 0, rowGap: -0.0)
        let layout = try WaterfallLayout(itemSizes: [Size(width: 2, height: 1)], configuration: configuration, containerWidth: 0.5)
        #expect(layout.frames == [Rect(x: 0, y: 0, width: 0.5, height: 0.25)])
        #expect(layout.contentSize == Size(width: 0.5, height: 0.25))
    }

    static let allErrors: [WaterfallError] = [
        .invalidColumnCount(0), .tooManyColumns(limit: 10_000), .invalidMinimumColumnWidth(-1),
        .invalidSpacing(name: "row gap", value: -1), .invalidContainerWidth(0),
        .containerTooNarrow(containerWidth: 100, columns: 4), .layoutTooLarge, .noBreakpoints,
        .duplicateBreakpoint(minWidth: 600), .invalidBreakpointWidth(-1),
    ]

    @Test("descriptions are distinct sentences without code-like noise", arguments: allErrors)
    func readable(error: WaterfallError) {
        let text = error.description
        #expect(text.count > 20)
        #expect(text.contains(" "))
        #expect(!text.contains("Optional") && !text.contains("WaterfallError") && !text.contains("("+"name:"))
        #expect(Self.allErrors.filter { $0.description == text }.count == 1)
        #expect("\(error)" == text)
    }
}
