import CPixelKernels

/// A matrix-shaper conversion (``MatrixShaperTables``) with the matrix folded into the input
/// tables: the form pixels are converted in where the faster pair tables
/// (``PairedMatrixShaper``) cannot serve, as for BT.2020, whose blue primary is not sRGB's.
/// For each input channel and 8-bit value, one 64-bit
/// word holds that value's contribution to each of the three target channels: its linear light
/// times the matrix entry, rounded to 2^-5 of an output-table step, in three 21-bit fields.
/// A pixel's three words added give the three target channels' output-table indices, so a
/// pixel costs three loads and two adds where the unfolded tables take three loads, nine
/// multiplications and six adds.
///
/// The fields never borrow from or carry into each other: each entry is biased to be at least
/// 0 (matrices between wide gamuts and sRGB have negative entries), and the biased sums stay
/// below 2^21. The output table is indexed by the biased index and clamps, so no comparison is
/// made per pixel. The rounding of each product before adding moves a few pixels by one level
/// against the unfolded arithmetic (``MatrixShaperTables/applyUnfolded(_:count:)``), never more.
struct FoldedMatrixShaper: Sendable {
    static let fieldBits = Int(CASCADE_FOLDED_FIELD_BITS)
    static let fractionBits = Int(CASCADE_FOLDED_FRACTION_BITS)

    /// Red's 256 words, then green's, then blue's.
    private let words: [UInt64]
    /// The target's 8-bit value for each biased index a sum can reach.
    private let output: [UInt8]

    /// The folded form of the products `matrix[row * 3 + channel] * input[channel][value]`
    /// (fixed point, `shift` bits above an index of `linearOutput`, which has `top + 1`
    /// entries), or nil when a matrix's sums would not fit the fields (no real profile's do:
    /// their range is about 1.5 to 2.3 times that of the colours inside the target).
    init?(input: [[Int32]], matrix: [Int], linearOutput: [UInt8], top: Int, shift: Int) {
        let drop = shift - Self.fractionBits
        guard drop >= 1 else { return nil }
        // Each product in units of 2^-fractionBits of an output-table step, rounded half up.
        func product(_ row: Int, _ channel: Int, _ value: Int) -> Int {
            (matrix[row * 3 + channel] * Int(input[channel][value]) + (1 << (drop - 1))) >> drop
        }
        var lowest = [[Int]](repeating: [0, 0, 0], count: 3)
        var highest = [[Int]](repeating: [0, 0, 0], count: 3)
        for row in 0..<3 {
            for channel in 0..<3 {
                let values = (0..<256).map { product(row, channel, $0) }
                lowest[row][channel] = min(0, values.min()!)
                highest[row][channel] = values.max()!
            }
        }
        // Each field is lifted by its lowest value; every row's sum then by the same `bias` (a
        // whole number of steps, given to the red word's fields) plus half a step, so the
        // sum's field shifted right by `fractionBits` is the rounded index plus bias / step.
        let step = 1 << Self.fractionBits
        let needed = lowest.map { -$0.reduce(0, +) }
        let bias = (needed.max()! + step - 1) / step * step
        let largest = (0..<3).map { highest[$0].reduce(0, +) }.max()! + bias + step / 2
        guard largest < 1 << Self.fieldBits else { return nil }
        var words = [UInt64](repeating: 0, count: 768)
        for channel in 0..<3 {
            for value in 0..<256 {
                var word: UInt64 = 0
                for row in 0..<3 {
                    var field = product(row, channel, value) - lowest[row][channel]
                    if channel == 0 { field += bias - needed[row] + step / 2 }
                    word |= UInt64(field) << (row * Self.fieldBits)
                }
                words[channel * 256 + value] = word
            }
        }
        let offset = bias >> Self.fractionBits
        self.words = words
        output = (0...(largest >> Self.fractionBits)).map { linearOutput[min(max($0 - offset, 0), top)] }
    }

    /// Converts `count` gd pixels (`0xAARRGGBB`-style) at `pixels`, in place: eight at a time in
    /// the C kernel (`CPixelKernels`), the rest in Swift. The same pixels either way. Alpha is
    /// kept, or with `opaque` set to 0 (opaque) in the same pass, whatever it held.
    func apply(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        let done = words.withUnsafeBufferPointer { words in
            output.withUnsafeBufferPointer { output in
                opaque
                    ? cascade_folded_matrix_shaper_apply_opaque(words.baseAddress, output.baseAddress, pixels, count)
                    : cascade_folded_matrix_shaper_apply(words.baseAddress, output.baseAddress, pixels, count)
            }
        }
        if done < count { applyScalar(pixels + done, count: count - done, opaque: opaque) }
    }

    /// ``apply(_:count:opaque:)`` with the C kernel's path for processors without BMI1 (for tests).
    func applyPlainKernel(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        let done = words.withUnsafeBufferPointer { words in
            output.withUnsafeBufferPointer { output in
                opaque
                    ? cascade_folded_matrix_shaper_apply_opaque_plain(words.baseAddress, output.baseAddress, pixels, count)
                    : cascade_folded_matrix_shaper_apply_plain(words.baseAddress, output.baseAddress, pixels, count)
            }
        }
        if done < count { applyScalar(pixels + done, count: count - done, opaque: opaque) }
    }

    /// Converts `count` gd pixels at `pixels` in place with the Swift loop alone: the C
    /// kernel's arithmetic (its reference in tests).
    func applyScalar(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        let fraction = UInt64(Self.fractionBits)
        let field = UInt64(Self.fieldBits)
        let mask: UInt64 = (1 << (field - fraction)) - 1
        let kept: UInt32 = opaque ? 0 : 0xFF00_0000
        words.withUnsafeBufferPointer { words in
            output.withUnsafeBufferPointer { output in
                for x in 0..<count {
                    let pixel = UInt32(bitPattern: pixels[x])
                    let sum = words[Int(pixel >> 16 & 0xFF)] &+ words[256 + Int(pixel >> 8 & 0xFF)] &+ words[512 + Int(pixel & 0xFF)]
                    let r = UInt32(output[Int(sum >> fraction & mask)])
                    let g = UInt32(output[Int(sum >> (field + fraction) & mask)])
                    let b = UInt32(output[Int(sum >> (2 * field + fraction))])
                    pixels[x] = Int32(bitPattern: pixel & kept | r << 16 | g << 8 | b)
                }
            }
        }
    }
}
