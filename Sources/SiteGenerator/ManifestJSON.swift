import Foundation
import Imaging

// The manifest's JSON, written and read by hand: with tens of thousands of files, pages and
// photos, `JSONEncoder` and `JSONDecoder` took most of a no-op rebuild's time. The text is the
// same JSON as theirs (keys sorted, optional values left out when nil), so either can read what
// the other wrote; a test checks that both give the same JSON for a full manifest, so a field
// added to a record and not here fails it.

/// A manifest that is not the JSON it should be.
struct ManifestSyntaxError: Error, CustomStringConvertible {
    /// What was wrong, and at which byte.
    var description: String
}

extension BuildManifest {
    /// The manifest's JSON.
    func jsonBytes() -> [UInt8] {
        var writer = JSONTextWriter()
        writer.bytes.reserveCapacity(256 + files.count * 40 + pages.count * 80 + photos.count * 500)
        writer.object {
            $0.key("files")
            $0.array(files) { $0.string($1) }
            $0.key("pages")
            $0.object {
                for path in pages.keys.sorted() {
                    $0.key(path)
                    $0.string(pages[path]!)
                }
            }
            $0.key("photos")
            $0.object {
                for path in photos.keys.sorted() {
                    $0.key(path)
                    $0.photoRecord(photos[path]!)
                }
            }
            $0.key("version")
            $0.int(version)
        }
        return writer.bytes
    }

    /// The top-level values of a manifest's JSON, each as the bytes of its text (read on demand,
    /// so that another version's manifest is not read beyond its version and files).
    struct Parts {
        var version: Int?
        var files: Range<Int>?
        var pages: Range<Int>?
        var photos: Range<Int>?
    }

    /// Splits the manifest's JSON into its top-level values; unknown keys are skipped.
    static func parts(of bytes: UnsafeBufferPointer<UInt8>) throws(ManifestSyntaxError) -> Parts {
        var reader = JSONTextReader(bytes)
        var parts = Parts()
        try reader.object { (reader, key) throws(ManifestSyntaxError) in
            let start = reader.position
            switch key {
            case "version": parts.version = try reader.int()
            case "files": try reader.skipValue(); parts.files = start..<reader.position
            case "pages": try reader.skipValue(); parts.pages = start..<reader.position
            case "photos": try reader.skipValue(); parts.photos = start..<reader.position
            default: try reader.skipValue()
            }
        }
        try reader.finish()
        return parts
    }

    /// The list of files in `range` of `bytes`.
    static func files(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(ManifestSyntaxError) -> [String] {
        var reader = JSONTextReader(bytes, range)
        var files: [String] = []
        try reader.array { (reader) throws(ManifestSyntaxError) in files.append(try reader.string()) }
        return files
    }

    /// The manifest in `bytes`, whose parts are `parts`: every part but the version must be
    /// there and well-formed.
    init(bytes: UnsafeBufferPointer<UInt8>, parts: Parts) throws(ManifestSyntaxError) {
        guard let version = parts.version, let filesRange = parts.files, let pagesRange = parts.pages,
            let photosRange = parts.photos
        else { throw ManifestSyntaxError(description: "a manifest needs version, files, pages and photos") }
        self.init()
        self.version = version
        files = try Self.files(bytes, filesRange)
        var reader = JSONTextReader(bytes, pagesRange)
        var pages: [String: String] = [:]
        try reader.object { (reader, key) throws(ManifestSyntaxError) in pages[key] = try reader.string() }
        self.pages = pages
        reader = JSONTextReader(bytes, photosRange)
        var photos: [String: PhotoRecord] = [:]
        photos.reserveCapacity(pages.count)
        try reader.object { (reader, key) throws(ManifestSyntaxError) in photos[key] = try reader.photoRecord() }
        self.photos = photos
    }
}

// MARK: - Records

extension JSONTextWriter {
    mutating func photoRecord(_ record: BuildManifest.PhotoRecord) {
        object {
            $0.key("color"); $0.string(record.color)
            $0.key("contentHash"); $0.string(record.contentHash)
            $0.key("height"); $0.int(record.height)
            if let info = record.info {
                $0.key("info"); $0.imageInfo(info)
            }
            $0.key("modificationTime"); $0.double(record.modificationTime)
            if let probeVersion = record.probeVersion {
                $0.key("probeVersion"); $0.int(probeVersion)
            }
            $0.key("renditions")
            $0.array(record.renditions) { writer, rendition in
                writer.object {
                    $0.key("height"); $0.int(rendition.height)
                    $0.key("path"); $0.string(rendition.path)
                    $0.key("width"); $0.int(rendition.width)
                }
            }
            $0.key("settings"); $0.string(record.settings)
            $0.key("size"); $0.int(record.size)
            if let sources = record.sources {
                $0.key("sources")
                $0.array(sources) { writer, source in
                    writer.object {
                        $0.key("paths"); $0.array(source.paths) { $0.string($1) }
                        $0.key("settings"); $0.string(source.settings)
                        $0.key("type"); $0.string(source.type)
                    }
                }
            }
            $0.key("width"); $0.int(record.width)
        }
    }

