/// Reads the caption (IPTC Caption-Abstract, dataset 2:120), the title (Object Name, 2:05),
/// the keywords (2:25), the credits (By-line 2:80, Copyright Notice 2:116) and the place
/// (Sub-location 2:92, City 2:90, Province-State 2:95, Country 2:101) from the Photoshop resources of a
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

    /// The fields Cascade reads from IPTC.
    struct Fields: Equatable {
        /// Caption-Abstract (2:120).
        var caption: String?
        /// Object Name (2:05), the title.
        var title: String?
        /// Keywords (2:25), each once, in order.
        var keywords: [String] = []
        /// By-line (2:80), its entries joined by ", ".
        var byline: String?
        /// Copyright Notice (2:116).
        var copyright: String?
        /// Sub-location (2:92), City (2:90), Province-State (2:95), Country (2:101).
        var sublocation: String?
        var city: String?
        var state: String?
        var country: String?
    }

    /// The single-valued text datasets read besides the caption and title, by dataset number.
    private static let textDatasets: Set<UInt8> = [116, 92, 90, 95, 101]

    /// The caption in `resources` (the APP13 payloads after their headers, joined), trimmed of
    /// blanks; nil when there is none.
    static func caption(inResources resources: [UInt8]) -> String? {
        fields(inResources: resources).caption
    }

    /// The caption, title and keywords in `resources`. The text is UTF-8 when dataset 1:90
    /// says so or when it is valid UTF-8, else Latin-1 (the standard's default).
    static func fields(inResources resources: [UInt8]) -> Fields {
        guard let iptc = resource(0x0404, in: resources) else { return Fields() }
        let reader = ByteReader(iptc)
        var utf8Declared = false
        var caption: [UInt8]?
        var title: [UInt8]?
        var keywords: [[UInt8]] = []
        var bylines: [[UInt8]] = []
        var others: [UInt8: [UInt8]] = [:]
        var position = 0
        while (try? reader.u8(position)) == 0x1C, let record = try? reader.u8(position + 1),
            let dataset = try? reader.u8(position + 2), let size = try? reader.u16be(position + 3),
            size & 0x8000 == 0,  // an extended size only appears with huge data: nothing of ours
            let data = try? reader.bytes((position + 5)..<(position + 5 + size))
        {
            if record == 1, dataset == 90 { utf8Declared = data == [0x1B, 0x25, 0x47] }  // ESC % G
            if record == 2, dataset == 120, caption == nil { caption = data }
            if record == 2, dataset == 5, title == nil { title = data }
            if record == 2, dataset == 25, keywords.count < 1000 { keywords.append(data) }
            if record == 2, dataset == 80, bylines.count < 100 { bylines.append(data) }
            if record == 2, textDatasets.contains(dataset), others[dataset] == nil { others[dataset] = data }
            position += 5 + size
        }
        func text(_ data: [UInt8]) -> String? {
            let bytes = Array(data.prefix { $0 != 0 })
            if utf8Declared || String(validating: bytes, as: UTF8.self) != nil {
                return ExifReader.cleanText(bytes)
            }
            let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
            return ExifReader.cleanText(Array(latin1.utf8))
        }
        var fields = Fields(caption: caption.flatMap(text), title: title.flatMap(text))
        let names = bylines.compactMap(text)
        fields.byline = names.isEmpty ? nil : names.joined(separator: ", ")
        fields.copyright = others[116].flatMap(text)
        fields.sublocation = others[92].flatMap(text)
        fields.city = others[90].flatMap(text)
        fields.state = others[95].flatMap(text)
        fields.country = others[101].flatMap(text)
        var seen: Set<String> = []
        for keyword in keywords.compactMap(text) where seen.insert(keyword.lowercased()).inserted {
            fields.keywords.append(keyword)
        }
        return fields
    }

    /// The data of the first image resource `id` in `resources`, if any.
    private static func resource(_ id: Int, in resources: [UInt8]) -> [UInt8]? {
        let reader = ByteReader(resources)
        var position = 0
        while (try? reader.bytes(position..<(position + 4))) == Array("8BIM".utf8),
            let resourceID = try? reader.u16be(position + 4), let nameLength = try? reader.u8(position + 6)
        {
            let nameEnd = position + 6 + ((1 + Int(nameLength) + 1) & ~1)  // length byte and name, padded to even
            guard let size = try? reader.u32be(nameEnd), let data = try? reader.bytes((nameEnd + 4)..<(nameEnd + 4 + size)) else {
                return nil
            }
            if resourceID == id { return data }
            position = nameEnd + 4 + size + (size & 1)
        }
        return nil
    }
}
