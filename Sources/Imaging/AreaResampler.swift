import CPixelKernels

/// Downscaling by area averaging ("pixel mixing"): each output pixel is the average of the part
/// of the picture it covers, each input pixel weighted by how much of it lies under the output
/// pixel. Nothing aliases at any reduction, solid areas stay exactly solid up to the edges, and
/// it is an order of magnitude faster than gd's two-pass filters.
///
/// For opaque pictures the vertical pass is integer arithmetic in C (`cascade_area_sums`, with
/// an AVX2 path): the rows' weights in fixed point (1.0 = 2^14, summing to exactly that, so solid
/// areas stay solid), each byte times its row's weight; the horizontal pass stays in floats.
///
/// Colours are averaged weighted by opacity (premultiplied), so transparent pixels do not
/// bleed their hidden colour into the edges of what is visible. The work is done a row at a
/// time: the source rows under one output row are summed into one line of accumulators (the
/// vertical pass), which is then reduced to the output row (the horizontal pass), so the extra
/// memory is a few lines, whatever the picture's size.
///
/// The result can be turned upright on the way: the picture is scaled in the axes it is stored
/// in and each finished row is written where the turned picture has it (a row, reversed or not,
/// or a column), so a photo stored on its side costs no separate pass over the whole picture.
enum AreaResampler {
    /// For one axis: per output pixel, the first input pixel it covers and the weights of the
    /// input pixels from there (summing to 1).
    struct Footprints {
        var starts: [Int]
        var counts: [Int]
        var weights: [Float]  // flattened, `counts[i]` entries from `offsets[i]`
        var offsets: [Int]
        /// `weights` in fixed point (1.0 = 2^14): each footprint's sum to exactly 2^14, the
        /// rounding left over given to its largest weight.
        var fixedWeights: [Int16]

        init(from source: Int, to target: Int) {
            precondition(target >= 1 && target <= source)
            let scale = Double(source) / Double(target)
            starts = []
            counts = []
            weights = []
            offsets = []
            fixedWeights = []
            for index in 0..<target {
                let low = Double(index) * scale
                let high = min(Double(source), Double(index + 1) * scale)
                let first = Int(low)
                let last = min(source - 1, Int(high.rounded(.up)) - 1)
                starts.append(first)
                offsets.append(weights.count)
                var total = 0.0
                var local: [Double] = []
                for pixel in first...max(first, last) {
                    let overlap = min(high, Double(pixel + 1)) - max(low, Double(pixel))
                    local.append(max(0, overlap))
                    total += max(0, overlap)
                }
                counts.append(local.count)
                weights.append(contentsOf: local.map { Float($0 / total) })
                let one = 1 << Int(CASCADE_AREA_WEIGHT_BITS)
                var fixed = local.map { Int(($0 / total * Double(one)).rounded()) }
                let largest = fixed.indices.max { fixed[$0] < fixed[$1] }!
                fixed[largest] += one - fixed.reduce(0, +)
                fixedWeights.append(contentsOf: fixed.map { Int16($0) })
            }
        }
    }