    mutating func imageInfo(_ info: ImageInfo) {
        object {
            $0.key("displayHeight"); $0.int(info.displayHeight)
            $0.key("displayWidth"); $0.int(info.displayWidth)
            $0.key("format"); $0.string(info.format.rawValue)
            $0.key("metadata")
            $0.object {
                let metadata = info.metadata
                if let artist = metadata.artist { $0.key("artist"); $0.string(artist) }
                if let dateTaken = metadata.dateTaken { $0.key("dateTaken"); $0.string(dateTaken) }
                if let description = metadata.description { $0.key("description"); $0.string(description) }
                $0.key("hasGPS"); $0.bool(metadata.hasGPS)
            }
            $0.key("orientation"); $0.int(info.orientation.rawValue)
            $0.key("pixelHeight"); $0.int(info.pixelHeight)
            $0.key("pixelWidth"); $0.int(info.pixelWidth)
        }
    }
}

extension JSONTextReader {
    mutating func photoRecord() throws(ManifestSyntaxError) -> BuildManifest.PhotoRecord {
        var size: Int?, modificationTime: Double?, contentHash: String?, settings: String?
        var width: Int?, height: Int?, color: String?, renditions: [BuildManifest.RenditionRecord]?
        var info: ImageInfo?
        var sources: [BuildManifest.SourceRecord]?
        var probeVersion: Int?
        try object { (reader, key) throws(ManifestSyntaxError) in
            switch key {
            case "size": size = try reader.int()
            case "modificationTime": modificationTime = try reader.double()
            case "contentHash": contentHash = try reader.string()
            case "settings": settings = try reader.string()
            case "width": width = try reader.int()
            case "height": height = try reader.int()
            case "color": color = try reader.string()
            case "renditions":
                var list: [BuildManifest.RenditionRecord] = []
                try reader.array { (reader) throws(ManifestSyntaxError) in list.append(try reader.renditionRecord()) }
                renditions = list
            case "info": info = try reader.isNull() ? nil : reader.imageInfo()
            case "probeVersion": probeVersion = try reader.isNull() ? nil : reader.int()
            case "sources":
                if try reader.isNull() { break }
                var list: [BuildManifest.SourceRecord] = []
                try reader.array { (reader) throws(ManifestSyntaxError) in list.append(try reader.sourceRecord()) }
                sources = list
            default: try reader.skipValue()
            }
        }
        guard let size, let modificationTime, let contentHash, let settings, let width, let height, let color,
            let renditions
        else { throw failure("a photo record lacks a field") }
        return BuildManifest.PhotoRecord(
            size: size, modificationTime: modificationTime, contentHash: contentHash, settings: settings,
            width: width, height: height, color: color, renditions: renditions, sources: sources, info: info,
            probeVersion: probeVersion)
    }

    mutating func sourceRecord() throws(ManifestSyntaxError) -> BuildManifest.SourceRecord {
        var type: String?, settings: String?, paths: [String]?
        try object { (reader, key) throws(ManifestSyntaxError) in
            switch key {
            case "type": type = try reader.string()
            case "settings": settings = try reader.string()
            case "paths":
                var list: [String] = []
                try reader.array { (reader) throws(ManifestSyntaxError) in list.append(try reader.string()) }
                paths = list
            default: try reader.skipValue()
            }
        }
        guard let type, let settings, let paths else { throw failure("a further format's record lacks a field") }
        return BuildManifest.SourceRecord(type: type, settings: settings, paths: paths)
    }

