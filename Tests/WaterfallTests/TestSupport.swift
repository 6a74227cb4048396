import TestSupport
import Testing
import Waterfall

/// Sizes the engine must treat as squares.
let badSizes: [Size] = [
    Size(width: .nan, height: 10), Size(width: 10, height: .nan), Size(width: .nan, height: .nan),
    Size(width: .infinity, height: 10), Size(width: 10, height: .infinity), Size(width: -.infinity, height: 10),
    Size(width: 10, height: -.infinity), Size(width: .infinity, height: .infinity),
    Size(width: -1, height: 10), Size(width: 10, height: -1), Size(width: -3, height: -4),
    Size(width: 0, height: 10), Size(width: 10, height: 0), Size(width: 0, height: 0),
    Size(width: -0.0, height: 5),
    // Finite but with a ratio that overflows to infinity or underflows to zero.
    Size(width: .leastNonzeroMagnitude, height: .greatestFiniteMagnitude),
    Size(width: .greatestFiniteMagnitude, height: .leastNonzeroMagnitude),
]

/// Random photo-like sizes, with a share of bad ones mixed in.
func randomSizes(_ count: Int, using random: inout SplitMix64, badShare: Double = 0) -> [Size] {
    (0..<count).map { _ in
        if random.chance(badShare) { return badSizes[random.int(0...(badSizes.count - 1))] }
        return Size(width: random.double(1...6000), height: random.double(1...6000))
    }
}

/// A random valid `.count` configuration and a container width it fits into. Gaps, insets,
/// header and footer are zero part of the time.
func randomConfiguration(using random: inout SplitMix64) -> (WaterfallConfiguration, Double) {
    func spacing(_ random: inout SplitMix64, _ upper: Double) -> Double {
        random.chance(0.25) ? 0 : random.double(0...upper)
    }
    let columns = random.int(1...8)
    let insets = Insets(
        top: spacing(&random, 40), left: spacing(&random, 40), bottom: spacing(&random, 40), right: spacing(&random, 40))
    let columnGap = spacing(&random, 25)
    let rowGap = spacing(&random, 25)
    let header = random.chance(0.5) ? 0 : random.double(1...200)
    let footer = random.chance(0.5) ? 0 : random.double(1...200)
    let width = insets.left + insets.right + Double(columns - 1) * columnGap + Double(columns) * random.double(5...400)
    let configuration = WaterfallConfiguration(
        columns: .count(columns), insets: insets, columnGap: columnGap, rowGap: rowGap,
        headerHeight: header, footerHeight: footer)
    return (configuration, width)
}

/// The aspect ratio rule, written independently of the engine: height/width when both are
/// positive and finite (and so is the ratio), a square otherwise.
func referenceRatio(_ size: Size) -> Double {
    let w = size.width
    let h = size.height
    if w > 0, h > 0, w < .infinity, h < .infinity {
        let ratio = h / w
        if ratio > 0, ratio < .infinity { return ratio }
    }
    return 1
}

/// What the reference layout computes.
struct ReferenceLayout {
    var columnWidth: Double
    var columnsTop: Double
    var frames: [Rect]
    var columns: [Int]
    var headerFrame: Rect?
    var footerFrame: Rect?
    var contentHeight: Double
}

/// A straightforward layout from the seeds' rules, written independently of the engine:
/// column bottoms are accumulated as "previous maxY + row gap", the shortest column is found
/// by a linear scan, and the header, footer and content height follow the rules literally.
/// `left` and `gap` are the effective left inset and column gap; `contentWidth` the width of
/// header and footer.
func referenceLayout(
    _ sizes: [Size], columns n: Int, columnWidth w: Double, left: Double, gap: Double,
    top: Double, bottom: Double, contentWidth: Double, rowGap: Double, header: Double, footer: Double
) -> ReferenceLayout {
    let columnsTop = header > 0 ? top + header + rowGap : top
    var lastBottom: [Double?] = Array(repeating: nil, count: n)
    var frames: [Rect] = []
    var columns: [Int] = []
    for size in sizes {
        var best = 0
        for c in 0..<n where (lastBottom[c] ?? columnsTop) < (lastBottom[best] ?? columnsTop) {
            best = c
        }
        let y = lastBottom[best].map { $0 + rowGap } ?? columnsTop
        let frame = Rect(x: left + Double(best) * (w + gap), y: y, width: w, height: referenceRatio(size) * w)
        frames.append(frame)
        columns.append(best)
        lastBottom[best] = y + frame.height
    }
    var tallest = columnsTop
    for case let b? in lastBottom where b > tallest { tallest = b }
    let headerFrame = header > 0 ? Rect(x: left, y: top, width: contentWidth, height: header) : nil
    var footerFrame: Rect?
    var end = tallest
    if footer > 0 {
        let y = sizes.isEmpty ? tallest : tallest + rowGap
        footerFrame = Rect(x: left, y: y, width: contentWidth, height: footer)
        end = y + footer
    }
    return ReferenceLayout(
        columnWidth: w, columnsTop: columnsTop, frames: frames, columns: columns,
        headerFrame: headerFrame, footerFrame: footerFrame, contentHeight: end + bottom)
}

/// The reference for a `.count` configuration.
func referenceLayout(_ sizes: [Size], _ configuration: WaterfallConfiguration, containerWidth: Double) -> ReferenceLayout {
    guard case .count(let n) = configuration.columns else { fatalError("reference needs a column count") }
    let i = configuration.insets
    let w = (containerWidth - i.left - i.right - Double(n - 1) * configuration.columnGap) / Double(n)
    return referenceLayout(
        sizes, columns: n, columnWidth: w, left: i.left, gap: configuration.columnGap, top: i.top, bottom: i.bottom,
        contentWidth: containerWidth - i.left - i.right, rowGap: configuration.rowGap,
        header: configuration.headerHeight, footer: configuration.footerHeight)
}

/// Equal up to floating rounding (relative to the magnitudes involved).
func close(_ a: Double, _ b: Double, scale: Double = 1, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance * max(scale, abs(a), abs(b))
}

func close(_ a: Rect, _ b: Rect, scale: Double = 1) -> Bool {
    close(a.x, b.x, scale: scale) && close(a.y, b.y, scale: scale) && close(a.width, b.width, scale: scale)
        && close(a.height, b.height, scale: scale)
}

func close(_ a: Rect?, _ b: Rect?, scale: Double = 1) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): close(a, b, scale: scale)
    default: false
    }
}

extension Rect {
    var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
}

/// The error a throwing body throws, or nil (an error of another type is reported as an issue).
func caught<T>(_ body: () throws -> T) -> WaterfallError? {
    do {
        _ = try body()
        return nil
    } catch let error as WaterfallError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}
