import Foundation
import Testing
import TestSupport

@testable import Imaging

/// `bytes` after exiftool wrote `arguments` into them.
func withExiftool(_ bytes: [UInt8], _ arguments: [String], extension ext: String) throws -> [UInt8] {
    let folder = try TemporaryFolder()
    try folder.write("photo." + ext, bytes)
    try exiftool(arguments, on: folder.path + "/photo." + ext)
    return [UInt8](try folder.data("photo." + ext))
}

@Suite("Metadata embedded by photo tools (written with exiftool)")
struct EmbeddedMetadataTests {
    static let fields = [
        "-XMP-dc:Title=Beach <b>&</b> sea", "-XMP-dc:Description=Two weeks on the coast",
        "-XMP-dc:Subject=beach", "-XMP-dc:Subject=holiday", "-XMP-xmp:Rating=4",
        "-XMP-photoshop:DateCreated=2024:07:14 18:30:00", "-XMP-dc:Creator=Ana Lima",
    ]

    static func check(_ metadata: PhotoMetadata) {
        #expect(metadata.xmpProblem == nil)
        #expect(metadata.title == "Beach <b>&</b> sea")
        #expect(metadata.description == "Two weeks on the coast")
        #expect(metadata.keywords == ["beach", "holiday"])
        #expect(metadata.rating == 4)
        #expect(metadata.dateTaken?.hasPrefix("2024-07-14T18:30:00") == true)
        #expect(metadata.artist == "Ana Lima")
    }

    @Test("JPEG: the XMP packet of an APP1 segment")
    func jpeg() throws {
        let bytes = try withExiftool(try MetadataTests.jpeg(), Self.fields, extension: "jpg")
        Self.check(try ImageProbe.probe(bytes).metadata)
    }

    @Test("JPEG: an extended XMP packet (over 64 KB, in several APP1 segments) is joined and read")
    func extendedJPEG() throws {
        let long = String(repeating: "A long caption. ", count: 6000)  // 96 KB: more than one segment holds
        let bytes = try withExiftool(try MetadataTests.jpeg(), Self.fields.filter { !$0.contains("Description") } + ["-XMP-dc:Description=" + long],
                                     extension: "jpg")
        let marker = Array("http://ns.adobe.com/xmp/extension/".utf8)
        #expect(bytes.contains(sequence: marker), "exiftool wrote no extended XMP")
        let metadata = try ImageProbe.probe(bytes).metadata
        #expect(metadata.description == long.trimmingCharacters(in: .whitespaces))
        #expect(metadata.keywords == ["beach", "holiday"])
        #expect(metadata.title == "Beach <b>&</b> sea")
    }

    @Test("PNG: the iTXt chunk XML:com.adobe.xmp")
    func png() throws {
        let bytes = try withExiftool(try quadrantImage(width: 20, height: 10).encoded(as: .png), Self.fields, extension: "png")
        Self.check(try ImageProbe.probe(bytes).metadata)
    }

