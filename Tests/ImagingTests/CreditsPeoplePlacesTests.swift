import Foundation
import Testing
import TestSupport

@testable import Imaging

/// Credits, people (named face regions), places and tools' internal keywords, written the way
/// the tools write them (exiftool, or the tools' own XMP where exiftool writes it otherwise).
@Suite("Credits, people, places and internal keywords")
struct CreditsPeoplePlacesTests {
    @Test("credits: EXIF Artist and Copyright; IPTC By-line and Copyright Notice where EXIF has none; XMP dc:creator and dc:rights over both")
    func credits() throws {
        let exif = try ImageProbe.probe(withExiftool(try MetadataTests.jpeg(), ["-EXIF:Artist=Jürgen Müller", "-EXIF:Copyright=© 2024 Jürgen Müller"], extension: "jpg")).metadata
        #expect(exif.artist == "Jürgen Müller")
        #expect(exif.copyright == "© 2024 Jürgen Müller")
        let iptc = try ImageProbe.probe(withExiftool(try MetadataTests.jpeg(), [
            "-IPTC:By-line=Ana Lima", "-IPTC:By-line=Bo Chen", "-IPTC:CopyrightNotice=© Agency", "-IPTC:CodedCharacterSet=UTF8",
        ], extension: "jpg")).metadata
        #expect(iptc.artist == "Ana Lima, Bo Chen")
        #expect(iptc.copyright == "© Agency")
        let all = try ImageProbe.probe(withExiftool(try MetadataTests.jpeg(), [
            "-EXIF:Artist=EXIF artist", "-EXIF:Copyright=EXIF copyright", "-IPTC:By-line=IPTC artist",
            "-XMP-dc:Creator=XMP artist", "-XMP-dc:Rights=XMP rights",
        ], extension: "jpg")).metadata
        #expect(all.artist == "XMP artist" && all.copyright == "XMP rights")
    }

    @Test("places: IPTC City, Sub-location, Province-State, Country; the XMP place (photoshop, Iptc4xmpCore) as a whole over it; never from GPS")
    func places() throws {
        let iptc = try ImageProbe.probe(withExiftool(try MetadataTests.jpeg(), [
            "-IPTC:CodedCharacterSet=UTF8", "-IPTC:Sub-location=Tour Eiffel", "-IPTC:City=Paris",
            "-IPTC:Province-State=Île-de-France", "-IPTC:Country-PrimaryLocationName=France",
        ], extension: "jpg")).metadata
        #expect([iptc.sublocation, iptc.city, iptc.state, iptc.country] == ["Tour Eiffel", "Paris", "Île-de-France", "France"])
        let xmp = try ImageProbe.probe(withExiftool(try MetadataTests.jpeg(), [
            "-IPTC:City=Paris", "-IPTC:Country-PrimaryLocationName=France",
            "-XMP-photoshop:City=Lyon", "-XMP-iptcCore:Location=Vieux Lyon",
        ], extension: "jpg")).metadata
        // The XMP names a place: all of it is the XMP's (not Lyon in IPTC's France).
        #expect([xmp.sublocation, xmp.city, xmp.state, xmp.country] == ["Vieux Lyon", "Lyon", nil, nil])
        let gps = try ImageProbe.probe(withExiftool(try MetadataTests.jpeg(), [
            "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E",
        ], extension: "jpg")).metadata
        #expect(gps.hasGPS && gps.city == nil && gps.country == nil)
    }

    @Test("people: MWG face regions as exiftool (and Lightroom) write them; a pet's or an unnamed region is no person; no rectangle is kept")
    func mwgRegions() throws {
        let bytes = try withExiftool(try MetadataTests.jpeg(), [
            "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=64,H=48,Unit=pixel},RegionList=["
                + "{Area={W=0.1,H=0.2,X=0.3,Y=0.4,Unit=normalized},Name=Jürgen Müller,Type=Face},"
                + "{Area={W=0.1,H=0.2,X=0.6,Y=0.4,Unit=normalized},Name=Rex,Type=Pet},"
                + "{Area={W=0.1,H=0.2,X=0.7,Y=0.4,Unit=normalized},Type=Face},"
                + "{Area={W=0.1,H=0.2,X=0.8,Y=0.4,Unit=normalized},Name=Ana Lima,Type=Face}]}",
        ], extension: "jpg")
        let metadata = try ImageProbe.probe(bytes).metadata
        #expect(metadata.people == ["Jürgen Müller", "Ana Lima"])
        #expect(!String(describing: metadata).contains("0.3"))
    }

