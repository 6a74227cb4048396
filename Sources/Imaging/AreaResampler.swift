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

    /// Writes `source` (rows of gd pixels, `sourceWidth` wide) scaled to the rows of `target`
    /// (`targetWidth` wide), each dimension no larger than the source's.
    static func resample(
        source: [UnsafeMutablePointer<Int32>], sourceWidth: Int,
        target: [UnsafeMutablePointer<Int32>], targetWidth: Int
    ) {
        let columns = Footprints(from: sourceWidth, to: targetWidth)
        let lines = Footprints(from: source.count, to: target.count)
        // Premultiplied sums per source column for the current output row: a, r·a, g·a, b·a.
        var line = [Float](repeating: 0, count: sourceWidth * 4)
        line.withUnsafeMutableBufferPointer { line in
            columns.weights.withUnsafeBufferPointer { columnWeights in
                for y in 0..<target.count {
                    for index in 0..<line.count { line[index] = 0 }
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
                    let out = target[y]
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
                        let red = Int32(min(255, max(0, (r / a).rounded())))
                        let green = Int32(min(255, max(0, (g / a).rounded())))
                        let blue = Int32(min(255, max(0, (b / a).rounded())))
                        let alpha = Int32(min(127, max(0, (127 - a).rounded())))
                        out[x] = alpha << 24 | red << 16 | green << 8 | blue
                    }
                }
            }
        }
    }
}
