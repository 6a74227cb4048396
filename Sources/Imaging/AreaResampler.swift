/// Downscaling by area averaging ("pixel mixing"): each output pixel is the average of the part
/// of the picture it covers, each input pixel weighted by how much of it lies under the output
/// pixel. Nothing aliases at any reduction, solid areas stay exactly solid up to the edges, and
/// it is an order of magnitude faster than gd's two-pass filters.
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

        init(from source: Int, to target: Int) {
            precondition(target >= 1 && target <= source)
            let scale = Double(source) / Double(target)
            starts = []
            counts = []
            weights = []
            offsets = []
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

    /// A channel's average, clamped to 0...`limit`, rounded to the nearest integer (ties to
    /// even) without a call into libm or a checked conversion: adding 1.5·2²³ leaves the
    /// rounded integer in the low bits of the float's significand.
    @inline(__always)
    private static func channel(_ value: Float, limit: Float = 255) -> Int32 {
        Int32(bitPattern: (min(limit, max(0, value)) + 12_582_912).bitPattern & 0xFF)
    }

    /// Opaque pictures: per source column, one plane of weighted sums for each colour, so the
    /// vertical pass runs over contiguous memory; every output pixel is opaque.
    private static func resampleOpaque(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], placement: Placement, columns: Footprints, lines: Footprints
    ) {
        let targetWidth = placement.storedWidth
        let out = UnsafeMutablePointer<Int32>.allocate(capacity: targetWidth)
        defer { out.deallocate() }
        var planes = [Float](repeating: 0, count: sourceWidth * 3)
        planes.withUnsafeMutableBufferPointer { planes in
            let reds = planes.baseAddress!
            let greens = reds + sourceWidth
            let blues = greens + sourceWidth
            columns.weights.withUnsafeBufferPointer { columnWeights in
                for y in 0..<placement.storedHeight {
                    planes.update(repeating: 0)
                    let lineOffset = lines.offsets[y]
                    for k in 0..<lines.counts[y] {
                        let weight = lines.weights[lineOffset + k]
                        let row = source[lines.starts[y] + k]
                        for x in 0..<sourceWidth {
                            let pixel = row[x]
                            reds[x] += Float((pixel >> 16) & 0xFF) * weight
                            greens[x] += Float((pixel >> 8) & 0xFF) * weight
                            blues[x] += Float(pixel & 0xFF) * weight
                        }
                    }
                    for x in 0..<targetWidth {
                        var r: Float = 0, g: Float = 0, b: Float = 0
                        let offset = columns.offsets[x]
                        let start = columns.starts[x]
                        for k in 0..<columns.counts[x] {
                            let weight = columnWeights[offset &+ k]
                            r += reds[start &+ k] * weight
                            g += greens[start &+ k] * weight
                            b += blues[start &+ k] * weight
                        }
                        out[x] = channel(r) << 16 | channel(g) << 8 | channel(b)
                    }
                    placement.place(out, storedRow: y, into: target)
                }
            }
        }
    }

    /// Pictures with transparency: colours are averaged weighted by opacity (premultiplied).
    private static func resampleWithAlpha(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], placement: Placement, columns: Footprints, lines: Footprints
    ) {
        let targetWidth = placement.storedWidth
        let out = UnsafeMutablePointer<Int32>.allocate(capacity: targetWidth)
        defer { out.deallocate() }
        // Premultiplied sums per source column for the current output row: a, r·a, g·a, b·a.
        var line = [Float](repeating: 0, count: sourceWidth * 4)
        line.withUnsafeMutableBufferPointer { line in
            columns.weights.withUnsafeBufferPointer { columnWeights in
                for y in 0..<placement.storedHeight {
                    line.update(repeating: 0)
                    let lineOffset = lines.offsets[y]
                    for k in 0..<lines.counts[y] {
                        let weight = lines.weights[lineOffset + k]
                        let row = source[lines.starts[y] + k]
                        for x in 0..<sourceWidth {
                            let pixel = row[x]
                            let opacity = Float(127 - ((pixel >> 24) & 0x7F)) * weight
                            let base = x &* 4
                            line[base] += opacity
                            line[base &+ 1] += Float((pixel >> 16) & 0xFF) * opacity
                            line[base &+ 2] += Float((pixel >> 8) & 0xFF) * opacity
                            line[base &+ 3] += Float(pixel & 0xFF) * opacity
                        }
                    }
                    for x in 0..<targetWidth {
                        var a: Float = 0, r: Float = 0, g: Float = 0, b: Float = 0
                        let offset = columns.offsets[x]
                        let start = columns.starts[x]
                        for k in 0..<columns.counts[x] {
                            let weight = columnWeights[offset &+ k]
                            let base = (start &+ k) &* 4
                            a += line[base] * weight
                            r += line[base &+ 1] * weight
                            g += line[base &+ 2] * weight
                            b += line[base &+ 3] * weight
                        }
                        if a <= 0.0001 {
                            out[x] = 0x7F00_0000  // fully transparent
                            continue
                        }
                        let inverse = 1 / a
                        out[x] = channel(127 - a, limit: 127) << 24 | channel(r * inverse) << 16
                            | channel(g * inverse) << 8 | channel(b * inverse)
                    }
                    placement.place(out, storedRow: y, into: target)
                }
            }
        }
    }
}