    @Test("people: Microsoft's MP:RegionInfo (Windows Photo Gallery) as exiftool writes it")
    func microsoftRegions() throws {
        let bytes = try withExiftool(try MetadataTests.jpeg(), [
            "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bo Chen,Rectangle=0.1|, 0.2|, 0.3|, 0.4},{Rectangle=0.5|, 0.5|, 0.1|, 0.1}]}",
        ], extension: "jpg")
        #expect(try ImageProbe.probe(bytes).metadata.people == ["Bo Chen"])
    }

    @Test("people: a sidecar as digiKam writes it (each region an rdf:Description with attributes), with its MP regions beside the MWG ones: each person once")
    func digiKamSidecar() throws {
        let sidecar = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
                xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#"
                xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
                xmlns:MP="http://ns.microsoft.com/photo/1.2/"
                xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
                xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#"
                xmlns:digiKam="http://www.digikam.org/ns/1.0/"
                xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
                xmlns:dc="http://purl.org/dc/elements/1.1/">
               <mwg-rs:Regions rdf:parseType="Resource">
                <mwg-rs:AppliedToDimensions stDim:w="4000" stDim:h="3000" stDim:unit="pixel"/>
                <mwg-rs:RegionList>
                 <rdf:Bag>
                  <rdf:li>
                   <rdf:Description mwg-rs:Name="Jürgen Müller" mwg-rs:Type="Face">
                    <mwg-rs:Area stArea:x="0.52" stArea:y="0.31" stArea:w="0.1" stArea:h="0.14" stArea:unit="normalized"/>
                   </rdf:Description>
                  </rdf:li>
                 </rdf:Bag>
                </mwg-rs:RegionList>
               </mwg-rs:Regions>
               <MP:RegionInfo rdf:parseType="Resource">
                <MPRI:Regions>
                 <rdf:Bag>
                  <rdf:li MPReg:PersonDisplayName="Jürgen Müller" MPReg:Rectangle="0.47, 0.24, 0.1, 0.14"/>
                 </rdf:Bag>
                </MPRI:Regions>
               </MP:RegionInfo>
               <digiKam:TagsList><rdf:Seq><rdf:li>People/Jürgen Müller</rdf:li></rdf:Seq></digiKam:TagsList>
               <lr:hierarchicalSubject><rdf:Bag><rdf:li>People|Jürgen Müller</rdf:li><rdf:li>People|Unknown</rdf:li>
                <rdf:li>_Digikam_Internal_Tags_|Scanned for Faces</rdf:li></rdf:Bag></lr:hierarchicalSubject>
               <dc:subject><rdf:Bag><rdf:li>Jürgen Müller</rdf:li><rdf:li>Unknown</rdf:li><rdf:li>Scanned for Faces</rdf:li></rdf:Bag></dc:subject>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            """
        let metadata = try XMPReader.read(Array(sidecar.utf8))
        #expect(metadata.people == ["Jürgen Müller"])
        #expect(metadata.keywords == ["Jürgen Müller"])
        #expect(metadata.title == nil && metadata.description == nil)
    }

    @Test("keywords: darktable's darktable|… tags are not the user's, whether hierarchical or flat; the user's own stay")
    func darktableKeywords() throws {
        let bytes = try withExiftool(try MetadataTests.jpeg(), [
            "-XMP-lr:HierarchicalSubject=darktable|changed", "-XMP-lr:HierarchicalSubject=darktable|format|jpg",
            "-XMP-lr:HierarchicalSubject=darktable|exported", "-XMP-lr:HierarchicalSubject=places|Paris",
            "-XMP-dc:Subject=beach", "-XMP-dc:Subject=darktable|changed", "-XMP-dc:Subject=exported", "-XMP-dc:Subject=Paris",
        ], extension: "jpg")
        #expect(try ImageProbe.probe(bytes).metadata.keywords == ["Paris", "beach"])
        // A keyword of the user's that happens to be a darktable leaf name stays when the user's tree has it.
        #expect(XMPReader.keywords(subject: ["jpg"], hierarchical: ["darktable|format|jpg", "formats|jpg"]) == ["jpg"])
    }
}
