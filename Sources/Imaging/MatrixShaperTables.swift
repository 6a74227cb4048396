import CLCMS2

/// The conversion between two matrix-shaper RGB profiles (three tone curves and a 3×3 matrix
/// each: what camera, Display P3, Adobe RGB and sRGB profiles are) as tables: each 8-bit input
/// to linear light, one matrix from the source's primaries to the target's, and linear light
/// back to 8 bits. The same arithmetic as Little CMS's relative colorimetric transform of such
/// profiles, at a fraction of its per-pixel cost (it calls a formatter, an evaluator and a
/// packer for every pixel). Pixels are converted by one of two kinds of tables made from these
/// (a ``Kernel``), each within one level of this unfolded arithmetic, which
/// ``applyUnfolded(_:count:)`` keeps for tests.
struct MatrixShaperTables: Sendable {
    /// Fixed-point scales: linear light in the input tables (1.0 = 2^16), the matrix (2^14),
    /// and the output table's index (2^14 steps from 0 to 1.0, both included).
    static let inputBits = 16
    static let matrixBits = 14
    static let outputBits = 14
    static var outputSize: Int { (1 << outputBits) + 1 }

    /// Per input channel (red, green, blue), the linear light of each 8-bit value (fixed point).
    private let input: [[Int32]]
    /// Row-major, target linear RGB from source linear RGB (fixed point).
    let matrix: [Int]
    /// 8-bit target values of linear light at `i / 2^outputBits`.
    private let output: [UInt8]
    /// What converts pixels.
    let kernel: Kernel

    /// The tables pixels are converted by.
    enum Kernel: Sendable {
        /// Red and green looked up by the source's red and green together, where the matrix's
        /// red and green rows take nothing from blue (profiles that share their blue primary:
        /// Display P3, Adobe RGB, sRGB).
        case paired(PairedMatrixShaper)
        /// The matrix folded into the input tables: any matrix.
        case folded(FoldedMatrixShaper)

        /// Converts `count` gd pixels at `pixels` in place in the C kernel; alpha kept, or set
        /// to 0 (opaque) with `opaque`.
        func apply(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
            switch self {
            case .paired(let paired): paired.apply(pixels, count: count, opaque: opaque)
            case .folded(let folded): folded.apply(pixels, count: count, opaque: opaque)
            }
        }

        /// ``apply(_:count:opaque:)`` with the C kernel's path for processors without BMI1 (for tests).
        func applyPlainKernel(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
            switch self {
            case .paired(let paired): paired.applyPlainKernel(pixels, count: count, opaque: opaque)
            case .folded(let folded): folded.applyPlainKernel(pixels, count: count, opaque: opaque)
            }
        }

        /// The same arithmetic in a Swift loop alone: the C kernel's reference in tests.
        func applyScalar(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
            switch self {
            case .paired(let paired): paired.applyScalar(pixels, count: count, opaque: opaque)
            case .folded(let folded): folded.applyScalar(pixels, count: count, opaque: opaque)
            }
        }
    }

