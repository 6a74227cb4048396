import Testing
import TestSupport
@testable import Imaging

/// The C kernel behind ``MatrixShaperTables/apply(_:count:)`` (the folded tables) gives exactly
/// the pixels of the folded Swift loop, which stays within one level of the unfolded arithmetic
/// and agrees with Little CMS.
@Suite struct MatrixShaperKernelTests {
    /// Source and target profiles whose conversions run on the tables.
    static let conversions = ["Display P3 to sRGB", "Adobe RGB to sRGB", "BT.2020 to sRGB", "Adobe RGB to Display P3"]

    static func tables(_ name: String) throws -> MatrixShaperTables {
        let made: MatrixShaperTables?
        switch name {
        case "Display P3 to sRGB": made = MatrixShaperTables(from: try LCMSProfile(icc: RGBSpace.displayP3.iccProfile), to: LCMSProfile.sRGB())
        case "Adobe RGB to sRGB": made = MatrixShaperTables(from: try LCMSProfile(icc: RGBSpace.adobeRGB.iccProfile), to: LCMSProfile.sRGB())
        case "BT.2020 to sRGB":
            guard let bt2020 = try ColourConversion.nclxProfile(primaries: 9, transfer: 1) else { throw ColourProfileError.unreadable("no BT.2020 profile") }
            made = MatrixShaperTables(from: bt2020, to: LCMSProfile.sRGB())
        default: made = MatrixShaperTables(from: try LCMSProfile(icc: RGBSpace.adobeRGB.iccProfile), to: try LCMSProfile(icc: DisplayP3.iccProfile))
        }
        return try #require(made)
    }

