/// The PNG colour chunks libgd's decoder is given no sight of.
///
/// gd ignores a PNG's colour chunks, but the libpng under it checks them as it reads and, in
/// the libgd Debian 12 ships (2.3.3, which sets no libpng warning handler), prints what it
/// finds straight to the terminal: "libpng warning: iCCP: known incorrect sRGB profile", and
/// the like for profiles whose colour space does not fit the picture. Cascade reads the `iCCP`
/// profile itself (``ColourProfileReader``) and, like browsers, gives `sRGB`, `gAMA` and `cHRM`
/// no effect once a profile is there or reads the pixels as sRGB without one; so gd decodes a
/// copy of the file without those chunks, and libpng has nothing to warn about.
enum PNGColourChunks {
    /// The chunks removed before gd decodes.
    static let removed: Set<String> = ["iCCP", "sRGB", "gAMA", "cHRM"]

    /// `png` without its colour chunks, or nil when it has none (or its chunk list is damaged:
    /// gd then sees the file as it is and reports the damage).
    static func strip(_ png: [UInt8]) -> [UInt8]? {
        var kept: [UInt8] = []
        var copiedUpTo = 0
        var position = 8
        var found = false
        while position + 12 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            let end = position + 12 + length
            guard length <= Int(Int32.max), end <= png.count else { return nil }
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { break }  // colour chunks come before the pixels
            if removed.contains(type) {
                if !found { kept.reserveCapacity(png.count) }
                found = true
                kept += png[copiedUpTo..<position]
                copiedUpTo = end
            }
            position = end
        }
        guard found else { return nil }
        kept += png[copiedUpTo...]
        return kept
    }
}
