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

    @Test("ratings are clamped to -1 ... 5; a rejected photo is -1", arguments: [("-1", -1), ("5", 5), ("7", 5), ("-3", -1), ("3.0", 3), ("x", nil)] as [(String, Int?)])
    func ratings(text: String, expected: Int?) throws {
        let fields = try XMPReader.read(Array(xmpPacket("", attributes: #"xmp:Rating="\#(text)""#).utf8))
        #expect(fields.rating == expected)
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

    @Test("deep nesting is refused, not recursed into")
    func deep() throws {
        let depth = 10_000
        let packet = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: XMPError.tooDeep(limit: XMPReader.maximumDepth)) { try XMPReader.read(Array(packet.utf8)) }
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