    @Test("PNG: a compressed iTXt packet is inflated; a packet after the image data is not looked for")
    func compressedPNG() throws {
        let packet = Array(xmpPacket(#"<dc:subject><rdf:Bag><rdf:li>zipped</rdf:li></rdf:Bag></dc:subject>"#).utf8)
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        let compressed = PNGWriter.chunk("iTXt", keyword + [1, 0] + [0] + [0] + Zlib.deflate(packet))
        let pixels = [[UInt8]](repeating: [UInt8](repeating: 90, count: 3 * 4), count: 4)
        let before = PNGWriter.rgb(width: 4, height: 4, pixels: pixels, extraChunks: [compressed])
        #expect(try ImageProbe.probe(before).metadata.keywords == ["zipped"])
        let plain = PNGWriter.chunk("iTXt", keyword + [0, 0] + [0] + [0] + packet)
        var after = PNGWriter.rgb(width: 4, height: 4, pixels: pixels)
        after.insert(contentsOf: plain, at: after.count - 12)  // before IEND, after IDAT
        #expect(try ImageProbe.probe(after).metadata.keywords == nil)
    }

    @Test("TIFF: tag 700")
    func tiff() throws {
        let bytes = try withExiftool(TIFFWriter().write(try quadrantImage(width: 20, height: 10)), Self.fields, extension: "tif")
        Self.check(try ImageProbe.probe(bytes).metadata)
    }

    @Test("HEIF: the XMP item (mime, application/rdf+xml)")
    func heif() throws {
        let folder = try TemporaryFolder()
        try folder.write("in.png", try quadrantImage(width: 64, height: 64).encoded(as: .png))
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "50", folder.path + "/in.png", "-o", folder.path + "/photo.heic"]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        try #require(encoder.terminationStatus == 0)
        try exiftool(Self.fields, on: folder.path + "/photo.heic")
        Self.check(try ImageProbe.probe(fileAtPath: folder.path + "/photo.heic").metadata)
    }

    @Test("in one file the XMP comes first, then EXIF, then IPTC, field by field")
    func precedenceInFile() throws {
        let all = try withExiftool(try MetadataTests.jpeg(), [
            "-EXIF:ImageDescription=from EXIF", "-IPTC:Caption-Abstract=from IPTC", "-XMP-dc:Description=from XMP",
            "-IPTC:ObjectName=IPTC title", "-IPTC:Keywords=iptc-one", "-IPTC:Keywords=iptc-two", "-EXIF:Rating=2",
        ], extension: "jpg")
        let metadata = try ImageProbe.probe(all).metadata
        #expect(metadata.description == "from XMP")
        #expect(metadata.title == "IPTC title")
        #expect(metadata.keywords == ["iptc-one", "iptc-two"])
        // exiftool also writes the EXIF rating into XMP (xmp:Rating) only when asked; the EXIF one is read.
        #expect(metadata.rating == 2)

        let exifAndIPTC = try withExiftool(try MetadataTests.jpeg(), ["-EXIF:ImageDescription=from EXIF", "-IPTC:Caption-Abstract=from IPTC"], extension: "jpg")
        #expect(try ImageProbe.probe(exifAndIPTC).metadata.description == "from EXIF")
        let iptcOnly = try withExiftool(try MetadataTests.jpeg(), ["-IPTC:Caption-Abstract=from IPTC", "-XMP-dc:Title=XMP title", "-IPTC:ObjectName=IPTC title"], extension: "jpg")
        let onlyIPTC = try ImageProbe.probe(iptcOnly).metadata
        #expect(onlyIPTC.description == "from IPTC")
        #expect(onlyIPTC.title == "XMP title")
    }

    @Test("camera settings come from EXIF (JPEG, TIFF): camera, lens, focal length and its 35 mm equivalent, aperture, exposure, ISO, compensation")
    func cameraSettings() throws {
        let arguments = [
            "-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-70mm F2.8 L IS USM", "-FocalLength=50",
            "-FocalLengthIn35mmFormat=75", "-FNumber=2.8", "-ExposureTime=1/250", "-ISO=400", "-ExposureCompensation=+0.7",
        ]
        let bytes = try withExiftool(try MetadataTests.jpeg(), arguments, extension: "jpg")
        let camera = try #require(try ImageProbe.probe(bytes).metadata.camera)
        #expect(camera.make == "Canon")
        #expect(camera.model == "Canon EOS R5")
        #expect(camera.lens == "RF24-70mm F2.8 L IS USM")
        #expect(camera.focalLength == 50)
        #expect(camera.focalLength35mm == 75)
        #expect(camera.fNumber == 2.8)
        #expect(camera.exposureTime?.value == 1.0 / 250)
        #expect(camera.iso == 400)
        #expect(abs((camera.exposureBias ?? 0) - 0.7) < 0.01)
        #expect(try ImageProbe.probe(try MetadataTests.jpeg()).metadata.camera == nil)

        // A TIFF's are read from its own directories (IFD0 and the EXIF IFD).
        let tiff = try withExiftool(TIFFWriter().write(try quadrantImage(width: 20, height: 10)), arguments, extension: "tif")
        #expect(try ImageProbe.probe(tiff).metadata.camera == camera)
        #expect(try ImageProbe.probe(TIFFWriter().write(try quadrantImage(width: 20, height: 10))).metadata.camera == nil)
    }

    @Test("a damaged embedded packet is reported in the metadata, and the rest of it is still read",
          arguments: ["<x:xmpmeta><unclosed>", "<!DOCTYPE x [<!ENTITY a \"b\">]><x/>"])
    func damagedPacket(packet: String) throws {
        let exif = ExifBuilder(orientation: 6, description: "EXIF text").inserted(into: try MetadataTests.jpeg())
        let bytes = JPEGBytes.inserting(marker: 0xE1, payload: EmbeddedXMP.standardSignature + Array(packet.utf8), into: exif)
        let info = try ImageProbe.probe(bytes)
        #expect(info.metadata.xmpProblem != nil)
        #expect(info.metadata.description == "EXIF text")
        #expect(info.orientation == .right)
    }
}