    /// Converts a copy of `pixels` with the kernel (BMI1's where the processor has it, else the
    /// plain one) and with the folded Swift loop, alpha kept or made `opaque`; the first pixel
    /// where they differ, if any. Made opaque, the Swift loop's pixels are those it gives with
    /// alpha kept, alpha then cleared: so the opaque kernel is checked against the conversion
    /// itself, not only against the Swift loop's own opaque path.
    static func firstDifference(
        _ tables: MatrixShaperTables, _ pixels: [Int32], plain: Bool = false, opaque: Bool = false
    ) -> (Int32, Int32, Int32)? {
        var vector = pixels
        var scalar = pixels
        var scalarOpaque = pixels
        if plain {
            vector.withUnsafeMutableBufferPointer { tables.folded.applyPlainKernel($0.baseAddress!, count: $0.count, opaque: opaque) }
        } else {
            vector.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress!, count: $0.count, opaque: opaque) }
        }
        scalar.withUnsafeMutableBufferPointer { tables.folded.applyScalar($0.baseAddress!, count: $0.count) }
        if opaque {
            scalarOpaque.withUnsafeMutableBufferPointer { tables.folded.applyScalar($0.baseAddress!, count: $0.count, opaque: true) }
            if let index = pixels.indices.first(where: { scalarOpaque[$0] != scalar[$0] & 0x00FF_FFFF }) {
                return (pixels[index], scalarOpaque[index], scalar[index] & 0x00FF_FFFF)
            }
            scalar = scalar.map { $0 & 0x00FF_FFFF }
        }
        guard let index = pixels.indices.first(where: { vector[$0] != scalar[$0] }) else { return nil }
        return (pixels[index], vector[index], scalar[index])
    }

    @Test(arguments: conversions, [false, true])
    func sameAsTheSwiftLoopOnRandomPixels(name: String, opaque: Bool) throws {
        let tables = try Self.tables(name)
        var random = SplitMix64(seed: 12)
        let pixels = (0..<200_003).map { _ in Int32(truncatingIfNeeded: random.next()) }  // alpha bytes too
        let difference = Self.firstDifference(tables, pixels, opaque: opaque)
        #expect(difference == nil, "pixel \(String(describing: difference))")
        let plainDifference = Self.firstDifference(tables, pixels, plain: true, opaque: opaque)
        #expect(plainDifference == nil, "without BMI1: pixel \(String(describing: plainDifference))")
    }

    /// All 2^24 colours (alpha 0, and the top alpha bit set; TurboJPEG's filler, 0xFF, made
    /// opaque, with the conversion JPEGs meet most), a red value at a time.
    @Test(arguments: conversions.map { ($0, false) } + [("Display P3 to sRGB", true)])
    func sameAsTheSwiftLoopOnEveryColour(name: String, opaque: Bool) throws {
        let tables = try Self.tables(name)
        for red in 0..<256 {
            let alpha = opaque ? 0xFF00_0000 : red & 1 == 0 ? 0 : 0xC100_0000
            let pixels = (0..<65536).map { Int32(truncatingIfNeeded: alpha | red << 16 | $0) }
            let difference = Self.firstDifference(tables, pixels, opaque: opaque)
            #expect(difference == nil, "pixel \(String(describing: difference))")
            if difference != nil { break }
        }
    }

    /// Folding the matrix into the input tables rounds each product before the sum: on all
    /// 2^24 colours no channel moves by more than one level from the unfolded arithmetic.
    @Test(arguments: conversions)
    func withinOneLevelOfTheUnfoldedArithmetic(name: String) throws {
        let tables = try Self.tables(name)
        var worst = 0
        var moved = 0
        for red in 0..<256 {
            let pixels = (0..<65536).map { Int32(truncatingIfNeeded: 0x7F00_0000 | red << 16 | $0) }
            var folded = pixels
            var unfolded = pixels
            folded.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress!, count: $0.count) }
            unfolded.withUnsafeMutableBufferPointer { tables.applyUnfolded($0.baseAddress!, count: $0.count) }
            for (a, b) in zip(folded, unfolded) where a != b {
                for shift: Int32 in [0, 8, 16] {
                    let difference = abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
                    if difference > 0 { moved += 1 }
                    worst = max(worst, difference)
                }
                #expect(a >> 24 == b >> 24)
            }
        }
        print("\(name): folded against unfolded, at most \(worst) level, \(moved) of \(3 << 24) channel values moved")
        #expect(worst <= 1, "\(name): folded and unfolded differ by \(worst) levels")
        #expect(moved < 3 << 24 / 100, "\(name): \(moved) channel values moved")
    }

    /// Lengths that are not multiples of eight, from unaligned starts: the tail goes through
    /// the Swift loop, nothing past `count` is touched.
    @Test func tailsAndUnalignedStarts() throws {
        let tables = try Self.tables("Display P3 to sRGB")
        var random = SplitMix64(seed: 5)
        for count in 0...19 {
            for start in 0..<3 {
                let pixels = (0..<(start + count + 4)).map { _ in Int32(truncatingIfNeeded: random.next()) }
                for opaque in [false, true] {
                    var vector = pixels
                    var scalar = pixels
                    vector.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress! + start, count: count, opaque: opaque) }
                    scalar.withUnsafeMutableBufferPointer { tables.folded.applyScalar($0.baseAddress! + start, count: count, opaque: opaque) }
                    #expect(vector == scalar, "count \(count) from \(start), opaque \(opaque)")
                    #expect(vector[..<start] == pixels[..<start] && vector[(start + count)...] == pixels[(start + count)...])
                }
            }
        }
    }

    /// The path without AVX2 (the Swift loop alone) agrees with Little CMS within one level.
    @Test func theSwiftLoopAloneAgreesWithLittleCMS() throws {
        guard case .transform(let transform) = ColourConversion.plan(for: .icc(RGBSpace.displayP3.iccProfile)) else {
            Issue.record("no transform")
            return
        }
        let tables = try Self.tables("Display P3 to sRGB")
        var viaScalar = colourGrid()
        var viaLittleCMS = viaScalar
        viaScalar.withUnsafeMutableBufferPointer { tables.folded.applyScalar($0.baseAddress!, count: $0.count) }
        viaLittleCMS.withUnsafeMutableBufferPointer { transform.applyWithLittleCMS($0.baseAddress!, count: $0.count) }
        let (worst, alphaKept) = worstChannelDifference(viaScalar, viaLittleCMS)
        #expect(alphaKept)
        #expect(worst <= 1, "the Swift loop and Little CMS differ by \(worst) levels")
    }
}
