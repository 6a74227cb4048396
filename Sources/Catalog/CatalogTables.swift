import Foundation
import GRDB
import Imaging

// The catalog's tables of photos, one record type per table (as GRDB's "Recommended Practices
// for Designing Record Types" advise): `photo`, one row per photo or video with plain columns,
// and `photo_file`, one row per image made of it. `BuildManifest.PhotoRecord`, what the build
// works with, is a photo row with its file rows (``CatalogPhoto/record(files:)``).
//
// Reading is the one path a rebuild takes through all of it (a library of 100,000 photos reads
// every row on every rebuild), so each type reads its row by position, in the order of its
// `columns`, in a hand-written `init(row:)`, rather than through `Decodable`.

/// A row of the `photo` table: a photo (or video) by its path in the photo folder, what its
/// images were made from (the file's identity and content hash, the image settings), its size
/// and colour, and what its header said (format, orientation, dates and the metadata the pages
/// show). Its images are rows of `photo_file` (``CatalogPhotoFile``).
struct CatalogPhoto: FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "photo"

    /// The columns, in the order `init(row:)` reads them.
    static let columns = [
        "path", "size", "modification_time", "change_time", "inode", "content_hash", "settings", "width", "height", "color",
        "probe_version", "format", "pixel_width", "pixel_height", "orientation", "display_width", "display_height",
        "date_taken", "description", "artist", "has_gps", "title", "keywords", "rating", "xmp_problem", "field_problems",
        "copyright", "people", "sublocation", "city", "state", "country",
        "camera_make", "camera_model", "lens", "focal_length", "focal_length_35mm", "f_number",
        "exposure_numerator", "exposure_denominator", "iso", "exposure_bias", "video",
    ]
    static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }
    /// `SELECT` of ``columns``, for the raw SQL of ranged reads.
    static let selectSQL = "SELECT " + columns.joined(separator: ", ") + " FROM photo"

    /// The table, created by the catalog's migration to tables (``Catalog``).
    static let createSQL = """
        CREATE TABLE photo (
            path TEXT PRIMARY KEY NOT NULL,
            size INTEGER NOT NULL,
            modification_time REAL NOT NULL,
            change_time REAL,
            inode INTEGER,
            content_hash TEXT NOT NULL,
            settings TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            color TEXT NOT NULL,
            probe_version INTEGER,
            format TEXT,
            pixel_width INTEGER,
            pixel_height INTEGER,
            orientation INTEGER CHECK (orientation BETWEEN 1 AND 8),
            display_width INTEGER,
            display_height INTEGER,
            date_taken TEXT,
            description TEXT,
            artist TEXT,
            has_gps INTEGER,
            title TEXT,
            keywords TEXT,
            rating INTEGER,
            xmp_problem TEXT,
            field_problems TEXT,
            copyright TEXT,
            people TEXT,
            sublocation TEXT,
            city TEXT,
            state TEXT,
            country TEXT,
            camera_make TEXT,
            camera_model TEXT,
            lens TEXT,
            focal_length REAL,
            focal_length_35mm INTEGER,
            f_number REAL,
            exposure_numerator INTEGER,
            exposure_denominator INTEGER,
            iso INTEGER,
            exposure_bias REAL,
            video TEXT,
            CHECK ((format IS NULL) = (pixel_width IS NULL) AND (format IS NULL) = (pixel_height IS NULL)
                AND (format IS NULL) = (orientation IS NULL) AND (format IS NULL) = (display_width IS NULL)
                AND (format IS NULL) = (display_height IS NULL) AND (format IS NULL) = (has_gps IS NULL)),
            CHECK ((exposure_numerator IS NULL) = (exposure_denominator IS NULL))
        ) WITHOUT ROWID
        """

    var path: String
    /// The photo's record but for its images (its `renditions` are empty, its `sources` nil).
    var record: BuildManifest.PhotoRecord

    init(path: String, record: BuildManifest.PhotoRecord) {
        self.path = path
        self.record = record
        self.record.renditions = []
        self.record.sources = nil
    }

    /// What a row cannot say: a value out of its column's range (a catalog edited by hand, or
    /// damaged in a way SQLite does not see). The photo is then made anew.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    init(row: Row) throws {
        // (A column that must hold a value is read with `decode`, which throws on a NULL where
        // the subscript would stop the program: a damaged row costs its photo, nothing more.)
        path = try row.decode(String.self, atIndex: 0)
        var info: ImageInfo?
        if let formatName = row[11] as String? {
            guard let format = ImageFormat(rawValue: formatName) else { throw Unreadable(description: "no image format \(formatName)") }
            let turn = try row.decode(Int.self, atIndex: 14)
            guard let orientation = Orientation(rawValue: turn) else { throw Unreadable(description: "no orientation \(turn)") }
            var metadata = PhotoMetadata(
                dateTaken: row[17], description: row[18], artist: row[19], hasGPS: try row.decode(Bool.self, atIndex: 20))
            metadata.title = row[21]
            metadata.keywords = try Self.strings(row[22])
            metadata.rating = row[23]
            metadata.xmpProblem = row[24]
            metadata.fieldProblems = try Self.strings(row[25])
            metadata.copyright = row[26]
            metadata.people = try Self.strings(row[27])
            metadata.sublocation = row[28]
            metadata.city = row[29]
            metadata.state = row[30]
            metadata.country = row[31]
            // (A camera whose every field is unknown is never kept: the metadata readers leave it nil.)
            var camera = CameraSettings()
            camera.make = row[32]
            camera.model = row[33]
            camera.lens = row[34]
            camera.focalLength = row[35]
            camera.focalLength35mm = row[36]
            camera.fNumber = row[37]
            if let numerator = row[38] as Int?, let denominator = row[39] as Int? {
                camera.exposureTime = CameraSettings.Fraction(numerator: numerator, denominator: denominator)
            }
            camera.iso = row[40]
            camera.exposureBias = row[41]
            metadata.camera = camera.isEmpty ? nil : camera
            info = ImageInfo(
                format: format, pixelWidth: try row.decode(Int.self, atIndex: 12), pixelHeight: try row.decode(Int.self, atIndex: 13),
                orientation: orientation, displayWidth: try row.decode(Int.self, atIndex: 15),
                displayHeight: try row.decode(Int.self, atIndex: 16), metadata: metadata)
        }
        var video: BuildManifest.VideoRecord?
        if let text = row[42] as String? {
            // (A video's record, rare, is the one part kept as JSON: what ffprobe said has many fields.)
            do {
                video = try JSONDecoder().decode(BuildManifest.VideoRecord.self, from: Data(text.utf8))
            } catch {
                throw Unreadable(description: "its video column is not a video record")
            }
        }
        let inode: Int64? = row[4]
        record = BuildManifest.PhotoRecord(
            size: try row.decode(Int.self, atIndex: 1), modificationTime: try row.decode(Double.self, atIndex: 2),
            changeTime: row[3], inode: inode.map { UInt64(bitPattern: $0) },
            contentHash: try row.decode(String.self, atIndex: 5), settings: try row.decode(String.self, atIndex: 6),
            width: try row.decode(Int.self, atIndex: 7), height: try row.decode(Int.self, atIndex: 8),
            color: try row.decode(String.self, atIndex: 9),
            renditions: [], sources: nil, info: info, probeVersion: row[10], video: video)
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["path"] = path
        container["size"] = record.size
        container["modification_time"] = record.modificationTime
        container["change_time"] = record.changeTime
        // (SQLite's integers are signed: an inode above Int64.max is kept as its bit pattern.)
        container["inode"] = record.inode.map { Int64(bitPattern: $0) }
        container["content_hash"] = record.contentHash
        container["settings"] = record.settings
        container["width"] = record.width
        container["height"] = record.height
        container["color"] = record.color
        container["probe_version"] = record.probeVersion
        if let info = record.info {
            container["format"] = info.format.rawValue
            container["pixel_width"] = info.pixelWidth
            container["pixel_height"] = info.pixelHeight
            container["orientation"] = info.orientation.rawValue
            container["display_width"] = info.displayWidth
            container["display_height"] = info.displayHeight
            let metadata = info.metadata
            container["date_taken"] = metadata.dateTaken
            container["description"] = metadata.description
            container["artist"] = metadata.artist
            container["has_gps"] = metadata.hasGPS
            container["title"] = metadata.title
            container["keywords"] = try Self.text(metadata.keywords)
            container["rating"] = metadata.rating
            container["xmp_problem"] = metadata.xmpProblem
            container["field_problems"] = try Self.text(metadata.fieldProblems)
            container["copyright"] = metadata.copyright
            container["people"] = try Self.text(metadata.people)
            container["sublocation"] = metadata.sublocation
            container["city"] = metadata.city
            container["state"] = metadata.state
            container["country"] = metadata.country
            if let camera = metadata.camera {
                container["camera_make"] = camera.make
                container["camera_model"] = camera.model
                container["lens"] = camera.lens
                container["focal_length"] = camera.focalLength
                container["focal_length_35mm"] = camera.focalLength35mm
                container["f_number"] = camera.fNumber
                container["exposure_numerator"] = camera.exposureTime?.numerator
                container["exposure_denominator"] = camera.exposureTime?.denominator
                container["iso"] = camera.iso
                container["exposure_bias"] = camera.exposureBias
            }
        }
        if let video = record.video {
            container["video"] = String(decoding: try JSONEncoder().encode(video), as: UTF8.self)
        }
    }

    /// A list of strings as the catalog keeps it: a JSON array (SQLite's `json_each` reads it).
    static func text(_ strings: [String]?) throws -> String? {
        try strings.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    }

    /// The list of strings kept as ``text(_:)``.
    static func strings(_ text: String?) throws -> [String]? {
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode([String].self, from: Data(text.utf8))
        } catch {
            throw Unreadable(description: "a list of strings that is not a JSON array of strings")
        }
    }

    /// The whole record of the photo, its images `files` (its rows of `photo_file`, in the
    /// order of their key) put back in.
    func record(files: [CatalogPhotoFile]) -> BuildManifest.PhotoRecord {
        var record = record
        var sources: [BuildManifest.SourceRecord] = []
        var lastFormat = 0
        for file in files {
            if file.format == 0 {
                record.renditions.append(BuildManifest.RenditionRecord(width: file.width ?? 0, height: file.height ?? 0, path: file.path))
            } else if file.format == lastFormat {
                sources[sources.count - 1].paths.append(file.path)
            } else {
                lastFormat = file.format
                sources.append(BuildManifest.SourceRecord(type: file.type ?? "", settings: file.settings, paths: [file.path]))
            }
        }
        record.sources = sources.isEmpty ? nil : sources
        return record
    }

    /// The rows of `photo_file` of `record`, the photo at `path`.
    static func files(of record: BuildManifest.PhotoRecord, path: String) -> [CatalogPhotoFile] {
        var files = record.renditions.enumerated().map { position, rendition in
            CatalogPhotoFile(
                photo: path, format: 0, position: position, type: nil, settings: record.settings,
                width: rendition.width, height: rendition.height, path: rendition.path)
        }
        for (index, source) in (record.sources ?? []).enumerated() {
            for (position, file) in source.paths.enumerated() {
                // (Each further format's images have the main format's sizes, in the same order.)
                let size = position < record.renditions.count ? record.renditions[position] : nil
                files.append(CatalogPhotoFile(
                    photo: path, format: index + 1, position: position, type: source.type, settings: source.settings,
                    width: size?.width, height: size?.height, path: file))
            }
        }
        return files
    }
}

