import CPixelKernels
import Testing
import TestSupport

@testable import Imaging

/// The integer vertical pass of the opaque resampler (`cascade_area_sums`): its AVX2 path and
/// its plain C one give the same sums, and pictures come out within one level of the float
/// arithmetic it replaced.
@Suite struct AreaSumsKernelTests {
    /// `cascade_area_sums` (AVX2 where the processor has it) and its plain path on the same rows.
    static func bothPaths(rows: [[Int32]], weights: [Int16], width: Int) -> (vector: [Float], plain: [Float]) {
        var vector = [Float](repeating: -1, count: 4 * width)
        var plain = vector
        let copies = rows.map { row in
            let copy = UnsafeMutableBufferPointer<Int32>.allocate(capacity: row.count)
            _ = copy.initialize(from: row)
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers = copies.map { UnsafePointer<Int32>?(UnsafePointer($0.baseAddress!)) }
        cascade_area_sums(pointers, weights, rows.count, width, &vector)
        cascade_area_sums_plain(pointers, weights, rows.count, width, &plain)
        return (vector, plain)
    }

    @Test(arguments: [1, 2, 3, 4, 7, 8])
    func bothPathsGiveTheSameSumsAsTheDefinition(rowCount: Int) {
        var random = SplitMix64(seed: UInt64(rowCount))
        for width in [1, 7, 8, 9, 16, 37, 2501] {
            let rows = (0..<rowCount).map { _ in (0..<width).map { _ in Int32(truncatingIfNeeded: random.next()) } }
            var weights = (0..<rowCount).map { _ in Int16(random.int(0...(1 << 14) / rowCount)) }
            weights[0] += Int16(1 << 14) - weights.reduce(0, +)
            let (vector, plain) = Self.bothPaths(rows: rows, weights: weights, width: width)
            #expect(vector == plain, "\(rowCount) rows of \(width)")
            let x = width - 1
            for channel in 0..<4 {
                let total = (0..<rowCount).map { Int(UInt32(bitPattern: rows[$0][x]) >> (8 * channel) & 0xFF) * Int(weights[$0]) }.reduce(0, +)
                #expect(plain[4 * x + channel] == Float(total) / Float(1 << 14))
            }
        }
    }

    /// `cascade_area_row`'s two paths and the Swift loop of the premultiplied path, given the
    /// same sums and weights, make the same pixels (the opaque ones: alpha byte 0).
    @Test(arguments: [1, 2, 3, 7])
    func horizontalPassIsTheSameOnEveryPath(taps: Int) {
        var random = SplitMix64(seed: UInt64(100 + taps))
        for width in [1, 2, 3, 9, 2401] {
            let sourceWidth = width * 2 + taps
            var sums = (0..<sourceWidth).map { _ in
                SIMD4<Float>(Float(random.double(-3...260)), Float(random.double(-3...260)), Float(random.double(-3...260)), Float(random.double(0...9)))
            }
            sums[0] = SIMD4(127.5, 128.5, 0.5, 0)  // ties go to even
            let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
            let weights = UnsafeMutableBufferPointer<Float>.allocate(capacity: width * taps)
            defer {
                starts.deallocate()
                weights.deallocate()
            }
            for x in 0..<width {
                starts[x] = x == 0 ? 0 : random.int(0...(sourceWidth - taps))
                for k in 0..<taps { weights[x * taps + k] = x == 0 ? (k == 0 ? 1 : 0) : Float(random.double(0...1)) / Float(taps) }
            }
            var vector = [Int32](repeating: -1, count: width)
            var plain = vector
            var swift = vector
            sums.withUnsafeMutableBufferPointer { sums in
                sums.withMemoryRebound(to: Float.self) { floats in
                    cascade_area_row(floats.baseAddress, starts.baseAddress, weights.baseAddress, taps, width, &vector)
                    cascade_area_row_plain(floats.baseAddress, starts.baseAddress, weights.baseAddress, taps, width, &plain)
                }
                AreaResampler.ColumnTaps(starts: starts, weights: weights, taps: taps).reduce(sums.baseAddress!, into: &swift) {
                    AreaResampler.pixel($0, limits: SIMD4(255, 255, 255, 0))
                }
            }
            #expect(vector == plain, "\(taps) taps, \(width) wide")
            #expect(plain == swift, "\(taps) taps, \(width) wide")
            #expect(plain[0] == 0x00_00_80_80)  // blue 127.5 → 128, green 128.5 → 128, red 0.5 → 0
        }
    }

    @Test func fixedWeightsSumToOneExactly() {
        for (source, target) in [(2500, 2400), (1875, 1800), (2400, 400), (7, 3), (1000, 999), (3, 1)] {
            let footprints = AreaResampler.Footprints(from: source, to: target)
            for index in 0..<target {
                let fixed = footprints.fixedWeights[footprints.offsets[index]..<footprints.offsets[index] + footprints.counts[index]]
                #expect(fixed.map(Int.init).reduce(0, +) == 1 << 14)
                #expect(fixed.allSatisfy { $0 >= 0 })
            }
        }
    }

    /// The opaque resampler before the integer pass, for upright pictures: both passes in
    /// floats, each source pixel's bytes times its row's weight.
    static func floatResample(_ image: borrowing Image, width: Int, height: Int) -> [[SIMD4<Int>]] {
        let columns = AreaResampler.Footprints(from: image.width, to: width)
        let lines = AreaResampler.Footprints(from: image.height, to: height)
        let rows = image.rows
        return (0..<height).map { y in
            let sums = (0..<image.width).map { x in
                var sum = SIMD4<Float>.zero
                for k in 0..<lines.counts[y] {
                    let pixel = UInt32(bitPattern: rows[lines.starts[y] + k][x])
                    let bytes = SIMD4<Float>(Float(pixel & 0xFF), Float(pixel >> 8 & 0xFF), Float(pixel >> 16 & 0xFF), 0)
                    sum = k == 0 ? bytes * lines.weights[lines.offsets[y]] : sum + bytes * lines.weights[lines.offsets[y] + k]
                }
                return sum
            }
            return (0..<width).map { x in
                var total = SIMD4<Float>.zero
                for k in 0..<columns.counts[x] { total += sums[columns.starts[x] + k] * columns.weights[columns.offsets[x] + k] }
                let clamped = total.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
                return SIMD4<Int>(clamped.rounded(.toNearestOrEven))
            }
        }
    }

    @Test(arguments: [(1250, 940, 1200, 900), (301, 203, 97, 61), (640, 480, 107, 80), (50, 50, 49, 3)])
    func withinOneLevelOfTheFloatPass(sizes: (Int, Int, Int, Int)) throws {
        let (width, height, targetWidth, targetHeight) = sizes
        // Rows of a smooth gradient with noise, as photos have, and pure noise for the small ones.
        var random = SplitMix64(seed: UInt64(width))
        var image = try Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let base = width > 1000 ? (x + y) * 255 / (width + height) : 0
                let spread = width > 1000 ? 12 : 255
                func channel() -> UInt8 { UInt8(min(255, base + random.int(0...spread))) }
                image.fill(x: x, y: y, width: 1, height: 1, red: channel(), green: channel(), blue: channel())
            }
        }
        let small = try image.resized(width: targetWidth, height: targetHeight)
        let reference = Self.floatResample(image, width: targetWidth, height: targetHeight)
        var worst = 0
        var differing = 0
        for y in 0..<targetHeight {
            for x in 0..<targetWidth {
                let p = small.pixel(x: x, y: y)
                let made = SIMD4<Int>(Int(p.blue), Int(p.green), Int(p.red), 0)
                let difference = made &- reference[y][x]
                worst = max(worst, abs(difference[0]), abs(difference[1]), abs(difference[2]))
                if difference != .zero { differing += 1 }
            }
        }
        #expect(worst <= 1, "\(worst) levels from the float pass")
        // A rounding difference: few pixels change at all.
        #expect(differing * 20 < targetWidth * targetHeight, "\(differing) of \(targetWidth * targetHeight) pixels differ")
    }
}
