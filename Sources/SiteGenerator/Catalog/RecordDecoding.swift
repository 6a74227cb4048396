import Imaging

// How the photo record and what it holds read themselves from the catalog's bytes, field by
// field (``RecordDecodable``): the keys and kinds their `Codable` conformances write, in the
// order they write them. A video's record, rare, is read through `Codable`.
// (RecordCoderTests checks that both ways read every field of a full record alike.)

extension BuildManifest.PhotoRecord: RecordDecodable {
    init(fields: inout RecordFields) throws {
        size = try fields.int("size")
        modificationTime = try fields.double("modificationTime")
        changeTime = try fields.doubleIfPresent("changeTime")
        inode = try fields.uint64IfPresent("inode")
        contentHash = try fields.string("contentHash")
        settings = try fields.string("settings")
        width = try fields.int("width")
        height = try fields.int("height")
        color = try fields.string("color")
        renditions = try fields.records("renditions")
        sources = try fields.recordsIfPresent("sources")
        info = try fields.recordIfPresent("info")
        probeVersion = try fields.intIfPresent("probeVersion")
        video = try fields.decodableIfPresent("video", as: BuildManifest.VideoRecord.self)
    }
}

extension BuildManifest.RenditionRecord: RecordDecodable {
    init(fields: inout RecordFields) throws {
        width = try fields.int("width")
        height = try fields.int("height")
        path = try fields.string("path")
    }
}

extension BuildManifest.SourceRecord: RecordDecodable {
    init(fields: inout RecordFields) throws {
        type = try fields.string("type")
        settings = try fields.string("settings")
        paths = try fields.strings("paths")
    }
}

extension ImageInfo: RecordDecodable {
    init(fields: inout RecordFields) throws {
        let formatName = try fields.string("format")
        guard let format = ImageFormat(rawValue: formatName) else { throw RecordCoder.DecodingFailure(description: "no image format \(formatName)") }
        let pixelWidth = try fields.int("pixelWidth")
        let pixelHeight = try fields.int("pixelHeight")
        let turn = try fields.int("orientation")
        guard let orientation = Orientation(rawValue: turn) else { throw RecordCoder.DecodingFailure(description: "no orientation \(turn)") }
        self.init(
            format: format, pixelWidth: pixelWidth, pixelHeight: pixelHeight, orientation: orientation,
            displayWidth: try fields.int("displayWidth"), displayHeight: try fields.int("displayHeight"),
            metadata: try fields.record("metadata"))
    }
}

extension PhotoMetadata: RecordDecodable {
    init(fields: inout RecordFields) throws {
        let dateTaken = try fields.stringIfPresent("dateTaken")
        let description = try fields.stringIfPresent("description")
        let artist = try fields.stringIfPresent("artist")
        self.init(dateTaken: dateTaken, description: description, artist: artist, hasGPS: try fields.bool("hasGPS"))
        title = try fields.stringIfPresent("title")
        keywords = try fields.stringsIfPresent("keywords")
        rating = try fields.intIfPresent("rating")
        camera = try fields.recordIfPresent("camera")
        xmpProblem = try fields.stringIfPresent("xmpProblem")
        fieldProblems = try fields.stringsIfPresent("fieldProblems")
        copyright = try fields.stringIfPresent("copyright")
        people = try fields.stringsIfPresent("people")
        sublocation = try fields.stringIfPresent("sublocation")
        city = try fields.stringIfPresent("city")
        state = try fields.stringIfPresent("state")
        country = try fields.stringIfPresent("country")
    }
}

extension CameraSettings: RecordDecodable {
    init(fields: inout RecordFields) throws {
        self.init()
        make = try fields.stringIfPresent("make")
        model = try fields.stringIfPresent("model")
        lens = try fields.stringIfPresent("lens")
        focalLength = try fields.doubleIfPresent("focalLength")
        focalLength35mm = try fields.intIfPresent("focalLength35mm")
        fNumber = try fields.doubleIfPresent("fNumber")
        exposureTime = try fields.recordIfPresent("exposureTime")
        iso = try fields.intIfPresent("iso")
        exposureBias = try fields.doubleIfPresent("exposureBias")
    }
}

extension CameraSettings.Fraction: RecordDecodable {
    init(fields: inout RecordFields) throws {
        self.init(numerator: try fields.int("numerator"), denominator: try fields.int("denominator"))
    }
}
