/// Finds the XMP packet a photo carries inside itself, in each format's place for it:
///
/// - JPEG: an APP1 segment `http://ns.adobe.com/xap/1.0/\0` (the standard packet, at most
///   64 KB) and, for larger packets, APP1 segments `http://ns.adobe.com/xmp/extension/\0`
///   (the extended packet, in chunks: a 32-character GUID, the full length, the chunk's offset).
/// - PNG: an `iTXt` chunk with the keyword `XML:com.adobe.xmp` (before the image data).
/// - TIFF: tag 700 (XMLPacket) of the first directory.
/// - HEIF/AVIF: an item of type `mime` with the content type `application/rdf+xml`.
///
/// Nothing here is trusted: every length is checked, and the packet is at most
/// ``XMPReader/maximumSize`` bytes.
enum EmbeddedXMP {
    static let standardSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let extendedSignature: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// The packets of a JPEG: its standard one and its extended one, each joined together.
    struct JPEGPackets {
        var standard: [UInt8]?
        private var extendedGUID: [UInt8]?
        private var extended: [UInt8] = []
        private var extendedLength = 0
        private var received = 0

        /// Takes the payload of an APP1 segment, if it is XMP.
        mutating func take(_ payload: [UInt8]) {
            if payload.starts(with: standardSignature) {
                if standard == nil { standard = Array(payload.dropFirst(standardSignature.count)) }
                return
            }
            let header = extendedSignature.count + 32 + 8
            guard payload.starts(with: extendedSignature), payload.count > header else { return }
            let guid = Array(payload[extendedSignature.count..<(extendedSignature.count + 32)])
            let fields = payload[(extendedSignature.count + 32)...]
            func u32(_ at: Int) -> Int {
                let i = fields.startIndex + at
                return Int(fields[i]) << 24 | Int(fields[i + 1]) << 16 | Int(fields[i + 2]) << 8 | Int(fields[i + 3])
            }
            let length = u32(0)
            let offset = u32(4)
            let chunk = payload[header...]
            guard length > 0, length <= XMPReader.maximumSize else { return }
            if extendedGUID == nil {
                extendedGUID = guid
                extendedLength = length
                extended = [UInt8](repeating: 0, count: length)
            }
            guard guid == extendedGUID, length == extendedLength, offset <= length - chunk.count else { return }
            extended.replaceSubrange(offset..<(offset + chunk.count), with: chunk)
            received += chunk.count
        }

        /// The extended packet, when all of it arrived.
        var extendedPacket: [UInt8]? {
            extendedGUID != nil && received >= extendedLength ? extended : nil
        }
    }

    /// The metadata of a JPEG's packets: the standard packet's fields over the extended one's.
    static func read(_ packets: JPEGPackets) -> Result<XMPMetadata, XMPError>? {
        guard let standard = packets.standard else { return nil }
        let main = Result { () throws(XMPError) -> XMPMetadata in try XMPReader.read(standard) }
        guard case .success(let fields) = main, let extendedBytes = packets.extendedPacket else { return main }
        return Result { () throws(XMPError) -> XMPMetadata in fields.over(try XMPReader.read(extendedBytes)) }
    }

    /// The XMP packet of a PNG: the text of its first `iTXt` chunk named `XML:com.adobe.xmp`
    /// before the image data (inflated when it is compressed).
    static func png(_ reader: ByteReader) -> [UInt8]? {
        var position = 8
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        var chunks = 0
        // A real PNG has a handful of chunks before its image data; a file of millions is not walked.
        while chunks < 10_000, let length = try? reader.u32be(position), let type = try? reader.fourCC(position + 4) {
            chunks += 1
            if type == "IDAT" || type == "IEND" { return nil }
            let start = position + 8
            if type == "iTXt", length > keyword.count + 4, length <= XMPReader.maximumSize,
                let data = try? reader.bytes(start..<(start + length)), data.starts(with: keyword)
            {
                // keyword\0, compression flag, method, language tag\0, translated keyword\0, text
                var rest = data[keyword.count...]
                guard rest.count >= 2 else { return nil }
                let compressed = rest[rest.startIndex] == 1
                rest = rest.dropFirst(2)
                guard let languageEnd = rest.firstIndex(of: 0) else { return nil }
                rest = rest[(languageEnd + 1)...]
                guard let translatedEnd = rest.firstIndex(of: 0) else { return nil }
                let text = Array(rest[(translatedEnd + 1)...])
                return compressed ? try? Zlib.inflate(text, limit: XMPReader.maximumSize) : text
            }
            position = start + length + 4  // data and CRC
        }
        return nil
    }

    /// The metadata of a packet found in a file, or why it could not be read; nil without one.
    static func read(_ packet: [UInt8]?) -> Result<XMPMetadata, XMPError>? {
        guard let packet else { return nil }
        return Result { () throws(XMPError) -> XMPMetadata in try XMPReader.read(packet) }
    }
}

extension PhotoMetadata {
    /// This metadata overlaid with an embedded packet's fields, or with the reason it was not read.
    mutating func apply(_ xmp: Result<XMPMetadata, XMPError>?) {
        switch xmp {
        case .success(let fields): self = overlaid(with: fields)
        case .failure(let error): xmpProblem = error.description
        case nil: break
        }
    }
}
