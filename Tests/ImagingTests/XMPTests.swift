import Foundation
import Testing
import TestSupport

@testable import Imaging

/// An XMP packet around `body` (the contents of one `rdf:Description`), with `attributes` on it.
func xmpPacket(_ body: String, attributes: String = "") -> String {
    """
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
        xmlns:exif="http://ns.adobe.com/exif/1.0/"
        xmlns:lr="http://ns.adobe.com/lightroom/1.0/" \(attributes)>
    \(body)
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>
    """
}

@Suite("XMP packets")
struct XMPReaderTests {
    @Test("title and description take the x-default alternative; keywords, rating, date and creator are read")
    func fields() throws {
        let packet = xmpPacket("""
            <dc:title><rdf:Alt><rdf:li xml:lang="fr-FR">Plage</rdf:li><rdf:li xml:lang="x-default">Beach &amp; sea</rdf:li></rdf:Alt></dc:title>
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default"> Two weeks on the coast </rdf:li></rdf:Alt></dc:description>
            <dc:subject><rdf:Bag><rdf:li>beach</rdf:li><rdf:li>holiday</rdf:li><rdf:li>Beach</rdf:li></rdf:Bag></dc:subject>
            <dc:creator><rdf:Seq><rdf:li>Ana Lima</rdf:li><rdf:li>Jo</rdf:li></rdf:Seq></dc:creator>
            """, attributes: #"xmp:Rating="4" photoshop:DateCreated="2024-07-14T18:30:00+02:00""#)
        let fields = try XMPReader.read(Array(packet.utf8))
        #expect(fields.title == "Beach & sea")
        #expect(fields.description == "Two weeks on the coast")
        #expect(fields.keywords == ["beach", "holiday"])
        #expect(fields.rating == 4)
        #expect(fields.dateTaken == "2024-07-14T18:30:00+02:00")
        #expect(fields.creator == "Ana Lima, Jo")
    }

    @Test("without x-default the first alternative is used; properties as elements and as attributes agree")
    func firstAlternativeAndElements() throws {
        let packet = xmpPacket("""
            <dc:title><rdf:Alt><rdf:li xml:lang="de">Strand</rdf:li><rdf:li xml:lang="en">Beach</rdf:li></rdf:Alt></dc:title>
            <xmp:Rating>2</xmp:Rating>
            <exif:DateTimeOriginal>2021-03-04T05:06:07</exif:DateTimeOriginal>
            """)
        let fields = try XMPReader.read(Array(packet.utf8))
        #expect(fields.title == "Strand")
        #expect(fields.rating == 2)
        #expect(fields.dateTaken == "2021-03-04T05:06:07")
        #expect(fields.description == nil && fields.keywords == nil && fields.creator == nil)
    }

    @Test("prefixes are resolved by namespace: another prefix for Dublin Core is read, a look-alike prefix is not")
    func namespaces() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:dc="http://example.com/not-dublin-core/">
            <d:title><rdf:Alt><rdf:li xml:lang="x-default">Real</rdf:li></rdf:Alt></d:title>
            <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Fake</rdf:li></rdf:Alt></dc:description>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let fields = try XMPReader.read(Array(packet.utf8))
        #expect(fields.title == "Real")
        #expect(fields.description == nil)
    }

    @Test("hierarchical keywords give their last level, and the flat keywords that are their parents are dropped")
    func hierarchicalKeywords() throws {
        let packet = xmpPacket("""
            <dc:subject><rdf:Bag><rdf:li>Places</rdf:li><rdf:li>France</rdf:li><rdf:li>Paris</rdf:li><rdf:li>night</rdf:li></rdf:Bag></dc:subject>
            <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|France|Paris</rdf:li><rdf:li>People|Ana</rdf:li></rdf:Bag></lr:hierarchicalSubject>
            """)
        let fields = try XMPReader.read(Array(packet.utf8))
        #expect(fields.keywords == ["Paris", "Ana", "night"])
    }

