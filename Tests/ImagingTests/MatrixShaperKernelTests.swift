import Testing
import TestSupport
@testable import Imaging

/// The C kernels behind ``MatrixShaperTables/apply(_:count:)`` (the pair tables and the folded
/// tables) give exactly the pixels of their Swift loops, which stay within one level of the
/// unfolded arithmetic and agree with Little CMS.
@Suite struct MatrixShaperKernelTests {
    /// Source and target profiles whose conversions run on the tables.
    static let conversions = [
        "Display P3 to sRGB", "Adobe RGB to sRGB", "BT.2020 to sRGB", "Adobe RGB to Display P3", "Apple's Display P3 to sRGB",
    ]
    /// The conversions whose matrix lets the pair tables serve (the profiles share their blue
    /// primary), which are also checked with the folded tables forced.
    static let paired = ["Display P3 to sRGB", "Adobe RGB to sRGB", "Adobe RGB to Display P3", "Apple's Display P3 to sRGB"]
    /// Every conversion with the tables it chooses, and the paired ones again with the folded tables.
    static let kernels = conversions.map { ($0, false) } + paired.map { ($0, true) }

    /// The tables for the conversion `name`, with the folded tables whatever the matrix if `folded`.
    static func tables(_ name: String, folded: Bool = false) throws -> MatrixShaperTables {
        let made: MatrixShaperTables?
        switch name {
        case "Display P3 to sRGB":
            made = MatrixShaperTables(from: try LCMSProfile(icc: RGBSpace.displayP3.iccProfile), to: LCMSProfile.sRGB(), pairing: !folded)
        case "Adobe RGB to sRGB":
            made = MatrixShaperTables(from: try LCMSProfile(icc: RGBSpace.adobeRGB.iccProfile), to: LCMSProfile.sRGB(), pairing: !folded)
        case "Apple's Display P3 to sRGB":
            let apple = RGBSpace.displayProfile(colorants: RGBSpace.appleDisplayP3Colorants, curveTag: RGBSpace.srgbCurveTag)
            made = MatrixShaperTables(from: try LCMSProfile(icc: apple), to: LCMSProfile.sRGB(), pairing: !folded)
        case "BT.2020 to sRGB":
            guard let bt2020 = try ColourConversion.nclxProfile(primaries: 9, transfer: 1) else { throw ColourProfileError.unreadable("no BT.2020 profile") }
            made = MatrixShaperTables(from: bt2020, to: LCMSProfile.sRGB(), pairing: !folded)
        default:
            made = MatrixShaperTables(
                from: try LCMSProfile(icc: RGBSpace.adobeRGB.iccProfile), to: try LCMSProfile(icc: DisplayP3.iccProfile), pairing: !folded)
        }
        return try #require(made)
    }

    /// Profiles that share their blue primary get the pair tables; BT.2020's blue is its own.
    @Test(arguments: conversions)
    func pairTablesWhereTheMatrixAllows(name: String) throws {
        #expect(try Self.tables(name).kernel.isPaired == Self.paired.contains(name))
        #expect(try !Self.tables(name, folded: true).kernel.isPaired, "\(name): pairing off, and still the pair tables")
    }

