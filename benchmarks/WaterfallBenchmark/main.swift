// Engine benchmark: WaterfallLayout against a minimal inline masonry loop with the same
// arithmetic (the lower bound any engine could reach), measured in the same run, on the same
// seeded items. Also times indices(intersecting:) against a linear scan of every frame, and
// the other layouts (sections, justified rows, the horizontal direction) on the same items,
// alternating with the column layout, with their queries against a scan.
//
// Usage: swift build -c release --product waterfall-benchmark
//        .build/release/waterfall-benchmark [--items N] [--runs N] [--queries N]
// No Foundation: the standard library, the C library (exit, pow) and Waterfall.

import Waterfall

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Arguments

var itemCount = 1_000_000
var runs = 7
var queryCount = 100_000
do {
    var arguments = CommandLine.arguments.dropFirst()
    while let name = arguments.popFirst() {
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            print("usage: waterfall-benchmark [--items N] [--runs N] [--queries N]")
            exit(2)
        }
        switch name {
        case "--items": itemCount = value
        case "--runs": runs = value
        case "--queries": queryCount = value
        default:
            print("unknown option \(name)")
            exit(2)
        }
    }
}

// MARK: - Seeded items

/// SplitMix64: small, fast, and the same numbers on every platform.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}

/// Camera-like sizes (4:3, 3:2, 16:9, portrait and landscape, jittered), plus extremes:
/// 1% panoramas and tall strips (ratios down to 1:100 and up to 100:1) and 0.1% degenerate
/// sizes (zero, negative, infinite, NaN) that the engine lays out as squares.
func makeSizes(count: Int, seed: UInt64) -> [Size] {
    var random = SplitMix64(state: seed)
    let common: [(Double, Double)] = [(4000, 3000), (3000, 4000), (6000, 4000), (4000, 6000), (1920, 1080), (1080, 1920), (2000, 2000)]
    let degenerate: [Size] = [
        Size(width: 0, height: 100), Size(width: 100, height: 0), Size(width: -5, height: 10),
        Size(width: .infinity, height: 10), Size(width: 10, height: .nan),
    ]
    var sizes: [Size] = []
    sizes.reserveCapacity(count)
    for _ in 0..<count {
        let pick = random.unit()
        if pick < 0.001 {
            sizes.append(degenerate[Int(random.next() % UInt64(degenerate.count))])
        } else if pick < 0.011 {
            // log-uniform ratio in [1/100, 100]
            let ratio = pow(10, random.unit() * 4 - 2)
            sizes.append(Size(width: 1000, height: 1000 * ratio))
        } else {
            let (w, h) = common[Int(random.next() % UInt64(common.count))]
            sizes.append(Size(width: w * (0.8 + 0.4 * random.unit()), height: h * (0.8 + 0.4 * random.unit())))
        }
    }
    return sizes
}

// MARK: - The peer: a minimal masonry loop with the engine's arithmetic

/// Same ratio rule, same shortest-column choice (ties to the leftmost), same top (the fluid
/// identity, kept below the previous bottom plus the gap), same frames; nothing else kept.
@inline(never)
func inlineMasonry(_ sizes: [Size], columns count: Int, containerWidth: Double, gap: Double) -> [Rect] {
    let width = (containerWidth - Double(count - 1) * gap) / Double(count)
    var lefts: [Double] = []
    for column in 0..<count { lefts.append(Double(column) * (width + gap)) }
    var ratioSums = Array(repeating: 0.0, count: count)
    var itemCounts = Array(repeating: 0, count: count)
    var bottoms = Array(repeating: 0.0, count: count)
    var frames: [Rect] = []
    frames.reserveCapacity(sizes.count)
    for size in sizes {
        var ratio = 1.0
        if size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 {
            let r = size.height / size.width
            if r.isFinite, r > 0 { ratio = r }
        }
        var column = 0
        for candidate in 1..<count where bottoms[candidate] < bottoms[column] { column = candidate }
        let identity = ratioSums[column] * width + Double(itemCounts[column]) * gap
        let y = itemCounts[column] == 0 ? identity : max(identity, bottoms[column] + gap)
        let frame = Rect(x: lefts[column], y: y, width: width, height: ratio * width)
        frames.append(frame)
        ratioSums[column] += ratio
        itemCounts[column] += 1
        bottoms[column] = y + ratio * width
    }
    return frames
}

