import Testing
import TestSupport
@testable import Imaging

/// The AVX2 kernel behind ``MatrixShaperTables/apply(_:count:)`` gives exactly the pixels of
/// the Swift loop (the path on processors without AVX2), which agrees with Little CMS.
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
        let tables = try #require(made)
        #expect(tables.fitsVectorLanes)
        return tables
    }

    /// Converts a copy of `pixels` both ways; the first pixel where they differ, if any.
    static func firstDifference(_ tables: MatrixShaperTables, _ pixels: [Int32]) -> (Int32, Int32, Int32)? {
        var vector = pixels
        var scalar = pixels
        vector.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress!, count: $0.count) }
        scalar.withUnsafeMutableBufferPointer { tables.applyScalar($0.baseAddress!, count: $0.count) }
        guard let index = pixels.indices.first(where: { vector[$0] != scalar[$0] }) else { return nil }
        return (pixels[index], vector[index], scalar[index])
    }

    @Test func theVectorKernelRunsHere() {
        // Every x86-64 machine Cascade is built and benchmarked on has AVX2; elsewhere the
        // comparisons below test the Swift loop against itself.
        #if arch(x86_64)
        #expect(MatrixShaperTables.hasVectorKernel)
        #endif
    }

    @Test(arguments: conversions)
    func sameAsTheSwiftLoopOnRandomPixels(name: String) throws {
        let tables = try Self.tables(name)
        var random = SplitMix64(seed: 12)
        let pixels = (0..<200_003).map { _ in Int32(truncatingIfNeeded: random.next()) }  // alpha bytes too
        let difference = Self.firstDifference(tables, pixels)
        #expect(difference == nil, "pixel \(String(describing: difference))")
    }

    /// All 2^24 colours (alpha 0, and the top alpha bit set), a red value at a time.
    @Test(arguments: conversions)
    func sameAsTheSwiftLoopOnEveryColour(name: String) throws {
        let tables = try Self.tables(name)
        for red in 0..<256 {
            let pixels = (0..<65536).map { Int32(truncatingIfNeeded: (red & 1 == 0 ? 0 : 0xC100_0000) | red << 16 | $0) }
            let difference = Self.firstDifference(tables, pixels)
            #expect(difference == nil, "pixel \(String(describing: difference))")
            if difference != nil { break }
        }
    }

    /// Lengths that are not multiples of eight, from unaligned starts: the tail goes through
    /// the Swift loop, nothing past `count` is touched.
    @Test func tailsAndUnalignedStarts() throws {
        let tables = try Self.tables("Display P3 to sRGB")
        var random = SplitMix64(seed: 5)
        for count in 0...19 {
            for start in 0..<3 {
                let pixels = (0..<(start + count + 4)).map { _ in Int32(truncatingIfNeeded: random.next()) }
                var vector = pixels
                var scalar = pixels
                vector.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress! + start, count: count) }
                scalar.withUnsafeMutableBufferPointer { tables.applyScalar($0.baseAddress! + start, count: count) }
                #expect(vector == scalar, "count \(count) from \(start)")
                #expect(vector[..<start] == pixels[..<start] && vector[(start + count)...] == pixels[(start + count)...])
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
        viaScalar.withUnsafeMutableBufferPointer { tables.applyScalar($0.baseAddress!, count: $0.count) }
        viaLittleCMS.withUnsafeMutableBufferPointer { transform.applyWithLittleCMS($0.baseAddress!, count: $0.count) }
        let (worst, alphaKept) = worstChannelDifference(viaScalar, viaLittleCMS)
        #expect(alphaKept)
        #expect(worst <= 1, "the Swift loop and Little CMS differ by \(worst) levels")
    }
}
