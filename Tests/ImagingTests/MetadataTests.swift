import Testing

@testable import Imaging

@Suite("EXIF metadata")
struct MetadataTests {
    static func jpeg() throws -> [UInt8] {
        try quadrantImage(width: 20, height: 20).encoded(as: .jpeg(quality: 80))
    }

    @Test("DateTimeOriginal, ImageDescription, Artist and GPS presence are read from a JPEG", arguments: [false, true])
    func jpegFields(littleEndian: Bool) throws {
        let tagged = ExifBuilder(
            orientation: 1, description: "<b>Sunset</b> & sea", artist: "Ana Lima", dateTime: "2024:01:01 00:00:00",
            dateTimeOriginal: "2023:07:14 19:45:01", gps: true, littleEndian: littleEndian
        ).inserted(into: try Self.jpeg())
        let info = try ImageProbe.probe(tagged)
        #expect(info.metadata.description == "<b>Sunset</b> & sea")
        #expect(info.metadata.artist == "Ana Lima")
        #expect(info.metadata.dateTaken == "2023:07:14 19:45:01")
        #expect(info.metadata.hasGPS)
    }

    @Test("without DateTimeOriginal the date falls back to DateTime")
    func dateFallback() throws {
        let tagged = ExifBuilder(dateTime: "2019:05:06 07:08:09", littleEndian: true).inserted(into: try Self.jpeg())
        let info = try ImageProbe.probe(tagged)
        #expect(info.metadata.dateTaken == "2019:05:06 07:08:09")
        #expect(!info.metadata.hasGPS)
    }

    @Test("an EXIF block with only an orientation yields no invented date, text or GPS")
    func nothingInvented() throws {
        let tagged = ExifBuilder(orientation: 6).inserted(into: try Self.jpeg())
        let info = try ImageProbe.probe(tagged)
        #expect(info.orientation == .right)
        #expect(info.metadata == PhotoMetadata())
    }

    @Test("a JPEG without EXIF has no metadata and is upright")
    func noExif() throws {
        let info = try ImageProbe.probe(try Self.jpeg())
        #expect(info.metadata == PhotoMetadata())
        #expect(info.orientation == .up)
    }

    @Test("an XMP APP1 segment before the EXIF one is skipped; blanks around text are trimmed")
    func xmpFirst() throws {
        let exif = ExifBuilder(orientation: 8, artist: "  Jo  ").inserted(into: try Self.jpeg())
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta/>".utf8)
        let both = JPEGBytes.inserting(marker: 0xE1, payload: xmp, into: exif)
        let info = try ImageProbe.probe(both)
        #expect(info.orientation == .left)
        #expect(info.metadata.artist == "Jo")
    }

