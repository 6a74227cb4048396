import Foundation
import Testing
import TestSupport

@testable import Imaging

/// Capture dates as photo tools write them (written with exiftool): EXIF 2.31's time zones,
/// Lightroom's partial dates, and an unreadable value that must not win over the next source.
@Suite("Capture dates and their zones")
struct CaptureDateTests {
    @Test("EXIF OffsetTimeOriginal goes with DateTimeOriginal (JPEG through libexif, TIFF through its own reader)",
          arguments: ["jpg", "tif"])
    func exifOffset(ext: String) throws {
        let image = ext == "jpg" ? try MetadataTests.jpeg() : TIFFWriter().write(try quadrantImage(width: 20, height: 10))
        let bytes = try withExiftool(image, ["-EXIF:DateTimeOriginal=2024:07:31 20:30:00", "-EXIF:OffsetTimeOriginal=-04:00",
                                             "-EXIF:ModifyDate=2024:08:02 09:00:00", "-EXIF:OffsetTime=+02:00"], extension: ext)
        #expect(try ImageProbe.probe(bytes).metadata.dateTaken == "2024:07:31 20:30:00-04:00")
    }

    @Test("an unreadable DateTimeOriginal leaves the date to DateTime, with DateTime's own OffsetTime")
    func exifFallThrough() throws {
        let bytes = try withExiftool(try MetadataTests.jpeg(), ["-EXIF:DateTimeOriginal#=    :  :     :  :  ",
                                                                "-EXIF:ModifyDate=2024:08:02 09:00:00", "-EXIF:OffsetTime=+02:00"],
                                     extension: "jpg")
        #expect(try ImageProbe.probe(bytes).metadata.dateTaken == "2024:08:02 09:00:00+02:00")
    }

    @Test("Lightroom's partial DateCreated is read as written; an unreadable one leaves the date to exif:DateTimeOriginal, said")
    func xmpPartialAndUnreadable() throws {
        let july = try withExiftool(try MetadataTests.jpeg(), ["-XMP-photoshop:DateCreated=1987-07"], extension: "jpg")
        #expect(try ImageProbe.probe(july).metadata.dateTaken == "1987-07")
        let year = try XMPReader.read(Array(xmpPacket("", attributes: #"photoshop:DateCreated="1987""#).utf8))
        #expect(year.dateTaken == "1987")
        let unreadable = try XMPReader.read(Array(xmpPacket("", attributes:
            #"photoshop:DateCreated="circa 1988" exif:DateTimeOriginal="1988-03-04T10:00:00-05:00""#).utf8))
        #expect(unreadable.dateTaken == "1988-03-04T10:00:00-05:00")
        #expect(unreadable.fieldProblems == [#"its photoshop:DateCreated ("circa 1988") is not a date"#])
    }

    @Test("an unreadable embedded XMP date does not hide the EXIF date beside it")
    func embeddedOverExif() throws {
        var exif = PhotoMetadata(dateTaken: "1988:03:04 10:00:00")
        exif = exif.overlaid(with: try XMPReader.read(Array(xmpPacket("", attributes: #"photoshop:DateCreated="unknown""#).utf8)))
        #expect(exif.dateTaken == "1988:03:04 10:00:00")
    }

    @Test("what is a date", arguments: [
        ("1987", true), ("1987-07", true), ("1987-13", false), ("2024:05:06 07:08:09", true), ("2024-05-06T07:08", true),
        ("1987:07:00 00:00:00", true), ("0000:00:00 00:00:00", false), ("    :  :     :  :  ", false), ("unknown", false),
        ("", false), ("2024-05-06T25:00", false),
    ])
    func isDate(text: String, expected: Bool) {
        #expect(CaptureDateText.isDate(text) == expected)
    }
}