    /// Converts a copy of `pixels` with the tables' kernel (BMI1's where the processor has it,
    /// else the plain one) and with its Swift loop, alpha kept or made `opaque`; the first pixel
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
            vector.withUnsafeMutableBufferPointer { tables.kernel.applyPlainKernel($0.baseAddress!, count: $0.count, opaque: opaque) }
        } else {
            vector.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress!, count: $0.count, opaque: opaque) }
        }
        scalar.withUnsafeMutableBufferPointer { tables.kernel.applyScalar($0.baseAddress!, count: $0.count) }
        if opaque {
            scalarOpaque.withUnsafeMutableBufferPointer { tables.kernel.applyScalar($0.baseAddress!, count: $0.count, opaque: true) }
            if let index = pixels.indices.first(where: { scalarOpaque[$0] != scalar[$0] & 0x00FF_FFFF }) {
                return (pixels[index], scalarOpaque[index], scalar[index] & 0x00FF_FFFF)
            }
            scalar = scalar.map { $0 & 0x00FF_FFFF }
        }
        guard let index = pixels.indices.first(where: { vector[$0] != scalar[$0] }) else { return nil }
        return (pixels[index], vector[index], scalar[index])
    }

    @Test(arguments: kernels, [false, true])
    func sameAsTheSwiftLoopOnRandomPixels(conversion: (name: String, folded: Bool), opaque: Bool) throws {
        let tables = try Self.tables(conversion.name, folded: conversion.folded)
        var random = SplitMix64(seed: 12)
        let pixels = (0..<200_003).map { _ in Int32(truncatingIfNeeded: random.next()) }  // alpha bytes too
        let difference = Self.firstDifference(tables, pixels, opaque: opaque)
        #expect(difference == nil, "pixel \(String(describing: difference))")
        let plainDifference = Self.firstDifference(tables, pixels, plain: true, opaque: opaque)
        #expect(plainDifference == nil, "without BMI1: pixel \(String(describing: plainDifference))")
    }

    /// All 2^24 colours (alpha 0, and the top alpha bit set; TurboJPEG's filler, 0xFF, made
    /// opaque, with the conversion JPEGs meet most, with either kind of tables), a red value
    /// at a time.
    @Test(arguments: kernels.map { ($0.0, $0.1, false) } + [("Display P3 to sRGB", false, true), ("Display P3 to sRGB", true, true)])
    func sameAsTheSwiftLoopOnEveryColour(name: String, folded: Bool, opaque: Bool) throws {
        let tables = try Self.tables(name, folded: folded)
        for red in 0..<256 {
            let alpha = opaque ? 0xFF00_0000 : red & 1 == 0 ? 0 : 0xC100_0000
            let pixels = (0..<65536).map { Int32(truncatingIfNeeded: alpha | red << 16 | $0) }
            let difference = Self.firstDifference(tables, pixels, opaque: opaque)
            #expect(difference == nil, "pixel \(String(describing: difference))")
            if difference != nil { break }
        }
    }

    /// Folding the matrix into the input tables rounds each product before the sum, and the
    /// pair tables work blue out from a bucket's centre: on all 2^24 colours no channel moves
    /// by more than one level from the unfolded arithmetic, and with the pair tables red and
    /// green not at all.
    @Test(arguments: kernels)
    func withinOneLevelOfTheUnfoldedArithmetic(conversion: (name: String, folded: Bool)) throws {
        let tables = try Self.tables(conversion.name, folded: conversion.folded)
        let isPaired = tables.kernel.isPaired
        var worst = [0, 0, 0]  // blue, green, red
        var moved = [0, 0, 0]
        for red in 0..<256 {
            let pixels = (0..<65536).map { Int32(truncatingIfNeeded: 0x7F00_0000 | red << 16 | $0) }
            var tabled = pixels
            var unfolded = pixels
            tabled.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress!, count: $0.count) }
            unfolded.withUnsafeMutableBufferPointer { tables.applyUnfolded($0.baseAddress!, count: $0.count) }
            for (a, b) in zip(tabled, unfolded) where a != b {
                for channel in 0..<3 {
                    let shift = Int32(8 * channel)
                    let difference = abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
                    if difference > 0 { moved[channel] += 1 }
                    worst[channel] = max(worst[channel], difference)
                }
                #expect(a >> 24 == b >> 24)
            }
        }
        let kind = isPaired ? "pair tables" : "folded"
        print("\(conversion.name): \(kind) against unfolded, at most \(worst.max()!) level; channel values moved (blue, green, red) \(moved) of \(1 << 24) each")
        #expect(worst.max()! <= 1, "\(conversion.name): \(kind) and unfolded differ by \(worst) levels")
        if isPaired {
            if tables.matrix[2] == 0 && tables.matrix[5] == 0 {
                #expect(moved[1] == 0 && moved[2] == 0, "\(conversion.name): the pair tables moved red or green: \(moved)")
            }
            #expect(moved[0] < (1 << 24) / 20, "\(conversion.name): \(moved[0]) blue values moved")
        } else {
            #expect(moved.reduce(0, +) < 3 << 24 / 100, "\(conversion.name): \(moved) channel values moved")
        }
    }

    /// Lengths that are not multiples of eight, from unaligned starts: the tail goes through
    /// the Swift loop, nothing past `count` is touched.
    @Test(arguments: [false, true])
    func tailsAndUnalignedStarts(folded: Bool) throws {
        let tables = try Self.tables("Display P3 to sRGB", folded: folded)
        var random = SplitMix64(seed: 5)
        for count in 0...19 {
            for start in 0..<3 {
                let pixels = (0..<(start + count + 4)).map { _ in Int32(truncatingIfNeeded: random.next()) }
                for opaque in [false, true] {
                    var vector = pixels
                    var scalar = pixels
                    vector.withUnsafeMutableBufferPointer { tables.apply($0.baseAddress! + start, count: count, opaque: opaque) }
                    scalar.withUnsafeMutableBufferPointer { tables.kernel.applyScalar($0.baseAddress! + start, count: count, opaque: opaque) }
                    #expect(vector == scalar, "count \(count) from \(start), opaque \(opaque)")
                    #expect(vector[..<start] == pixels[..<start] && vector[(start + count)...] == pixels[(start + count)...])
                }
            }
        }
    }

    /// The Swift loops alone agree with Little CMS within one level.
    @Test(arguments: [false, true])
    func theSwiftLoopAloneAgreesWithLittleCMS(folded: Bool) throws {
        guard case .transform(let transform) = ColourConversion.plan(for: .icc(RGBSpace.displayP3.iccProfile)) else {
            Issue.record("no transform")
            return
        }
        let tables = try Self.tables("Display P3 to sRGB", folded: folded)
        var viaScalar = colourGrid()
        var viaLittleCMS = viaScalar
        viaScalar.withUnsafeMutableBufferPointer { tables.kernel.applyScalar($0.baseAddress!, count: $0.count) }
        viaLittleCMS.withUnsafeMutableBufferPointer { transform.applyWithLittleCMS($0.baseAddress!, count: $0.count) }
        let (worst, alphaKept) = worstChannelDifference(viaScalar, viaLittleCMS)
        #expect(alphaKept)
        #expect(worst <= 1, "the Swift loop and Little CMS differ by \(worst) levels")
    }
}

extension MatrixShaperTables.Kernel {
    /// Whether pixels go through the pair tables (else the folded ones).
    var isPaired: Bool {
        if case .paired = self { true } else { false }
    }
}
