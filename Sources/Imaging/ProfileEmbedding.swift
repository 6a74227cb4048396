/// Puts an ICC profile into encoded images, for the formats gd writes without one: gd's
/// encoders take no profile, so the profile goes into the bytes they return.
enum ProfileEmbedding {
    /// `file` (an image encoded in `format`, `width` × `height`) marked as Display P3: the
    /// profile in a JPEG APP2 `ICC_PROFILE` segment, a PNG `iCCP` chunk or a WebP `ICCP`
    /// chunk; an AVIF's `nclx` colour box set to Display P3's code points (primaries 12,
    /// transfer 13), which every AVIF reader knows.
    static func displayP3(_ file: [UInt8], format: EncodeFormat, width: Int, height: Int) throws(ImagingError) -> [UInt8] {
        switch format {
        case .jpeg: return try jpeg(file, profile: DisplayP3.iccProfile)
        case .png: return try png(file, profile: DisplayP3.iccProfile, name: "Display P3")
        case .webp: return try webp(file, profile: DisplayP3.iccProfile, width: width, height: height)
        case .avif: return try avifNclx(file, primaries: 12, transfer: 13)
        }
    }

    /// A JPEG with `profile` (at most 65,519 bytes: one segment) after SOI and its JFIF segment.
    static func jpeg(_ file: [UInt8], profile: [UInt8]) throws(ImagingError) -> [UInt8] {
        guard file.count > 4, file[0] == 0xFF, file[1] == 0xD8, profile.count <= 65_519 else {
            throw .encodeFailed("JPEG: the colour profile cannot be embedded")
        }
        let body = ColourProfileReader.jpegSignature + [1, 1] + profile
        let segment = [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        var at = 2
        if file.count > 6, file[2] == 0xFF, file[3] == 0xE0 { at = 4 + Int(file[4]) << 8 + Int(file[5]) }
        guard at <= file.count else { throw .encodeFailed("JPEG: the colour profile cannot be embedded") }
        return Array(file[..<at]) + segment + Array(file[at...])
    }

    /// A PNG with `profile` in an `iCCP` chunk after IHDR.
    static func png(_ file: [UInt8], profile: [UInt8], name: String) throws(ImagingError) -> [UInt8] {
        // Signature (8), then IHDR: length 13, type, data, CRC: 33 bytes in all.
        guard file.count > 33, Array(file[12..<16]) == Array("IHDR".utf8) else {
            throw .encodeFailed("PNG: the colour profile cannot be embedded")
        }
        let body = Array("iCCP".utf8) + Array(name.utf8) + [0, 0] + Zlib.deflate(profile)
        let chunk = bigEndian32(body.count - 4) + body + bigEndian32(Int(Zlib.crc32(body)))
        return Array(file[..<33]) + chunk + Array(file[33...])
    }

    /// A WebP with `profile` in an `ICCP` chunk: a simple file (one `VP8 ` or `VP8L` chunk)
    /// becomes an extended one (a `VP8X` chunk first); an extended one gets the chunk right
    /// after its `VP8X`, as the format requires, and the flag that says it is there.
    static func webp(_ file: [UInt8], profile: [UInt8], width: Int, height: Int) throws(ImagingError) -> [UInt8] {
        guard file.count >= 20, Array(file[0..<4]) == Array("RIFF".utf8), Array(file[8..<12]) == Array("WEBP".utf8) else {
            throw .encodeFailed("WebP: the colour profile cannot be embedded")
        }
        var iccp = Array("ICCP".utf8) + littleEndian32(profile.count) + profile
        if profile.count % 2 == 1 { iccp.append(0) }
        let first = String(decoding: file[12..<16], as: UTF8.self)
        var content: [UInt8]
        if first == "VP8X" {
            guard file.count >= 30 else { throw .encodeFailed("WebP: the colour profile cannot be embedded") }
            var vp8x = Array(file[12..<30])
            vp8x[8] |= 0x20  // ICC profile present
            content = Array("WEBP".utf8) + vp8x + iccp + Array(file[30...])
        } else {
            var flags: UInt8 = 0x20
            // A lossless picture with alpha says so in its header (bit 28 after the signature).
            if first == "VP8L", file.count > 24, file[24] & 0x10 != 0 { flags |= 0x10 }
            func little24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
            let vp8x = Array("VP8X".utf8) + littleEndian32(10) + [flags, 0, 0, 0] + little24(width - 1) + little24(height - 1)
            content = Array("WEBP".utf8) + vp8x + iccp + Array(file[12...])
        }
        return Array("RIFF".utf8) + littleEndian32(content.count) + content
    }

    /// An AVIF (or HEIF) whose `nclx` colour boxes say `primaries` and `transfer`, matrix and
    /// range kept: the box is patched in place, so no size or offset changes.
    static func avifNclx(_ file: [UInt8], primaries: Int, transfer: Int) throws(ImagingError) -> [UInt8] {
        let marker = Array("colrnclx".utf8)
        var result = file
        var found = false
        var index = 0
        while index + marker.count + 4 <= result.count {
            if result[index] == marker[0], Array(result[index..<(index + marker.count)]) == marker {
                let at = index + marker.count
                result.replaceSubrange(at..<(at + 4), with: [UInt8(primaries >> 8), UInt8(primaries & 0xFF), UInt8(transfer >> 8), UInt8(transfer & 0xFF)])
                found = true
                index = at
            }
            index += 1
        }
        guard found else { throw .encodeFailed("AVIF: the encoder wrote no colour box to mark as Display P3") }
        return result
    }

    private static func bigEndian32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func littleEndian32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
}