/// A row of the `photo_file` table: one image made of a photo, in one format, at one size.
/// Deleting the photo's row deletes its images' rows (`ON DELETE CASCADE`).
struct CatalogPhotoFile: FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "photo_file"
    static let columns = ["photo", "format", "position", "type", "settings", "width", "height", "path"]
    static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }
    static let selectSQL = "SELECT " + columns.joined(separator: ", ") + " FROM photo_file"

    static let createSQL = """
        CREATE TABLE photo_file (
            photo TEXT NOT NULL REFERENCES photo(path) ON DELETE CASCADE,
            format INTEGER NOT NULL CHECK (format >= 0),
            position INTEGER NOT NULL CHECK (position >= 0),
            type TEXT CHECK ((format = 0) = (type IS NULL)),
            settings TEXT NOT NULL,
            width INTEGER CHECK (format > 0 OR width IS NOT NULL),
            height INTEGER CHECK (format > 0 OR height IS NOT NULL),
            path TEXT NOT NULL,
            PRIMARY KEY (photo, format, position)
        ) WITHOUT ROWID
        """

    /// The photo's path in the photo folder.
    var photo: String
    /// 0 for the site's main format (`<img>`), 1, 2, … for the further formats offered through
    /// `<picture>`, best first.
    var format: Int
    /// 0, 1, … by ascending width.
    var position: Int
    /// A further format's MIME type; nil for the main format.
    var type: String?
    /// The image settings the file was made with (see `SiteOptions.imageSettingsKey(for:)`).
    var settings: String
    var width: Int?
    var height: Int?
    /// Site-relative path.
    var path: String

    init(photo: String, format: Int, position: Int, type: String?, settings: String, width: Int?, height: Int?, path: String) {
        (self.photo, self.format, self.position, self.type, self.settings) = (photo, format, position, type, settings)
        (self.width, self.height, self.path) = (width, height, path)
    }

    init(row: Row) throws {
        // (As ``CatalogPhoto/init(row:)``: `decode` throws on a NULL where a value must be.)
        photo = try row.decode(String.self, atIndex: 0)
        format = try row.decode(Int.self, atIndex: 1)
        position = try row.decode(Int.self, atIndex: 2)
        type = row[3]
        settings = try row.decode(String.self, atIndex: 4)
        (width, height) = (row[5], row[6])
        path = try row.decode(String.self, atIndex: 7)
    }

    func encode(to container: inout PersistenceContainer) {
        container["photo"] = photo
        container["format"] = format
        container["position"] = position
        container["type"] = type
        container["settings"] = settings
        container["width"] = width
        container["height"] = height
        container["path"] = path
    }
}
