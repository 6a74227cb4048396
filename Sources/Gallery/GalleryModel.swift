import Imaging

/// One photo found in the source folder, with what the header told us about it.
public struct GalleryPhoto: Sendable, Hashable {
    /// Absolute path of the source file.
    public var sourcePath: String
    /// Path relative to the source folder, with `/` separators (used in messages).
    public var relativePath: String
    /// The file name, as on disk.
    public var fileName: String
    /// Size of the source file in bytes.
    public var fileSize: Int
    /// Modification time of the source file, in seconds since 1970.
    public var modificationTime: Double
    /// Format, pixel size, orientation and metadata read from the file's header.
    public var info: ImageInfo

    /// Creates a photo record.
    public init(
        sourcePath: String, relativePath: String, fileName: String, fileSize: Int,
        modificationTime: Double, info: ImageInfo
    ) {
        self.sourcePath = sourcePath
        self.relativePath = relativePath
        self.fileName = fileName
        self.fileSize = fileSize
        self.modificationTime = modificationTime
        self.info = info
    }

    /// The file name without its extension, used as a fallback title.
    public var stem: String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    /// The caption: the EXIF image description when it has visible text.
    public var caption: String? {
        guard let text = info.metadata.description?.trimmingWhitespace(), !text.isEmpty else { return nil }
        return text
    }

    /// The capture date as `YYYY-MM-DD HH:MM:SS`, from EXIF, when the photo has one.
    public var captureDate: String? {
        guard let raw = info.metadata.dateTaken?.trimmingWhitespace(), raw.count >= 10 else { return nil }
        var characters = Array(raw)
        // EXIF writes "YYYY:MM:DD HH:MM:SS"; a zeroed date means "unknown".
        if characters.count >= 10 { characters[4] = "-"; characters[7] = "-" }
        let text = String(characters)
        if text.hasPrefix("0000") { return nil }
        return text
    }
}

/// A folder of photos; sub-folders are nested albums.
public struct GalleryAlbum: Sendable, Hashable {
    /// The folder's name (the title given on the command line for the root).
    public var name: String
    /// Path relative to the source folder with `/` separators; empty for the root.
    public var relativePath: String
    /// Sub-albums that hold at least one photo somewhere below them, sorted by name.
    public var albums: [GalleryAlbum]
    /// Photos directly in this folder, sorted by name.
    public var photos: [GalleryPhoto]

    /// Creates an album.
    public init(name: String, relativePath: String, albums: [GalleryAlbum], photos: [GalleryPhoto]) {
        self.name = name
        self.relativePath = relativePath
        self.albums = albums
        self.photos = photos
    }

    /// Number of photos in this album and all albums below it.
    public var totalPhotoCount: Int {
        photos.count + albums.reduce(0) { $0 + $1.totalPhotoCount }
    }

    /// The photo that represents the album: its first photo, or else the cover of its first sub-album.
    public var cover: GalleryPhoto? {
        photos.first ?? albums.lazy.compactMap(\.cover).first
    }
}

/// A file that was not published, and why.
public struct ScanProblem: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the source folder.
    public var path: String
    /// Why it was skipped, in words a user understands.
    public var reason: String

    /// Creates a problem record.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "path: reason".
    public var description: String { "\(path): \(reason)" }
}

/// What a scan found.
public struct ScanResult: Sendable {
    /// The source folder as the root album.
    public var root: GalleryAlbum
    /// Files that were skipped, in path order.
    public var problems: [ScanProblem]
}

/// Errors that stop a scan as a whole.
public enum GalleryError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The source folder does not exist.
    case sourceMissing(String)
    /// The source path is not a folder.
    case sourceNotADirectory(String)
    /// The source folder cannot be read.
    case sourceUnreadable(String, reason: String)

    /// A sentence naming the folder and the reason.
    public var description: String {
        switch self {
        case .sourceMissing(let path): "the photo folder \(path) does not exist"
        case .sourceNotADirectory(let path): "\(path) is not a folder"
        case .sourceUnreadable(let path, let reason): "cannot read the photo folder \(path): \(reason)"
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace && $0 != "\0" }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace && $0 != "\0" })!
        return String(scalars[first...last])
    }
}