    /// Writes `source` (rows of gd pixels, `sourceWidth` wide, as stored) shown through
    /// `orientation` and scaled to the rows of `target` (`targetWidth` wide, upright), each
    /// dimension no larger than the upright source's. An `opaque` picture (every photo from a
    /// JPEG) takes a faster path that averages its three colours directly; on such a picture
    /// both paths agree.
    static func resample(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], targetWidth: Int, orientation: Orientation = .up, opaque: Bool
    ) {
        // The target's size in the source's axes: the scaling happens there.
        let placement = Placement(orientation: orientation, width: targetWidth, height: target.count)
        let columns = Footprints(from: sourceWidth, to: placement.storedWidth)
        let lines = Footprints(from: source.count, to: placement.storedHeight)
        if opaque {
            resampleOpaque(source: source, sourceWidth: sourceWidth, target: target, placement: placement, columns: columns, lines: lines)
        } else {
            resampleWithAlpha(source: source, sourceWidth: sourceWidth, target: target, placement: placement, columns: columns, lines: lines)
        }
    }

    /// Where the rows of the scaled picture, in the source's axes, go in the upright target.
    struct Placement {
        let orientation: Orientation
        /// The turn from upright back to stored: where a stored pixel shows.
        let inverse: Orientation
        /// The upright target's size.
        let width: Int, height: Int
        /// The target's size in the source's axes (swapped for orientations 5 to 8).
        var storedWidth: Int { orientation.swapsDimensions ? height : width }
        var storedHeight: Int { orientation.swapsDimensions ? width : height }

        init(orientation: Orientation, width: Int, height: Int) {
            self.orientation = orientation
            self.inverse = orientation.inverse
            self.width = width
            self.height = height
        }

        /// Where row `y` of the scaled picture, in the source's axes, can be written directly:
        /// the target row that shows it unchanged (not mirrored, not turned), else nil.
        func straightRow(_ y: Int, in target: [UnsafeMutablePointer<Int32>]) -> UnsafeMutablePointer<Int32>? {
            switch orientation {
            case .up: target[y]
            case .downMirrored: target[height - 1 - y]
            default: nil
            }
        }

        /// How many rows of the scaled picture are written at once: for orientations 5 to 8 each
        /// becomes a column of the target, and a band of them fills a cache line of each target row
        /// (sixteen pixels) instead of one pixel, one row after another.
        var bandRows: Int { orientation.swapsDimensions ? 16 : 1 }

        /// Writes `count` rows of the scaled picture (in the source's axes, from row `y`), held
        /// one after the other at `band`, as columns of the upright target (orientations 5 to 8).
        func placeColumns(_ band: UnsafePointer<Int32>, count: Int, firstStoredRow y: Int, into target: [UnsafeMutablePointer<Int32>]) {
            let first = inverse.storedPoint(x: 0, y: y, width: width, height: height)
            // Along a stored row the target row changes; from one stored row to the next the column.
            let rowStep = storedWidth > 1 ? inverse.storedPoint(x: 1, y: y, width: width, height: height).y - first.y : 0
            let columnStep = count > 1 ? inverse.storedPoint(x: 0, y: y + 1, width: width, height: height).x - first.x : 0
            let stride = storedWidth
            for x in 0..<stride {
                let out = target[first.y &+ x &* rowStep] + first.x
                for j in 0..<count { out[j &* columnStep] = band[j &* stride &+ x] }
            }
        }

        /// Writes `row` (`storedWidth` pixels), row `y` of the scaled picture in the source's
        /// axes, where the upright target shows it.
        func place(_ row: UnsafePointer<Int32>, storedRow y: Int, into target: [UnsafeMutablePointer<Int32>]) {
            // Along a stored row the upright positions lie on a straight line.
            let first = inverse.storedPoint(x: 0, y: y, width: width, height: height)
            let count = storedWidth
            guard count > 1 else {
                target[first.y][first.x] = row[0]
                return
            }
            let second = inverse.storedPoint(x: 1, y: y, width: width, height: height)
            let dx = second.x - first.x
            let dy = second.y - first.y
            if dy == 0 {
                let out = target[first.y]
                if dx == 1 {
                    (out + first.x).update(from: row, count: count)
                } else {  // reversed: first.x is the last column
                    for x in 0..<count { out[first.x &- x] = row[x] }
                }
            } else {  // a column, downwards or upwards
                let column = first.x
                for x in 0..<count { target[first.y &+ x &* dy][column] = row[x] }
            }
        }
    }

    /// A gd pixel's four bytes as floats, in the order blue, green, red, alpha (gd's seven
    /// bits: 0 opaque), in one vector: a widening and one conversion for the four, where the
    /// channels one by one take a shift, a mask and a conversion each.
    @inline(__always)
    private static func lanes(_ pixel: Int32) -> SIMD4<Float> {
        #if _endian(little)
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(pixel, to: SIMD4<UInt8>.self)))
        #else
        SIMD4<Float>(SIMD4<Int32>(pixel & 0xFF, (pixel >> 8) & 0xFF, (pixel >> 16) & 0xFF, (pixel >> 24) & 0xFF))
        #endif
    }

    /// Lanes (blue, green, red, alpha) as a gd pixel: each clamped to 0...its `limit` and rounded
    /// to the nearest integer (ties to even) without a call into libm or a checked conversion:
    /// adding 1.5·2²³ leaves the rounded integer in the low bits of the float's significand.
    /// A limit of 0 for alpha makes the pixel opaque.
    @inline(__always)
    static func pixel(_ value: SIMD4<Float>, limits: SIMD4<Float>) -> Int32 {
        let rounded = pointwiseMin(pointwiseMax(value, .zero), limits) + SIMD4(repeating: 12_582_912)
        #if _endian(little)
        // The four low bytes, narrowed in the vector, are the pixel's bytes in memory order.
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(rounded, to: SIMD4<UInt32>.self)), to: Int32.self)
        #else
        let bytes = unsafeBitCast(rounded, to: SIMD4<Int32>.self) & 0xFF
        return bytes[3] << 24 | bytes[2] << 16 | bytes[1] << 8 | bytes[0]
        #endif
    }

    /// One output row's sums before the horizontal pass: per source column, the four lanes of
    /// the source rows under the output row, each weighted by its share of it (the vertical pass).
    /// Rows of gd pixels go in through `lanes`: for opaque pictures as they are, for the others
    /// premultiplied by their opacity (the alpha lane then holds the opacity).
    @inline(__always)
    private static func sumRows(
        _ sums: UnsafeMutablePointer<SIMD4<Float>>, width: Int, rows: some Collection<(UnsafeMutablePointer<Int32>, Float)>,
        lanes: (Int32, Float) -> SIMD4<Float>
    ) {
        var first = true
        for (row, weight) in rows {
            if first {  // assigned, not added: no zeroing pass
                for x in 0..<width { sums[x] = lanes(row[x], weight) }
                first = false
            } else {
                for x in 0..<width { sums[x] += lanes(row[x], weight) }
            }
        }
    }

    /// Opaque pictures: blue, green, red averaged directly (four lanes at once, the fourth
    /// unused); every output pixel is opaque.
    private static func resampleOpaque(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], placement: Placement, columns: Footprints, lines: Footprints
    ) {
        source.withUnsafeBufferPointer { rows in
            rows.withMemoryRebound(to: UnsafePointer<Int32>?.self) { rows in
                lines.fixedWeights.withUnsafeBufferPointer { weights in
                    resample(
                        source: source, sourceWidth: sourceWidth, target: target, placement: placement, columns: columns, lines: lines,
                        sumRows: { sums, y in
                            let first = lines.starts[y]
                            sums.withMemoryRebound(to: Float.self, capacity: 4 * sourceWidth) { sums in
                                cascade_area_sums(rows.baseAddress! + first, weights.baseAddress! + lines.offsets[y], lines.counts[y], sourceWidth, sums)
                            }
                        },
                        reduceRow: { sums, columns, out in
                            sums.withMemoryRebound(to: Float.self, capacity: 4 * sourceWidth) { sums in
                                cascade_area_row(sums, columns.starts.baseAddress, columns.weights.baseAddress, columns.taps, columns.starts.count, out)
                            }
                        })
                }
            }
        }
    }

    /// Pictures with transparency: colours are averaged weighted by opacity (premultiplied).
    private static func resampleWithAlpha(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], placement: Placement, columns: Footprints, lines: Footprints
    ) {
        resample(
            source: source, sourceWidth: sourceWidth, target: target, placement: placement, columns: columns, lines: lines,
            sumRows: { sums, y in
                let first = lines.starts[y]
                let offset = lines.offsets[y]
                let rows = (0..<lines.counts[y]).lazy.map { k in (source[first + k], lines.weights[offset + k]) }
                sumRows(sums, width: sourceWidth, rows: rows) { pixel, weight in
                    // b·a, g·a, r·a, a: the colour with a fourth lane of 1, times the weighted opacity.
                    let opacity = Float(127 - ((pixel >> 24) & 0x7F)) * weight
                    return Self.lanes(pixel & 0x00FF_FFFF | 0x0100_0000) * opacity
                }
            },
            reduceRow: { sums, columns, out in
                columns.reduce(sums, into: out) { sums in
                    let opacity = sums[3]
                    if opacity <= 0.0001 { return 0x7F00_0000 }  // fully transparent
                    let colour = sums * (1 / opacity)
                    return Self.pixel(SIMD4(colour[0], colour[1], colour[2], 127 - opacity), limits: SIMD4(255, 255, 255, 127))
                }
            })
    }

    /// The horizontal pass's footprints as it reads them: per output pixel the first sum and
    /// `taps` weights (the same number for every pixel: the most any covers; the others' extra
    /// weights are zero, at the front when the footprint ends at the last column), so its inner
    /// loop has one trip count, no mispredicted exit per pixel. Adding a product with a zero
    /// weight leaves a float sum exactly as it was.
    struct ColumnTaps {
        let starts: UnsafeMutableBufferPointer<Int>
        let weights: UnsafeMutableBufferPointer<Float>
        let taps: Int

        /// One output row: for each pixel its weighted sum of `sums`, turned into a pixel by `pixel`.
        @inline(__always)
        func reduce(_ sums: UnsafeMutablePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<Int32>, pixel: (SIMD4<Float>) -> Int32) {
            for x in 0..<starts.count {
                let from = sums + starts[x]
                let weights = weights.baseAddress! + x &* taps
                var total = from[0] * weights[0]
                for k in 1..<taps { total += from[k] * weights[k] }
                out[x] = pixel(total)
            }
        }
    }

    /// Both passes, row by row of the target in the source's axes: `sumRows` fills the line of
    /// sums for a target row (the vertical pass), `reduceRow` turns the line into the row's
    /// pixels (the horizontal pass).
    @inline(__always)
    private static func resample(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], placement: Placement, columns: Footprints, lines: Footprints,
        sumRows: (UnsafeMutablePointer<SIMD4<Float>>, Int) -> Void,
        reduceRow: (UnsafeMutablePointer<SIMD4<Float>>, ColumnTaps, UnsafeMutablePointer<Int32>) -> Void
    ) {
        let targetWidth = placement.storedWidth
        let bandRows = placement.bandRows
        let band = UnsafeMutablePointer<Int32>.allocate(capacity: targetWidth * bandRows)
        let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: sourceWidth)
        let taps = max(1, columns.counts.max() ?? 1)
        let columnStarts = UnsafeMutableBufferPointer<Int>.allocate(capacity: targetWidth)
        let columnWeights = UnsafeMutableBufferPointer<Float>.allocate(capacity: targetWidth * taps)
        columnWeights.initialize(repeating: 0)
        for x in 0..<targetWidth {
            let start = min(columns.starts[x], sourceWidth - taps)
            let padding = columns.starts[x] - start
            columnStarts[x] = start
            for k in 0..<columns.counts[x] { columnWeights[x * taps + padding + k] = columns.weights[columns.offsets[x] + k] }
        }
        defer {
            band.deallocate()
            sums.deallocate()
            columnStarts.deallocate()
            columnWeights.deallocate()
        }
        for y in 0..<placement.storedHeight {
            let straight = placement.straightRow(y, in: target)
            let inBand = y % bandRows
            let out = straight ?? band + inBand * targetWidth
            sumRows(sums, y)
            reduceRow(sums, ColumnTaps(starts: columnStarts, weights: columnWeights, taps: taps), out)
            if straight != nil { continue }
            if bandRows == 1 {
                placement.place(out, storedRow: y, into: target)
            } else if inBand == bandRows - 1 || y == placement.storedHeight - 1 {
                placement.placeColumns(band, count: inBand + 1, firstStoredRow: y - inBand, into: target)
            }
        }
    }
}