    mutating func renditionRecord() throws(ManifestSyntaxError) -> BuildManifest.RenditionRecord {
        var width: Int?, height: Int?, path: String?
        try object { (reader, key) throws(ManifestSyntaxError) in
            switch key {
            case "width": width = try reader.int()
            case "height": height = try reader.int()
            case "path": path = try reader.string()
            default: try reader.skipValue()
            }
        }
        guard let width, let height, let path else { throw failure("an image record lacks a field") }
        return BuildManifest.RenditionRecord(width: width, height: height, path: path)
    }

    mutating func imageInfo() throws(ManifestSyntaxError) -> ImageInfo {
        var format: ImageFormat?, orientation: Orientation?, metadata: PhotoMetadata?
        var pixelWidth: Int?, pixelHeight: Int?, displayWidth: Int?, displayHeight: Int?
        try object { (reader, key) throws(ManifestSyntaxError) in
            switch key {
            case "format":
                format = ImageFormat(rawValue: try reader.string())
                if format == nil { throw reader.failure("an unknown image format") }
            case "orientation":
                orientation = Orientation(rawValue: try reader.int())
                if orientation == nil { throw reader.failure("an unknown orientation") }
            case "pixelWidth": pixelWidth = try reader.int()
            case "pixelHeight": pixelHeight = try reader.int()
            case "displayWidth": displayWidth = try reader.int()
            case "displayHeight": displayHeight = try reader.int()
            case "metadata": metadata = try reader.photoMetadata()
            default: try reader.skipValue()
            }
        }
        guard let format, let orientation, let metadata, let pixelWidth, let pixelHeight, let displayWidth,
            let displayHeight
        else { throw failure("an image's header record lacks a field") }
        return ImageInfo(
            format: format, pixelWidth: pixelWidth, pixelHeight: pixelHeight, orientation: orientation,
            displayWidth: displayWidth, displayHeight: displayHeight, metadata: metadata)
    }

