/// Recognises video files by their first bytes, never by their name: MP4/MOV/M4V/3GP (ISO
/// media with a video brand, or a QuickTime file that starts with another atom), Matroska and
/// WebM, AVI, MPEG transport and program streams.
public enum VideoSniffer {
    /// How many leading bytes ``isVideo(_:)`` wants (fewer work when the file is shorter).
    public static let headerLength = 400

    /// Whether data starting with `bytes` is a video container. ISO media whose brands name
    /// HEIF or AVIF (still images) is not; other `ftyp` brands are.
    public static func isVideo(_ bytes: [UInt8]) -> Bool {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + prefix.count else { return false }
            return prefix.indices.allSatisfy { bytes[offset + $0] == prefix[$0] }
        }
        if starts(Array("ftyp".utf8), at: 4) { return isVideoBrand(bytes) }
        // QuickTime files of old cameras start with another atom.
        for atom in ["moov", "mdat", "wide", "free", "skip", "pnot"] where starts(Array(atom.utf8), at: 4) {
            return bytes.count >= 8
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return true }  // EBML: Matroska, WebM
        if starts(Array("RIFF".utf8)) && starts(Array("AVI ".utf8), at: 8) { return true }
        if starts([0x00, 0x00, 0x01, 0xBA]) { return true }  // MPEG program stream
        if bytes.count > 376, bytes[0] == 0x47, bytes[188] == 0x47, bytes[376] == 0x47 { return true }  // MPEG-TS
        return false
    }

    /// An `ftyp` box whose brands are not those of still images (HEIF, AVIF).
    private static func isVideoBrand(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12 else { return false }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(max(size, 12), bytes.count)
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var position = 16
        while position + 4 <= end {
            brands.append(String(decoding: bytes[position..<(position + 4)], as: UTF8.self))
            position += 4
        }
        let still: Set = ["avif", "avis", "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "mif2", "heif"]
        return !still.contains(brands[0])
    }
}