@inline(never)
func engine(_ sizes: [Size], columns: Int, containerWidth: Double, gap: Double) -> WaterfallLayout {
    let configuration = WaterfallConfiguration(columns: .count(columns), insets: .zero, columnGap: gap, rowGap: gap)
    do {
        return try WaterfallLayout(itemSizes: sizes, configuration: configuration, containerWidth: containerWidth)
    } catch {
        print("layout failed: \(error)")
        exit(1)
    }
}

/// A linear scan of every frame: the peer of indices(intersecting:).
@inline(never)
func scanIntersecting(_ frames: [Rect], _ rect: Rect) -> [Int] {
    var result: [Int] = []
    for (index, frame) in frames.enumerated() where frame.intersects(rect) { result.append(index) }
    return result
}

// MARK: - Timing

let clock = ContinuousClock()
var sink = 0.0  // consumed results, printed at the end so nothing is optimised away

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if have < decimals { text += String(repeating: "0", count: decimals - have) }
        if decimals == 0 { text = String(text[..<dot]) }
    }
    return text
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

// MARK: - Run

let containerWidth = 1200.0
let gap = 8.0
let sizes = makeSizes(count: itemCount, seed: 2026)
print("waterfall-benchmark: \(itemCount) items (seed 2026, 1% extreme ratios 1:100..100:1, 0.1% degenerate sizes),")
print("container \(Int(containerWidth)) px, gap \(Int(gap)), median of \(runs) runs after one warm-up")
print("")
print("columns | engine ms | inline loop ms | engine / inline")
print("------- | --------- | -------------- | ---------------")

var largest: WaterfallLayout? = nil
for columns in [2, 3, 6, 12] {
    // Warm-up, and a check that both compute the same frames.
    let check = engine(sizes, columns: columns, containerWidth: containerWidth, gap: gap)
    let checkFrames = inlineMasonry(sizes, columns: columns, containerWidth: containerWidth, gap: gap)
    guard check.frames == checkFrames else {
        print("MISMATCH: the inline loop and the engine disagree at \(columns) columns")
        exit(1)
    }
    var engineTimes: [Double] = []
    var inlineTimes: [Double] = []
    // Alternate the two so load from other processes hits both alike.
    for _ in 0..<runs {
        var start = clock.now
        let layout = engine(sizes, columns: columns, containerWidth: containerWidth, gap: gap)
        engineTimes.append(milliseconds(clock.now - start))
        sink += layout.contentSize.height
        start = clock.now
        let frames = inlineMasonry(sizes, columns: columns, containerWidth: containerWidth, gap: gap)
        inlineTimes.append(milliseconds(clock.now - start))
        sink += frames[frames.count - 1].maxY
    }
    let e = median(engineTimes)
    let i = median(inlineTimes)
    print("\(pad(String(columns), 7)) | \(pad(format(e, 1), 9)) | \(pad(format(i, 1), 14)) | \(pad(format(e / i, 2), 14))x")
    if columns == 3 { largest = check }
}

// Queries: viewport-sized rectangles (1200 x 1080) at random heights in the 3-column layout.
let layout = largest!
var random = SplitMix64(state: 7)
let height = layout.contentSize.height
var rects: [Rect] = []
for _ in 0..<queryCount {
    rects.append(Rect(x: 0, y: random.unit() * max(0, height - 1080), width: containerWidth, height: 1080))
}
let scanCount = min(queryCount, 200)
// Check: the engine and the scan agree.
for rect in rects.prefix(20) where layout.indices(intersecting: rect) != scanIntersecting(layout.frames, rect) {
    print("MISMATCH: indices(intersecting:) and the linear scan disagree")
    exit(1)
}
var queryTimes: [Double] = []
var found = 0
for _ in 0..<runs {
    let start = clock.now
    for rect in rects { found += layout.indices(intersecting: rect).count }
    queryTimes.append(milliseconds(clock.now - start) / Double(rects.count))
}
var scanTimes: [Double] = []
for _ in 0..<max(1, runs / 2) {
    let start = clock.now
    for rect in rects.prefix(scanCount) { found += scanIntersecting(layout.frames, rect).count }
    scanTimes.append(milliseconds(clock.now - start) / Double(scanCount))
}
sink += Double(found)
let q = median(queryTimes)
let s = median(scanTimes)
print("")
print("indices(intersecting:) on the 3-column layout, 1200x1080 viewports at random heights:")
print("  engine: \(format(q * 1000, 2)) µs per query (\(queryCount) queries, median of \(runs) runs)")
print("  linear scan of every frame: \(format(s * 1000, 1)) µs per query (\(scanCount) queries) -> engine is \(format(s / q, 0))x faster")
// MARK: - The other layouts, beside the column layout, on the same items

