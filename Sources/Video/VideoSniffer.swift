/// Recognises video files by their first bytes, never by their name: MP4/MOV/M4V/3GP (ISO
/// media with a video brand, or a QuickTime file that starts with another atom), Matroska and
/// WebM, AVI, MPEG transport and program streams, ASF (WMV).
public enum VideoSniffer {
    /// How many leading bytes ``isVideo(_:)`` wants (fewer work when the file is shorter).
    public static let headerLength = 400

    /// Whether data starting with `bytes` is a video container. ISO media whose brands name
    /// HEIF or AVIF (still images) is not; other `ftyp` brands are.
    public static func isVideo(_ bytes: [UInt8]) -> Bool {
        container(bytes) != nil
    }

    /// The container that data starting with `bytes` is, from its first bytes alone; nil for
    /// anything else (a text file named `.mp4` included).
    public static func container(_ bytes: [UInt8]) -> VideoContainer? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + prefix.count else { return false }
            return prefix.indices.allSatisfy { bytes[offset + $0] == prefix[$0] }
        }
        if starts(Array("ftyp".utf8), at: 4) { return isVideoBrand(bytes) ? .quickTime : nil }
        // QuickTime files of old cameras start with another atom.
        for atom in ["moov", "mdat", "wide", "free", "skip", "pnot"] where starts(Array(atom.utf8), at: 4) {
            return bytes.count >= 8 ? .quickTime : nil
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }  // EBML: Matroska, WebM
        if starts(Array("RIFF".utf8)) && starts(Array("AVI ".utf8), at: 8) { return .avi }
        if starts([0x00, 0x00, 0x01, 0xBA]) { return .mpegProgramStream }
        if bytes.count > 376, bytes[0] == 0x47, bytes[188] == 0x47, bytes[376] == 0x47 { return .mpegTransportStream }
        // AVCHD's `.mts`/`.m2ts`: 192-byte packets, a 4-byte time code before each sync byte.
        if bytes.count > 388, bytes[4] == 0x47, bytes[196] == 0x47, bytes[388] == 0x47 { return .mpegTransportStream }
        if starts([0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .asf }  // ASF: WMV
        return nil
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

/// The video containers Cascade hands to ffmpeg, each read by the one demuxer named by
/// ``demuxer`` (`-f`): ffmpeg never guesses the format, so a playlist or manifest (DASH, HLS,
/// `ffconcat`) named `.mp4` can never make it open other files.
public enum VideoContainer: String, Sendable, Hashable, CaseIterable {
    /// ISO media (MP4, MOV, M4V, 3GP) and QuickTime.
    case quickTime
    /// Matroska and WebM.
    case matroska
    /// AVI.
    case avi
    /// An MPEG program stream (`.mpg`, `.vob`).
    case mpegProgramStream
    /// An MPEG transport stream (`.mts`, `.m2ts`, `.ts`).
    case mpegTransportStream
    /// ASF (`.wmv`).
    case asf

    /// ffmpeg's name of the demuxer (`-f`).
    public var demuxer: String {
        switch self {
        case .quickTime: "mov"
        case .matroska: "matroska"
        case .avi: "avi"
        case .mpegProgramStream: "mpeg"
        case .mpegTransportStream: "mpegts"
        case .asf: "asf"
        }
    }
}
