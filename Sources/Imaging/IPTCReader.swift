/// Reads the caption (IPTC Caption-Abstract, dataset 2:120) from the Photoshop resources of a
/// JPEG's APP13 segments, where Lightroom, Photo Mechanic and most newsroom tools write it.
///
/// The layout (Adobe's "Photoshop 3.0" image resources, IPTC-IIM 4.2): after the header
/// `Photoshop 3.0\0` come resource blocks, each `8BIM`, a 2-byte id, a Pascal-string name padded
/// to an even length, a 4-byte size and the data padded to an even length. Resource 0x0404
/// holds IPTC datasets, each `0x1C`, a record number, a dataset number, a 2-byte size and the
/// data. Every length is checked against what is left, so a damaged block yields no caption,
/// never a read out of bounds.
enum IPTCReader {
    static let header: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// The caption in `resources` (the APP13 payloads after their headers, joined), trimmed of
    /// blanks; nil when there is none. The text is UTF-8 when dataset 1:90 says so or when it
    /// is valid UTF-8, else Latin-1 (the standard's default).
    static func caption(inResources resources: [UInt8]) -> String? {
        guard let iptc = resource(0x0404, in: resources).map(Array.init) else { return nil }
        var utf8Declared = false
        var caption: [UInt8]?
        var position = 0
        while position + 5 <= iptc.count, iptc[position] == 0x1C {
            let record = iptc[position + 1]
            let dataset = iptc[position + 2]
            let size = Int(iptc[position + 3]) << 8 | Int(iptc[position + 4])
            // An extended size (top bit set) only appears with huge data: nothing of ours.
            guard size & 0x8000 == 0, position + 5 + size <= iptc.count else { break }
            let data = Array(iptc[(position + 5)..<(position + 5 + size)])
            if record == 1, dataset == 90 { utf8Declared = data == [0x1B, 0x25, 0x47] }  // ESC % G
            if record == 2, dataset == 120, caption == nil { caption = data }
            position += 5 + size
        }
        guard let caption else { return nil }
        let bytes = Array(caption.prefix { $0 != 0 })
        if utf8Declared || String(validating: bytes, as: UTF8.self) != nil {
            return ExifReader.cleanText(bytes)
        }
        let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        return ExifReader.cleanText(Array(latin1.utf8))
    }

    /// The data of the first image resource `id` in `resources`, if any.
    private static func resource(_ id: Int, in resources: [UInt8]) -> ArraySlice<UInt8>? {
        var position = 0
        while position + 12 <= resources.count, resources[position..<(position + 4)].elementsEqual("8BIM".utf8) {
            let resourceID = Int(resources[position + 4]) << 8 | Int(resources[position + 5])
            let nameLength = Int(resources[position + 6])
            let nameEnd = position + 6 + ((1 + nameLength + 1) & ~1)  // length byte and name, padded to even
            guard nameEnd + 4 <= resources.count else { return nil }
            let size = resources[nameEnd..<(nameEnd + 4)].reduce(0) { $0 << 8 | Int($1) }
            let dataStart = nameEnd + 4
            guard size >= 0, size <= resources.count - dataStart else { return nil }
            if resourceID == id { return resources[dataStart..<(dataStart + size)] }
            position = dataStart + size + (size & 1)
        }
        return nil
    }
}