/// Sections of about a day's photos: 1 to 60 items each, seeded.
func makeSections(_ sizes: [Size]) -> [WaterfallSection] {
    var random = SplitMix64(state: 11)
    var sections: [WaterfallSection] = []
    var start = 0
    while start < sizes.count {
        let count = min(sizes.count - start, 1 + Int(random.next() % 60))
        sections.append(WaterfallSection(headerHeight: 40, itemSizes: Array(sizes[start..<(start + count)])))
        start += count
    }
    return sections
}

let sections = makeSections(sizes)
let columnConfiguration = WaterfallConfiguration(columns: .count(3), insets: .zero, columnGap: gap, rowGap: gap)
let justifiedConfiguration = JustifiedConfiguration(targetRowHeight: 220, itemGap: gap, rowGap: gap)
do {
    // The four layouts alternate within each run, so that load from other processes hits
    // them alike; the median of each is reported, with its ratio to the column layout's.
    var times: [[Double]] = [[], [], [], []]
    for _ in 0..<(runs + 1) {
        var start = clock.now
        let columns = try WaterfallLayout(itemSizes: sizes, configuration: columnConfiguration, containerWidth: containerWidth)
        times[0].append(milliseconds(clock.now - start))
        start = clock.now
        let sectioned = try SectionedLayout(sections: sections, configuration: columnConfiguration, containerWidth: containerWidth)
        times[1].append(milliseconds(clock.now - start))
        start = clock.now
        let justified = try JustifiedLayout(itemSizes: sizes, configuration: justifiedConfiguration, containerWidth: containerWidth)
        times[2].append(milliseconds(clock.now - start))
        start = clock.now
        let horizontal = try HorizontalWaterfallLayout(itemSizes: sizes, configuration: columnConfiguration, containerHeight: containerWidth)
        times[3].append(milliseconds(clock.now - start))
        sink += columns.contentSize.height + sectioned.contentSize.height + justified.contentSize.height + horizontal.contentSize.width
    }
    // The first run is the warm-up.
    let medians = times.map { median(Array($0.dropFirst())) }
    let columnsMs = medians[0], sectionsMs = medians[1], rowsMs = medians[2], horizontalMs = medians[3]
    print("")
    print("other layouts of the same \(itemCount) items, alternating with the 3-column layout (median of \(runs) runs after a warm-up):")
    print("layout | ms | ÷ columns")
    print("------ | -- | ---------")
    print("columns (3) | \(format(columnsMs, 1)) | 1.00x")
    print("sections (3 columns, \(sections.count) sections of 1-60) | \(format(sectionsMs, 1)) | \(format(sectionsMs / columnsMs, 2))x")
    print("justified rows (target 220) | \(format(rowsMs, 1)) | \(format(rowsMs / columnsMs, 2))x")
    print("horizontal (3 rows) | \(format(horizontalMs, 1)) | \(format(horizontalMs / columnsMs, 2))x")

    // Queries on each, viewport-sized, against a scan of every frame.
    let sectioned = try SectionedLayout(sections: sections, configuration: columnConfiguration, containerWidth: containerWidth)
    let rows = try JustifiedLayout(itemSizes: sizes, configuration: justifiedConfiguration, containerWidth: containerWidth)
    for (name, height, query, frames) in [
        ("sections", sectioned.contentSize.height, { (rect: Rect) in sectioned.indices(intersecting: rect).items }, sectioned.frames),
        ("justified rows", rows.contentSize.height, { (rect: Rect) in rows.indices(intersecting: rect) }, rows.frames),
    ] {
        var random = SplitMix64(state: 5)
        let rects = (0..<queryCount).map { _ in Rect(x: 0, y: random.unit() * max(0, height - 1080), width: containerWidth, height: 1080) }
        for rect in rects.prefix(20) where query(rect) != scanIntersecting(frames, rect) {
            print("MISMATCH: \(name) queries and the linear scan disagree")
            exit(1)
        }
        var found = 0
        var times: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            for rect in rects { found += query(rect).count }
            times.append(milliseconds(clock.now - start) / Double(rects.count))
        }
        let scanStart = clock.now
        for rect in rects.prefix(scanCount) { found += scanIntersecting(frames, rect).count }
        let scan = milliseconds(clock.now - scanStart) / Double(scanCount)
        sink += Double(found)
        let perQuery = median(times)
        print("  \(name) queries: \(format(perQuery * 1000, 2)) µs per query, scan \(format(scan * 1000, 1)) µs -> \(format(scan / perQuery, 0))x faster")
    }
} catch {
    print("layout failed: \(error)")
    exit(1)
}

print("")
print("(checksum \(format(sink, 0)))")