    /// The tables from `source` to `target` (the pair tables where the matrix allows them and
    /// `pairing` is set, else the folded tables), or nil when either profile is not a plain
    /// matrix-shaper profile (one with lookup tables is left to Little CMS, which prefers
    /// those) or the matrix's sums are too wide to fold (none of the real profiles').
    init?(from source: borrowing LCMSProfile, to target: borrowing LCMSProfile, pairing: Bool = true) {
        guard let sourceMatrix = Self.colorants(source.handle), let targetMatrix = Self.colorants(target.handle),
            let inverse = Self.inverse(targetMatrix)
        else { return nil }
        var input: [[Int32]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(source.handle, tag) else { return nil }
            let tone = OpaquePointer(curve)
            input.append((0..<256).map { Int32((max(0, min(1, cmsEvalToneCurveFloat(tone, Float($0) / 255))) * Float(1 << Self.inputBits)).rounded()) })
        }
        var output: [UInt8] = []
        output.reserveCapacity(Self.outputSize)
        for tag in [cmsSigRedTRCTag] {  // the target's curves are one curve for sRGB and its kin
            guard let curve = cmsReadTag(target.handle, tag), let reversed = cmsReverseToneCurve(OpaquePointer(curve)) else { return nil }
            defer { cmsFreeToneCurve(reversed) }
            for index in 0..<Self.outputSize {
                let value = cmsEvalToneCurveFloat(reversed, Float(index) / Float(1 << Self.outputBits))
                output.append(UInt8(max(0, min(255, (value * 255).rounded()))))
            }
        }
        var product = [Int](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                let value = (0..<3).map { inverse[row][$0] * sourceMatrix[$0][column] }.reduce(0, +)
                guard abs(value) < 64 else { return nil }
                product[row * 3 + column] = Int((value * Double(1 << Self.matrixBits)).rounded())
            }
        }
        let shift = Self.inputBits + Self.matrixBits - Self.outputBits
        let top = 1 << Self.outputBits
        if pairing, let paired = PairedMatrixShaper(input: input, matrix: product, linearOutput: output, top: top, shift: shift) {
            kernel = .paired(paired)
        } else if let folded = FoldedMatrixShaper(input: input, matrix: product, linearOutput: output, top: top, shift: shift) {
            kernel = .folded(folded)
        } else {
            return nil
        }
        self.input = input
        self.matrix = product
        self.output = output
    }

    /// Whether all three of `target`'s tone curves are the same (the output table serves all three).
    static func hasOneCurve(_ profile: borrowing LCMSProfile) -> Bool {
        let curves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].map { tag in
            cmsReadTag(profile.handle, tag).map { curve in (0...16).map { cmsEvalToneCurveFloat(OpaquePointer(curve), Float($0) / 16) } }
        }
        guard let first = curves[0] else { return false }
        return curves.allSatisfy { $0.map { zip($0, first).allSatisfy { abs($0 - $1) < 1e-5 } } ?? false }
    }

    /// The XYZ (D50) of each primary as matrix columns, nil for a profile that is not a plain
    /// matrix-shaper one.
    private static func colorants(_ profile: cmsHPROFILE) -> [[Double]]? {
        guard cmsIsMatrixShaper(profile) != 0, cmsIsTag(profile, cmsSigAToB0Tag) == 0, cmsIsTag(profile, cmsSigAToB1Tag) == 0
        else { return nil }
        var columns: [[Double]] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let pointer = cmsReadTag(profile, tag) else { return nil }
            let xyz = pointer.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
            columns.append([xyz.X, xyz.Y, xyz.Z])
        }
        return (0..<3).map { row in (0..<3).map { columns[$0][row] } }
    }

    private static func inverse(_ m: [[Double]]) -> [[Double]]? {
        let (a, b, c, d, e, f, g, h, i) = (m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard abs(det) > 1e-9 else { return nil }
        return [[e * i - f * h, c * h - b * i, b * f - c * e], [f * g - d * i, a * i - c * g, c * d - a * f],
                [d * h - e * g, b * g - a * h, a * e - b * d]].map { $0.map { $0 / det } }
    }

    /// Converts `count` gd pixels (`0xAARRGGBB`-style) at `pixels`, in place, with the
    /// ``kernel``'s tables: alpha kept, or set to 0 (opaque) with `opaque`.
    func apply(_ pixels: UnsafeMutablePointer<Int32>, count: Int, opaque: Bool = false) {
        kernel.apply(pixels, count: count, opaque: opaque)
    }

    /// Converts `count` gd pixels at `pixels` in place with the unfolded arithmetic (each
    /// channel's linear light times the matrix, summed, rounded once), in integer arithmetic
    /// (no conversion that could trap in the loop): the reference both kinds of tables are
    /// checked against in tests, within one level.
    func applyUnfolded(_ pixels: UnsafeMutablePointer<Int32>, count: Int) {
        let m = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5], matrix[6], matrix[7], matrix[8])
        let shift = Self.inputBits + Self.matrixBits - Self.outputBits
        let half = 1 << (shift - 1)
        let top = 1 << Self.outputBits
        input[0].withUnsafeBufferPointer { red in
            input[1].withUnsafeBufferPointer { green in
                input[2].withUnsafeBufferPointer { blue in
                    output.withUnsafeBufferPointer { out in
                        @inline(__always) func encode(_ v: Int) -> UInt32 {
                            UInt32(out[min(max((v &+ half) >> shift, 0), top)])
                        }
                        for x in 0..<count {
                            let pixel = UInt32(bitPattern: pixels[x])
                            let r = Int(red[Int(pixel >> 16 & 0xFF)])
                            let g = Int(green[Int(pixel >> 8 & 0xFF)])
                            let b = Int(blue[Int(pixel & 0xFF)])
                            let R = encode(m.0 &* r &+ m.1 &* g &+ m.2 &* b)
                            let G = encode(m.3 &* r &+ m.4 &* g &+ m.5 &* b)
                            let B = encode(m.6 &* r &+ m.7 &* g &+ m.8 &* b)
                            pixels[x] = Int32(bitPattern: pixel & 0xFF00_0000 | R << 16 | G << 8 | B)
                        }
                    }
                }
            }
        }
    }
}