    /// An APP13 payload: the Photoshop header, a resource before the IPTC one (with an odd-length
    /// name, so padding matters), then resource 0x0404 holding `datasets` (record, number, data).
    static func photoshopSegment(_ datasets: [(UInt8, UInt8, [UInt8])], iptcSize: Int? = nil) -> [UInt8] {
        let iptc: [UInt8] = datasets.flatMap { (record, number, data) -> [UInt8] in [0x1C, record, number] + be16(data.count) + data }
        func resource(_ id: Int, name: [UInt8], data: [UInt8], size: Int? = nil) -> [UInt8] {
            var name = [UInt8(name.count)] + name
            if name.count % 2 == 1 { name.append(0) }
            return Array("8BIM".utf8) + be16(id) + name + be32(size ?? data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        return IPTCReader.header + resource(0x03ED, name: Array("abc".utf8), data: [1, 2, 3])
            + resource(0x0404, name: [], data: iptc, size: iptcSize)
    }

    @Test("without an EXIF description the IPTC caption is read: UTF-8 when declared or valid, else Latin-1",
          arguments: [
            ([(UInt8(1), UInt8(90), [UInt8(0x1B), 0x25, 0x47]), (2, 120, Array(" Caf\u{E9} au lait \n".utf8))], "Caf\u{E9} au lait"),
            ([(UInt8(2), UInt8(120), Array("Fjord at dusk \u{2014} \u{1F305}".utf8))], "Fjord at dusk \u{2014} \u{1F305}"),
            ([(UInt8(2), UInt8(5), Array("A title, not the caption".utf8)), (2, 120, [0x43, 0x61, 0x66, 0xE9])], "Caf\u{E9}"),
            ([(UInt8(2), UInt8(120), [UInt8]())], nil),
            ([(UInt8(2), UInt8(25), Array("keyword".utf8))], nil),
          ] as [([(UInt8, UInt8, [UInt8])], String?)])
    func iptcCaption(datasets: [(UInt8, UInt8, [UInt8])], expected: String?) throws {
        let jpeg = JPEGBytes.inserting(marker: 0xED, payload: Self.photoshopSegment(datasets), into: try Self.jpeg())
        let info = try ImageProbe.probe(jpeg)
        #expect(info.metadata.description == expected)
        #expect(info.pixelWidth == 20)
    }

    @Test("an EXIF description wins over the IPTC caption; a damaged IPTC block gives no caption")
    func iptcPrecedenceAndDamage() throws {
        let caption = Self.photoshopSegment([(2, 120, Array("From IPTC".utf8))])
        let both = JPEGBytes.inserting(
            marker: 0xED, payload: caption,
            into: ExifBuilder(description: "From EXIF").inserted(into: try Self.jpeg()))
        #expect(try ImageProbe.probe(both).metadata.description == "From EXIF")
        // The IPTC resource claims more bytes than the segment holds; a dataset runs past its end.
        let tooLong = Self.photoshopSegment([(2, 120, Array("Cut".utf8))], iptcSize: 60_000)
        let overrun = Array(Self.photoshopSegment([(2, 120, Array("Cut short".utf8))]).dropLast(3))
        for payload in [tooLong, overrun] {
            let info = try ImageProbe.probe(JPEGBytes.inserting(marker: 0xED, payload: payload, into: try Self.jpeg()))
            #expect(info.metadata.description == nil)
            #expect(info.pixelWidth == 20)
        }
    }

    @Test("invalid UTF-8 in a text tag is repaired, not fatal")
    func invalidText() throws {
        let tagged = ExifBuilder(rawArtist: [0x41, 0xFF, 0xFE, 0x42]).inserted(into: try Self.jpeg())
        let artist = try #require(try ImageProbe.probe(tagged).metadata.artist)
        #expect(artist.hasPrefix("A") && artist.hasSuffix("B"))
    }

    @Test("a damaged EXIF block is ignored; the image is still probed and decoded")
    func damagedExif() throws {
        var payload = ExifBuilder(orientation: 6, artist: "X").payload()
        payload.replaceSubrange(10..<14, with: be32(0x7FFF_FFF0))  // IFD0 offset far outside
        let jpeg = JPEGBytes.inserting(marker: 0xE1, payload: payload, into: try Self.jpeg())
        let info = try ImageProbe.probe(jpeg)
        #expect(info.pixelWidth == 20 && info.orientation == .up && info.metadata == PhotoMetadata())
        #expect(try Image.decode(jpeg).width == 20)
    }

    @Test("TIFF tags give the metadata of a TIFF file")
    func tiffFields() throws {
        let tiff = TIFFWriter(orientation: 3, littleEndian: false, description: "Harbour", artist: "Kim", dateTime: "2020:02:02 10:10:10")
            .write(try quadrantImage(width: 8, height: 6))
        let info = try ImageProbe.probe(tiff)
        #expect(info.orientation == .down)
        #expect(info.metadata == PhotoMetadata(dateTaken: "2020:02:02 10:10:10", description: "Harbour", artist: "Kim"))
    }

    @Test("the EXIF item of a HEIF file gives its metadata, but not its orientation (irot/imir rule)")
    func heifExif() throws {
        let exif = ExifBuilder(orientation: 6, artist: "Phone", dateTimeOriginal: "2022:12:24 18:00:00", gps: true).tiff()
        let heif = ISOFile.syntheticHEIF(width: 4032, height: 3024, exif: exif)
        let info = try ImageProbe.probe(heif)
        #expect(info.metadata == PhotoMetadata(dateTaken: "2022:12:24 18:00:00", artist: "Phone", hasGPS: true))
        #expect(info.orientation == .up && info.displayWidth == 4032)
        let path = TemporaryFile.write(heif, name: "phone.heic")
        defer { TemporaryFile.remove(path) }
        #expect(try ImageProbe.probe(fileAtPath: path) == info)
    }

    @Test("a HEIF file whose media data comes first is probed from a few blocks: box headers, meta, EXIF")
    func heifMetaLast() throws {
        let exif = ExifBuilder(artist: "Far away", gps: true).tiff()
        let heif = ISOFile.syntheticHEIF(width: 640, height: 480, transforms: [.irot(1)], exif: exif, mediaFirst: true, padding: 2_000_000)
        let path = TemporaryFile.write(heif, name: "late.heic")
        defer { TemporaryFile.remove(path) }
        let reader = try ByteReader(path: path)
        let info = try ImageProbe.probe(reader)
        #expect(info.pixelWidth == 640 && info.displayWidth == 480 && info.orientation == .left)
        #expect(info.metadata == PhotoMetadata(artist: "Far away", hasGPS: true))
        #expect(reader.bytesRead <= 3 * 64 * 1024)
        #expect(try ImageProbe.probe(heif) == info)
    }

    @Test("re-encoded images carry no EXIF, so GPS positions never reach the site", arguments: [EncodeFormat.jpeg(quality: 80), .webp(quality: 80), .png])
    func stripped(format: EncodeFormat) throws {
        let source = ExifBuilder(orientation: 6, artist: "Secret Artist", dateTimeOriginal: "2023:01:01 01:01:01", gps: true)
            .inserted(into: try quadrantImage(width: 40, height: 20).encoded(as: .jpeg(quality: 80)))
        let set = try Renditions.make(from: source, widths: [10, 20, 400], format: format)
        #expect(set.info.metadata.hasGPS)  // the source has it...
        for rendition in set.renditions {  // ...its renditions do not
            let info = try ImageProbe.probe(rendition.bytes)
            #expect(info.metadata == PhotoMetadata() && info.orientation == .up)
            #expect(!rendition.bytes.contains(sequence: Array("Exif".utf8)))
            #expect(!rendition.bytes.contains(sequence: Array("Secret Artist".utf8)))
        }
    }

    @Test("a site that keeps GPS gets the GPS directory back, and nothing else of the EXIF", arguments: [false, true])
    func keptGPS(littleEndian: Bool) throws {
        let source = ExifBuilder(orientation: 6, artist: "Secret Artist", dateTimeOriginal: "2023:01:01 01:01:01", gps: true, littleEndian: littleEndian)
            .inserted(into: try quadrantImage(width: 40, height: 20).encoded(as: .jpeg(quality: 80)))
        let block = try #require(GPSMetadata.block(fromJPEG: source))
        let rendition = try Renditions.make(from: source, widths: [10], format: .jpeg(quality: 80)).renditions[0]
        let tagged = GPSMetadata.inserting(block, into: rendition.bytes)
        let info = try ImageProbe.probe(tagged)
        #expect(info.metadata.hasGPS)
        #expect(info.orientation == .up, "the pixels are upright already: no orientation may come back")
        #expect(info.metadata.artist == nil && info.metadata.dateTaken == nil)
        #expect(!tagged.contains(sequence: Array("Secret Artist".utf8)))
        let decoded = try Image.decode(tagged)
        #expect(decoded.width == rendition.width)
        // No GPS in the source: nothing to carry.
        #expect(GPSMetadata.block(fromJPEG: rendition.bytes) == nil)
        #expect(GPSMetadata.inserting(block, into: Array("not a jpeg".utf8)) == Array("not a jpeg".utf8))
    }
}