    mutating func photoMetadata() throws(ManifestSyntaxError) -> PhotoMetadata {
        var metadata = PhotoMetadata()
        var hasGPS: Bool?
        try object { (reader, key) throws(ManifestSyntaxError) in
            switch key {
            case "dateTaken": metadata.dateTaken = try reader.isNull() ? nil : reader.string()
            case "description": metadata.description = try reader.isNull() ? nil : reader.string()
            case "artist": metadata.artist = try reader.isNull() ? nil : reader.string()
            case "hasGPS": hasGPS = try reader.bool()
            default: try reader.skipValue()
            }
        }
        guard let hasGPS else { throw failure("a photo's metadata lacks hasGPS") }
        metadata.hasGPS = hasGPS
        return metadata
    }
}

// MARK: - Writing and reading JSON text

/// A JSON string literal; `<`, `>` and `&` are escaped too, so the text is safe inside HTML.
func jsonString(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendJSONString(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// Appends `text` as a JSON string literal to `output`: quotes, backslashes and control
/// characters are escaped, and so are `<`, `>`, `&`, U+2028 and U+2029, so the text is also
/// safe inside HTML and in a script.
func appendJSONString(_ text: String, to output: inout [UInt8]) {
    var text = text
    output.append(UInt8(ascii: "\""))
    text.withUTF8 { utf8 in
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                output += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
            case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                output += Array((utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)  // line and paragraph separators
                index += 2
            default:
                output.append(byte)
            }
            index += 1
        }
    }
    output.append(UInt8(ascii: "\""))
}

/// Writes JSON text into bytes.
struct JSONTextWriter {
    var bytes: [UInt8] = []
    /// Whether the next value or key in the current object or array needs a comma before it.
    private var needsComma = false

    mutating func object(_ body: (inout JSONTextWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<S: Sequence>(_ elements: S, _ element: (inout JSONTextWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for item in elements { element(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key of the current object; its value comes next.
    mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        separate()
        appendJSONString(text, to: &bytes)
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number as Swift writes it (the shortest text that reads back as the same value).
    mutating func double(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? String(value) : "0").utf8)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }
}

/// Reads JSON text from bytes, value by value, as the caller expects it.
struct JSONTextReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    private let end: Int

    /// A reader of `range` of `bytes` (all of them by default).
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>? = nil) {
        self.bytes = bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    func failure(_ message: String) -> ManifestSyntaxError {
        ManifestSyntaxError(description: "\(message) at byte \(position)")
    }

    /// Only white space is left.
    mutating func finish() throws(ManifestSyntaxError) {
        skipSpace()
        guard position == end else { throw failure("text after the end") }
    }

    /// An object: `member` is called with each key, the reader at its value, and must read it.
    mutating func object(_ member: (inout JSONTextReader, String) throws(ManifestSyntaxError) -> Void) throws(ManifestSyntaxError) {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { position -= 1; throw failure("expected , or }") }
        }
    }

    /// An array: `element` is called with the reader at each element, and must read it.
    mutating func array(_ element: (inout JSONTextReader) throws(ManifestSyntaxError) -> Void) throws(ManifestSyntaxError) {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") { position += 1; return }
        while true {
            try element(&self)
            let next = try peek()
            position += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { position -= 1; throw failure("expected , or ]") }
        }
    }

    mutating func string() throws(ManifestSyntaxError) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        // Most strings have no escape: their bytes are the string.
        while position < end, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") {
            position += 1
        }
        guard position < end else { throw failure("an unterminated string") }
        if bytes[position] == UInt8(ascii: "\"") {
            position += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
        }
        var text = Array(bytes[start..<position])
        while true {
            guard position < end else { throw failure("an unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < end else { throw failure("an unterminated string") }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "u"):
                    var scalar = try hexUnit()
                    if (0xD800..<0xDC00).contains(scalar), position + 1 < end, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    {
                        position += 2
                        let low = try hexUnit()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("a broken surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("a lone surrogate") }
                    text.append(contentsOf: String(unicode).utf8)
                default:
                    throw failure("an unknown escape")
                }
            default:
                text.append(byte)
            }
        }
    }

    mutating func int() throws(ManifestSyntaxError) -> Int {
        let text = try numberText()
        guard let value = Int(text) else { throw failure("expected a whole number") }
        return value
    }

    mutating func double() throws(ManifestSyntaxError) -> Double {
        guard let value = Double(try numberText()) else { throw failure("expected a number") }
        return value
    }

    mutating func bool() throws(ManifestSyntaxError) -> Bool {
        if matches("true") { return true }
        if matches("false") { return false }
        throw failure("expected true or false")
    }

    /// Whether the next value is `null`; if so it is read.
    mutating func isNull() throws(ManifestSyntaxError) -> Bool {
        _ = try peek()
        return matches("null")
    }

    /// Reads past the next value, whatever it is.
    mutating func skipValue() throws(ManifestSyntaxError) {
        switch try peek() {
        case UInt8(ascii: "{"): try object { (reader, _) throws(ManifestSyntaxError) in try reader.skipValue() }
        case UInt8(ascii: "["): try array { (reader) throws(ManifestSyntaxError) in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): guard matches("null") else { throw failure("expected null") }
        default: _ = try double()
        }
    }

    // MARK: Bytes

    private mutating func skipSpace() {
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    /// The next byte that is not white space, not read.
    private mutating func peek() throws(ManifestSyntaxError) -> UInt8 {
        skipSpace()
        guard position < end else { throw failure("unexpected end") }
        return bytes[position]
    }

    private mutating func expect(_ byte: UInt8) throws(ManifestSyntaxError) {
        guard try peek() == byte else { throw failure("expected \(Character(Unicode.Scalar(byte)))") }
        position += 1
    }

    private mutating func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= end else { return false }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
        position += count
        return true
    }

    private mutating func numberText() throws(ManifestSyntaxError) -> String {
        _ = try peek()
        let start = position
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default:
                guard position > start else { throw failure("expected a value") }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            }
        }
        guard position > start else { throw failure("expected a value") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func hexUnit() throws(ManifestSyntaxError) -> UInt32 {
        guard position + 4 <= end else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
