import CPixelKernels

/// A matrix-shaper conversion (``MatrixShaperTables``) for matrices whose target red and green
/// take nothing from the source's blue: conversions between profiles that share their blue
/// primary, as Display P3, Adobe RGB and sRGB do (Display P3 or Adobe RGB to sRGB, Adobe RGB to
/// Display P3). The target's red and green then depend on the source's red and green alone, so
/// one table of 65,536 words indexed by that pair holds both, already in place. The same word
/// holds the pair's share of the target's blue as one of 256 buckets, and a second table,
/// indexed by the bucket and the source's blue, holds the target's blue. A pixel costs two
/// table loads where the folded tables (``FoldedMatrixShaper``) take six: a quarter to a
/// third less time in a loop of its own, a fifth to a quarter less in a build (the tables,
/// 320 KB, miss L1 more often there).
///
/// Profiles store their primaries rounded to 16-bit fractions, so a matrix between two that
/// share their blue primary can have ±1 or ±2 (of 2^14) where blue meets red or green; the
/// tables leave those out. Red and green are then within one level of the unfolded arithmetic
/// (``MatrixShaperTables/applyUnfolded(_:count:)``), and exactly its values where those entries
/// are 0. Blue is worked out from the centre of the pair's bucket instead of the pair's own
/// share. The tables are made only when neither moves any value by more than one level: when
/// the output table changes by at most one level over the most output-table steps that half a
/// bucket, or a left-out entry, can span.
struct PairedMatrixShaper: Sendable {
    /// For each source red << 8 | green: the target's red << 24 | green << 16 | bucket << 8.
    private let pairs: [UInt32]
    /// For each bucket << 8 | source blue: the target's blue.
    private let blue: [UInt8]

    /// The largest entry (of 2^14) where blue meets red or green that the tables leave out:
    /// what rounding the primaries to 16-bit fractions leaves of a shared blue primary.
    static let largestLeftOut = 2

    /// The pair tables for `matrix` (row-major, fixed point; see ``FoldedMatrixShaper``'s
    /// initialiser for the other arguments), or nil when the matrix's red or green row takes
    /// more than ``largestLeftOut`` from blue, or the values would move by more than a level.
    init?(input: [[Int32]], matrix: [Int], linearOutput: [UInt8], top: Int, shift: Int) {
        let leftOut = max(abs(matrix[2]), abs(matrix[5]))
        guard leftOut <= Self.largestLeftOut, shift >= 1 else { return nil }
        let half = 1 << (shift - 1)
        func encode(_ value: Int) -> UInt32 { UInt32(linearOutput[min(max((value + half) >> shift, 0), top)]) }
        // Each pair's (red << 8 | green) share of the target's blue.
        let shares = (0..<65536).map { matrix[6] * Int(input[0][$0 >> 8]) + matrix[7] * Int(input[1][$0 & 0xFF]) }
        let lowest = shares.min()!
        let highest = shares.max()!
        let width = Double(highest - lowest) / 255
        // A share is at most half a bucket (plus the centre's rounding) from its bucket's
        // centre, and a red or green sum at most the left-out entry times the largest blue from
        // the unfolded one: two sums that far apart have output-table indices at most `reach`
        // apart.
        let blueReach = Int((width / 2 + 1) / Double(1 << shift)) + 1
        let pairReach = leftOut == 0 ? 0 : Int(Double(leftOut * Int(input[2].max()!)) / Double(1 << shift)) + 1
        let reach = max(blueReach, pairReach)
        guard reach < top else { return nil }
        for index in 0...(top - reach) {
            let values = linearOutput[index...(index + reach)]
            guard Int(values.max()!) - Int(values.min()!) <= 1 else { return nil }
        }
        func bucket(_ value: Int) -> Int { width > 0 ? Int((Double(value - lowest) / width).rounded()) : 0 }
        func centre(_ bucket: Int) -> Int { lowest + Int((Double(bucket) * width).rounded()) }
        let pairs = shares.indices.map { pair in
            let (red, green) = (Int(input[0][pair >> 8]), Int(input[1][pair & 0xFF]))
            return encode(matrix[0] * red + matrix[1] * green) << 24 | encode(matrix[3] * red + matrix[4] * green) << 16
                | UInt32(bucket(shares[pair])) << 8
        }
        var blue = [UInt8](repeating: 0, count: 65536)
        for bucket in 0..<256 {
            for value in 0..<256 {
                blue[bucket << 8 | value] = UInt8(encode(centre(bucket) + matrix[8] * Int(input[2][value])))
            }
        }
        self.pairs = pairs
        self.blue = blue
    }

    /// Converts `count` gd pixels (`0xAARRGGBB`-style) at `pixels`, in place, in the C kernel
    /// (`CPixelKernels`). Alpha is kept, or with `opaque` set to 0 (opaque) in the same pass.
    func apply(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        convert(pixels, count: count, with: opaque ? cascade_paired_matrix_shaper_apply_opaque : cascade_paired_matrix_shaper_apply)
    }

    /// ``apply(_:count:opaque:)`` with the C kernel's path for processors without BMI1 (for tests).
    func applyPlainKernel(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        convert(
            pixels, count: count,
            with: opaque ? cascade_paired_matrix_shaper_apply_opaque_plain : cascade_paired_matrix_shaper_apply_plain)
    }

    /// Hands the tables and the pixels to one of the C kernel's entry points.
    private func convert(
        _ pixels: UnsafeMutablePointer<Int32>, count: Int,
        with kernel: (UnsafePointer<UInt32>?, UnsafePointer<UInt8>?, UnsafeMutablePointer<Int32>?, Int) -> Int
    ) {
        pairs.withUnsafeBufferPointer { pairs in
            blue.withUnsafeBufferPointer { blue in _ = kernel(pairs.baseAddress, blue.baseAddress, pixels, count) }
        }
    }

    /// Converts `count` gd pixels at `pixels` in place with a Swift loop: the C kernel's
    /// arithmetic (its reference in tests).
    func applyScalar(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        let kept: UInt32 = opaque ? 0 : 0xFF00_0000
        for x in 0..<count {
            let pixel = UInt32(bitPattern: pixels[x])
            let pair = pairs[Int(pixel >> 8 & 0xFFFF)]
            let b = UInt32(blue[Int(pair & 0xFF00 | pixel & 0xFF)])
            pixels[x] = Int32(bitPattern: pixel & kept | (pair >> 8) & 0xFF_FF00 | b)
        }
    }
}
