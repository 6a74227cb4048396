@testable import Imaging

// A HEIF colour box added to a file that has none (libheif 1.15's encoder, through gd or
// heif-enc, writes no `colr` box whatever it is asked), written out from ISO/IEC 14496-12 and
// 23008-12's box layouts, so that the HEIF colour test never uses the code under test to make
// what it reads.

/// Failure to find a box in a fixture.
struct HEIFFixtureError: Error, CustomStringConvertible {
    var description: String
}

/// `heif` with an `nclx` `colr` box (ITU-T H.273 code points, full range) added to its item
/// properties and associated with its primary item. Every box that contains the new bytes
/// grows by their count, and the item locations (`iloc`, file offsets) after them move on.
func heifWithNclx(_ heif: [UInt8], primaries: Int, transfer: Int, matrix: Int) throws -> [UInt8] {
    func u32(_ at: Int) -> Int { Int(heif[at]) << 24 | Int(heif[at + 1]) << 16 | Int(heif[at + 2]) << 8 | Int(heif[at + 3]) }
    func u16(_ at: Int) -> Int { Int(heif[at]) << 8 | Int(heif[at + 1]) }
    func uint(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 << 8 | Int(heif[at + $1]) } }
    /// The boxes between `start` and `end`: type → (offset, size).
    func children(_ start: Int, _ end: Int) -> [String: (Int, Int)] {
        var found: [String: (Int, Int)] = [:]
        var at = start
        while at + 8 <= end {
            let size = u32(at)
            guard size >= 8 else { break }
            found[String(decoding: heif[(at + 4)..<(at + 8)], as: UTF8.self)] = (at, size)
            at += size
        }
        return found
    }
    guard let meta = children(0, heif.count)["meta"] else { throw HEIFFixtureError(description: "no meta box") }
    let inMeta = children(meta.0 + 12, meta.0 + meta.1)  // meta is a full box: 4 bytes of version and flags
    guard let pitm = inMeta["pitm"], let iprp = inMeta["iprp"], let iloc = inMeta["iloc"] else {
        throw HEIFFixtureError(description: "no pitm, iprp or iloc box")
    }
    let primary = heif[pitm.0 + 8] == 0 ? u16(pitm.0 + 12) : u32(pitm.0 + 12)
    let inIprp = children(iprp.0 + 8, iprp.0 + iprp.1)
    guard let ipco = inIprp["ipco"], let ipma = inIprp["ipma"] else { throw HEIFFixtureError(description: "no ipco or ipma box") }
    // Property indices are 1-based, in ipco's order: the new box comes last.
    var index = 0
    var at = ipco.0 + 8
    while at < ipco.0 + ipco.1 { index += 1; at += u32(at) }
    let newIndex = index + 1

    let colr = [0, 0, 0, 19] + Array("colrnclx".utf8) + [UInt8(primaries >> 8), UInt8(primaries & 0xFF), UInt8(transfer >> 8),
                                                         UInt8(transfer & 0xFF), UInt8(matrix >> 8), UInt8(matrix & 0xFF), 0x80]
    // The primary item's entry in ipma gets one more association.
    let ipmaVersion = heif[ipma.0 + 8]
    let wide = heif[ipma.0 + 11] & 1 == 1
    var entry = ipma.0 + 16
    var insertAssociation: Int?
    var countAt = 0
    for _ in 0..<u32(ipma.0 + 12) {
        let item = ipmaVersion < 1 ? u16(entry) : u32(entry)
        countAt = entry + (ipmaVersion < 1 ? 2 : 4)
        let count = Int(heif[countAt])
        let next = countAt + 1 + count * (wide ? 2 : 1)
        if item == primary { insertAssociation = next; break }
        entry = next
    }
    guard let insertAssociation else { throw HEIFFixtureError(description: "the primary item has no properties") }
    let association: [UInt8] = wide ? [UInt8(newIndex >> 8), UInt8(newIndex & 0xFF)] : [UInt8(newIndex)]
    let grown = colr.count + association.count

    var out = heif
    // Item locations after the inserted bytes (construction method 0: file offsets) move on.
    let ilocVersion = heif[iloc.0 + 8]
    let offsetSize = Int(heif[iloc.0 + 12] >> 4), lengthSize = Int(heif[iloc.0 + 12] & 0xF)
    let baseSize = Int(heif[iloc.0 + 13] >> 4), indexSize = ilocVersion >= 1 ? Int(heif[iloc.0 + 13] & 0xF) : 0
    var p = iloc.0 + 14
    let itemCount = ilocVersion < 2 ? u16(p) : u32(p)
    p += ilocVersion < 2 ? 2 : 4
    func write(_ value: Int, at: Int, size: Int) { for i in 0..<size { out[at + i] = UInt8(value >> (8 * (size - 1 - i)) & 0xFF) } }
    for _ in 0..<itemCount {
        p += ilocVersion < 2 ? 2 : 4
        var method = 0
        if ilocVersion >= 1 { method = u16(p) & 0xF; p += 2 }
        p += 2  // data reference index
        let baseAt = p
        let base = uint(p, baseSize)
        p += baseSize
        let extents = u16(p)
        p += 2
        if method == 0, baseSize > 0, base > insertAssociation { write(base + grown, at: baseAt, size: baseSize) }
        for _ in 0..<extents {
            p += indexSize
            if method == 0, baseSize == 0, offsetSize > 0 {
                let offset = uint(p, offsetSize)
                if offset > insertAssociation { write(offset + grown, at: p, size: offsetSize) }
            }
            p += offsetSize + lengthSize
        }
    }
    // Sizes of the boxes that grow, then the bytes.
    func grow(_ box: (Int, Int), by count: Int) { write(box.1 + count, at: box.0, size: 4) }
    grow(meta, by: grown)
    grow(iprp, by: grown)
    grow(ipco, by: colr.count)
    grow(ipma, by: association.count)
    out[countAt] += 1
    out.insert(contentsOf: association, at: insertAssociation)
    out.insert(contentsOf: colr, at: ipco.0 + ipco.1)
    return out
}