    @Test("ratings are -1 ... 5 (a rejected photo is -1); any other value, however large, is left out with a reason",
          arguments: [("-1", -1), ("5", 5), ("3.0", 3), ("7", nil), ("-3", nil), ("x", nil), ("1e19", nil),
                      ("9.3e18", nil), ("-1e300", nil), ("nan", nil), ("inf", nil)] as [(String, Int?)])
    func ratings(text: String, expected: Int?) throws {
        let fields = try XMPReader.read(Array(xmpPacket("", attributes: #"xmp:Rating="\#(text)""#).utf8))
        #expect(fields.rating == expected)
        if expected == nil {
            #expect(fields.fieldProblems == ["its xmp:Rating (\(text)) is not a number in -1…5"])
        } else {
            #expect(fields.fieldProblems == nil)
        }
    }

    @Test("a sidecar is read from its file; one that is too large is refused without being read whole")
    func sidecarFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.xmp", xmpPacket(#"<dc:subject><rdf:Bag><rdf:li>sea</rdf:li></rdf:Bag></dc:subject>"#))
        #expect(try XMPReader.read(fileAtPath: folder.path + "/a.xmp").keywords == ["sea"])
        let handle = try FileHandle(forWritingTo: { try folder.write("big.xmp", ""); return folder.url.appendingPathComponent("big.xmp") }())
        try handle.truncate(atOffset: UInt64(XMPReader.maximumSize + 10))  // sparse: nothing is written
        try handle.close()
        #expect(throws: XMPError.tooLarge(limit: XMPReader.maximumSize)) { try XMPReader.read(fileAtPath: folder.path + "/big.xmp") }
        #expect(throws: XMPError.self) { try XMPReader.read(fileAtPath: folder.path + "/missing.xmp") }
    }

    // MARK: Hostile packets

    @Test("an XML bomb (entities) is refused before parsing")
    func bomb() throws {
        var entities = #"<!ENTITY a0 "lol">"#
        for level in 1..<10 { entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
        let packet = "<?xml version=\"1.0\"?><!DOCTYPE x:xmpmeta [\(entities)]>" + xmpPacket("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">&a9;</rdf:li></rdf:Alt></dc:title>")
        #expect(throws: XMPError.declaresEntities) { try XMPReader.read(Array(packet.utf8)) }
        let lowercase = "<!doctype x [<!entity a \"b\">]><x/>"
        #expect(throws: XMPError.declaresEntities) { try XMPReader.read(Array(lowercase.utf8)) }
    }

    @Test("a packet declaring another encoding than UTF-8 (UTF-7 hides a DOCTYPE from the byte check), or UTF-16 without one, is refused")
    func otherEncodings() throws {
        // `+ADw-+ACE-DOCTYPE` is `<!DOCTYPE` in UTF-7: no `<!` in the bytes.
        let seven = #"<?xml version="1.0" encoding="UTF-7"?>+ADw-+ACE-DOCTYPE x +AFs-+ADw-+ACE-ENTITY t 'boom'+AD4-+AF0-+AD4-"#
            + xmpPacket("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">+ACY-t+ADs-</rdf:li></rdf:Alt></dc:title>")
        #expect(throws: XMPError.declaresEncoding("UTF-7")) { try XMPReader.read(Array(seven.utf8)) }
        #expect(throws: XMPError.declaresEncoding("ISO-8859-1")) {
            try XMPReader.read(Array("  <?xml version='1.0' encoding = 'ISO-8859-1' ?><x/>".utf8))
        }
        let sixteen = Array("<?xml version=\"1.0\"?><x/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(throws: XMPError.declaresEncoding("UTF-16 (it holds NUL bytes)")) { try XMPReader.read(sixteen) }
        // UTF-8 declared in any case is read.
        let eight = #"<?xml version="1.0" encoding="utf-8"?>"# + xmpPacket("", attributes: #"xmp:Rating="3""#)
        #expect(try XMPReader.read(Array(eight.utf8)).rating == 3)
        #expect(XMPReader.declaredEncoding(Array(#"<?xml version="1.0"?><x encoding="UTF-7"/>"#.utf8)[...]) == nil)
    }

    @Test("deep nesting is refused, not recursed into")
    func deep() throws {
        let depth = 10_000
        let packet = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: XMPError.tooDeep(limit: XMPReader.maximumDepth)) { try XMPReader.read(Array(packet.utf8)) }
    }

    @Test("a processing instruction without data (`<?name?>`, which crashed Foundation's parser) is read past, anywhere in the packet")
    func processingInstructionWithoutData() throws {
        let packet = "<?empty?>" + xmpPacket("<?inner?>", attributes: #"xmp:Rating="3""#)
        #expect(try XMPReader.read(Array(packet.utf8)).rating == 3)
        let shapes = ["<?a?>", "<?a?><?b?>", "x<?ab?>y", "<?a ?>", "<?a b?>", "<?", "<?a?"]
        #expect(shapes.map { String(decoding: XMPReader.withDataInProcessingInstructions(Array($0.utf8)[...]), as: UTF8.self) }
                == ["<?a ?>", "<?a ?><?b ?>", "x<?ab ?>y", "<?a ?>", "<?a b?>", "<?", "<?a?"])
        // The input the fuzzer found (Tests/fuzz/xmp/pi-without-data): malformed, refused with a reason.
        let found = "<?xpackehiHzreSzNTcexif:G?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:li>on</x:xmpmeta>"
        #expect(throws: XMPError.self) { try XMPReader.read(Array(found.utf8)) }
    }

    @Test("malformed XML names its line; invalid UTF-8 is refused")
    func malformed() throws {
        #expect(throws: XMPError.malformed(line: 3)) { try XMPReader.read(Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<a>\n</b>".utf8)) }
        #expect(throws: XMPError.notUTF8) { try XMPReader.read(Array("<x>".utf8) + [0xC3, 0x28] + Array("</x>".utf8)) }
        #expect(throws: XMPError.tooLarge(limit: XMPReader.maximumSize)) {
            try XMPReader.read([UInt8](repeating: 0x20, count: XMPReader.maximumSize + 1))
        }
    }
}
