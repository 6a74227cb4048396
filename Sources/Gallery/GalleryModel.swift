import Foundation
import GalleryConfig
import Imaging
import Video
import Support

/// One photo found in the source folder, with what the header told us about it.
///
/// A value like any other, but its fields are kept in one shared box, copied only when a copy
/// is changed: a photo is copied into the site plan, the tag index and every stage's list, and
/// for a library of 100,000 photos each copy of a dozen strings and boxes was a dozen reference
/// counts (a fifth of a one-photo rebuild's processor time went on counting references).
public struct GalleryPhoto: Sendable, Hashable {
    /// The stored fields.
    private struct Fields: Sendable, Hashable {
        var sourcePath: String
        var relativePath: String
        var fileName: String
        var fileSize: Int
        var modificationTime: Double
        var changeTime: Double = 0
        var inode: UInt64 = 0
        var device: UInt64 = 0
        var folderDevice: UInt64 = 0
        var folderInode: UInt64 = 0
        var info: ImageInfo
        var captionText: String?
        var captionHTML: String?
        // Rare, and large: kept out of line, so that every photo's box stays small.
        @BoxedOptional var video: VideoInfo?
        @BoxedOptional var motion: MotionClip?
        @BoxedOptional var sidecar: XMPMetadata?
        /// The local zone of the album's photos nearest in time, for a date written in UTC alone
        /// or a floating one (see ``GalleryPhoto/localZone``).
        var localZone: Int?
        /// ``GalleryPhoto/date``, worked out from the fields above whenever one it comes from is
        /// set: it is asked many times per photo (every sort's comparisons, each tag's wall and
        /// lightbox), and parsing it each time cost seconds at 100,000 photos with sidecars.
        var date: GalleryDate?

        mutating func updateDate() {
            date = GalleryPhoto.date(sidecar: sidecar, info: info, inZone: localZone)
        }
    }

    /// The box: changed in place only while no other photo value holds it.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private var fields: Fields {
        _read { yield storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// Absolute path of the source file.
    public var sourcePath: String {
        _read { yield fields.sourcePath }
        set { fields.sourcePath = newValue }
    }
    /// Path relative to the source folder, with `/` separators (used in messages).
    public var relativePath: String {
        _read { yield fields.relativePath }
        set { fields.relativePath = newValue }
    }
    /// The file name, as on disk.
    public var fileName: String {
        _read { yield fields.fileName }
        set { fields.fileName = newValue }
    }
    /// Size of the source file in bytes.
    public var fileSize: Int {
        get { fields.fileSize }
        set { fields.fileSize = newValue }
    }
    /// Modification time of the source file, in seconds since 1970.
    public var modificationTime: Double {
        get { fields.modificationTime }
        set { fields.modificationTime = newValue }
    }
    /// Change time and inode of the source file (see ``FileIdentity``); 0 when not known.
    public var changeTime: Double {
        get { fields.changeTime }
        set { fields.changeTime = newValue }
    }
    public var inode: UInt64 {
        get { fields.inode }
        set { fields.inode = newValue }
    }
    /// Format, pixel size, orientation and metadata read from the file's header.
    public var info: ImageInfo {
        _read { yield fields.info }
        set {
            fields.info = newValue
            fields.updateDate()
        }
    }
    /// The caption as plain text (to be HTML-escaped): from a `.txt` sidecar, or the EXIF image
    /// description. `nil` when the caption is Markdown (see ``captionHTML``) or there is none.
    public var captionText: String? {
        _read { yield fields.captionText }
        set { fields.captionText = newValue }
    }
    /// The caption as HTML (to be inserted as is): a `.md` sidecar rendered from Markdown.
    /// At most one of ``captionText`` and ``captionHTML`` is set.
    public var captionHTML: String? {
        _read { yield fields.captionHTML }
        set { fields.captionHTML = newValue }
    }
    /// For a video: what ffprobe said (its poster stands for it wherever a photo would be shown,
    /// and ``info`` describes the poster: the video's size as shown, upright). Nil for a photo.
    public var video: VideoInfo? {
        _read { yield fields.video }
        set { fields.video = newValue }
    }

    /// For a Live Photo: its motion clip (a MOV of the same stem beside it), which the site
    /// plays over the photo. Nil for other photos and for videos.
    public var motion: MotionClip? {
        _read { yield fields.motion }
        set { fields.motion = newValue }
    }

    /// Whether this item is a video.
    public var isVideo: Bool { fields.video != nil }
    /// What the photo's XMP sidecar (`IMG_1.jpg.xmp`, else `IMG_1.xmp`, else that of a camera
    /// RAW file of the same name) says; its fields come before those of the file itself.
    public var sidecar: XMPMetadata? {
        _read { yield fields.sidecar }
        set {
            fields.sidecar = newValue
            fields.updateDate()
        }
    }

    /// The zone (minutes east of UTC) a date written in UTC alone (a video's `creation_time`)
    /// is shown in, or a floating date is ordered in: that of the album's photo nearest in time
    /// with a zone of its own; set by the scan. Nil when there is none (the date is then shown
    /// in UTC, or ordered as though it were in UTC).
    public var localZone: Int? {
        get { fields.localZone }
        set {
            fields.localZone = newValue
            fields.updateDate()
        }
    }

    /// Creates a photo record.
    public init(
        sourcePath: String, relativePath: String, fileName: String, fileSize: Int,
        modificationTime: Double, info: ImageInfo, captionText: String? = nil, captionHTML: String? = nil
    ) {
        var fields = Fields(
            sourcePath: sourcePath, relativePath: relativePath, fileName: fileName, fileSize: fileSize,
            modificationTime: modificationTime, info: info, captionText: captionText, captionHTML: captionHTML)
        fields.updateDate()
        storage = Storage(fields)
    }

    public static func == (a: GalleryPhoto, b: GalleryPhoto) -> Bool {
        a.storage === b.storage || a.fields == b.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    /// What tells this version of the file from another without reading it.
    public var identity: FileIdentity {
        FileIdentity(size: fileSize, modificationTime: modificationTime, changeTime: changeTime, inode: inode)
    }

    /// The inode the scan found the file at, which a read checks the file against
    /// (``SourceFile/open(_:inode:)``); nil when unknown (a photo made by hand, in tests).
    public var scannedInode: UInt64? { inode == 0 ? nil : inode }

    /// Where the scan found the file and its folder, which a read checks them against
    /// (``SourceFile/open(_:scanned:)``); nil when unknown (a photo made by hand, in tests).
    public var scannedFile: ScannedFile? {
        get {
            inode == 0 ? nil
                : ScannedFile(device: fields.device, inode: inode, folderDevice: fields.folderDevice, folderInode: fields.folderInode)
        }
        set {
            fields.inode = newValue?.inode ?? 0
            fields.device = newValue?.device ?? 0
            fields.folderDevice = newValue?.folderDevice ?? 0
            fields.folderInode = newValue?.folderInode ?? 0
        }
    }

    /// The file name without its extension, used as a fallback title.
    public var stem: String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    /// Whether the file's name is one a camera or phone gave it (`IMG_0001`, `DSC_1234`,
    /// `P1010001`, `PXL_20240701_123456789`, `20240701_123456`, `IMG_0001 (2)`), which says
    /// nothing of the picture: four digits in a row or more, no lower-case letter, at most five
    /// letters, nothing but ASCII letters, digits, `_`, `-`, `.`, spaces and parentheses. A
    /// name a person gave (`Dune at dawn`, `beach2024`, `100%`) is not.
    public var hasCameraName: Bool {
        var run = 0
        var longestRun = 0
        var letters = 0
        for byte in stem.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                run += 1
                longestRun = max(longestRun, run)
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters += 1
            case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"): break
            default: return false
            }
            run = 0
        }
        return longestRun >= 4 && letters <= 5
    }

    /// The caption as plain text, for alt text and titles: ``captionText``, else the text of
    /// ``captionHTML`` without its tags, else the EXIF image description when it has visible text.
    public var caption: String? {
        if let captionText { return captionText }
        if let captionHTML {
            let text = plainText(fromHTML: captionHTML)
            if !text.isEmpty { return text }
        }
        return exifDescription
    }

    /// The photo's metadata in the documented order of precedence, field by field: its XMP
    /// sidecar, then what the file holds (its embedded XMP, then EXIF, then IPTC). A caption
    /// file comes before all of them for the caption (see ``caption``).
    public var metadata: PhotoMetadata {
        // (Read in place when there is no sidecar: not a copy of the file's.)
        _read {
            if let sidecar {
                yield info.metadata.overlaid(with: sidecar)
            } else {
                yield info.metadata
            }
        }
    }

    /// One field of ``metadata``, read where it is (not from a merged copy, which a scan of a
    /// large library made for each field of every photo): the sidecar's, else the file's.
    private func metadataField<Value>(_ sidecarValue: (XMPMetadata) -> Value?, _ fileValue: (PhotoMetadata) -> Value?) -> Value? {
        if let value = fields.sidecar.flatMap(sidecarValue) { return value }
        return fileValue(fields.info.metadata)
    }

    /// The described caption from the metadata (XMP description, EXIF ImageDescription or IPTC
    /// caption), when it has visible text.
    public var exifDescription: String? {
        guard let text = metadataField({ $0.description }, { $0.description })?.trimmingWhitespace(), !text.isEmpty else { return nil }
        return text
    }

    /// The title given by a photo tool (XMP `dc:title`, else IPTC Object Name), when it has
    /// visible text; distinct from the caption.
    public var metadataTitle: String? {
        guard let text = metadataField({ $0.title }, { $0.title })?.trimmingWhitespace(), !text.isEmpty else { return nil }
        return text.utf8.contains(0) ? text.filter { $0 != "\0" } : text
    }

    /// The keywords (XMP sidecar, else embedded XMP, else IPTC), each once; empty when none.
    public var keywords: [String] {
        (metadataField({ $0.keywords }, { $0.keywords }) ?? []).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// The photo's creator (XMP `dc:creator`, else EXIF Artist, else IPTC By-line), when it has
    /// visible text.
    public var creator: String? {
        metadataField({ $0.creator }, { $0.artist })?.trimmingWhitespace().nonEmpty
    }

    /// The photo's copyright notice (XMP `dc:rights`, else EXIF Copyright, else IPTC Copyright
    /// Notice), when it has visible text.
    public var copyright: String? {
        metadataField({ $0.rights }, { $0.copyright })?.trimmingWhitespace().nonEmpty
    }

    /// The people of the photo's named face regions (sidecar, else embedded XMP), each once;
    /// empty when none. Only names: a region's rectangle is never read.
    public var people: [String] {
        Self.distinct(metadataField({ $0.people }, { $0.people }) ?? [])
    }

    /// The place the photographer wrote, most specific first: sublocation, city, state,
    /// country (the sidecar's when it names any of them, else the file's), each once; empty
    /// when none. Never worked out from GPS.
    public var places: [String] {
        if let sidecar = fields.sidecar, sidecar.hasPlace {
            return Self.distinct([sidecar.sublocation, sidecar.city, sidecar.state, sidecar.country].compactMap { $0 })
        }
        // (Most photos name no place: asked of every photo of a large library, that answer
        // makes no array.)
        guard fields.info.metadata.hasPlace else { return [] }
        let file = fields.info.metadata
        return Self.distinct([file.sublocation, file.city, file.state, file.country].compactMap { $0 })
    }

    /// The names trimmed, the empty ones left out, each once (ignoring case), in order.
    private static func distinct(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// The star rating (XMP `xmp:Rating`, else EXIF Rating): -1 rejected, 0 unrated, 1 to 5.
    public var rating: Int {
        metadataField({ $0.rating }, { $0.rating }) ?? 0
    }

    /// The capture date as the metadata writes it (XMP `photoshop:DateCreated` or
    /// `exif:DateTimeOriginal`, else EXIF DateTimeOriginal).
    private var dateTaken: String? {
        metadataField({ $0.dateTaken }, { $0.dateTaken })
    }

    /// The capture date, when the photo has a valid one: the sidecar's, else the file's (one that
    /// cannot be read leaves the date to the next). A sidecar's date without a zone takes the
    /// file's zone when both give the same wall time; a date written in UTC alone is shown in
    /// ``localZone``, and a floating one is ordered in it.
    public var date: GalleryDate? {
        fields.date
    }

    /// The capture date as read before ``localZone`` applies: whether it has a zone of its own.
    var ownDate: GalleryDate? {
        Self.date(sidecar: fields.sidecar, info: fields.info, inZone: nil)
    }

    /// Whether a date of the photo is written in UTC alone (ends in `Z`), read without parsing
    /// it: most albums have none, and need not be asked for zones.
    var mayBeUniversal: Bool {
        func universal(_ text: String?) -> Bool { text?.last == "Z" || text?.last == "z" }
        return universal(fields.sidecar?.dateTaken) || universal(fields.info.metadata.dateTaken)
    }

    private static func date(sidecar: XMPMetadata?, info: ImageInfo, inZone localZone: Int?) -> GalleryDate? {
        // (The file's date is parsed only when the sidecar's is missing or lacks a zone.)
        var date: GalleryDate?
        if let found = sidecar?.dateTaken.flatMap(GalleryDate.init) {
            date = found
            if found.offset == nil, let own = info.metadata.dateTaken.flatMap(GalleryDate.init), own.offset != nil,
               found.sameWallTime(as: own) {
                date = found.withZone(of: own)
            }
        } else {
            date = info.metadata.dateTaken.flatMap(GalleryDate.init)
        }
        if let found = date, let localZone {
            if found.isUniversal {
                date = found.localized(toOffset: localZone)
            } else if found.offset == nil {
                date = found.assumingZone(localZone)
            }
        }
        return date
    }

    /// The capture date as `YYYY-MM-DD HH:MM:SS`, when the photo has one.
    public var captureDate: String? {
        guard let raw = dateTaken?.trimmingWhitespace(), raw.count >= 10 else { return nil }
        var characters = Array(raw)
        // EXIF writes "YYYY:MM:DD HH:MM:SS"; a zeroed date means "unknown".
        if characters.count >= 10 { characters[4] = "-"; characters[7] = "-" }
        let text = String(characters)
        if text.hasPrefix("0000") { return nil }
        return text
    }
}

/// The motion clip of a Live Photo: the short MOV a phone records with the photo, of the same stem.
public struct MotionClip: Sendable, Hashable {
    /// Absolute path of the clip.
    public var sourcePath: String
    /// Path relative to the source folder (used in messages).
    public var relativePath: String
    /// What tells this version of the file from another without reading it.
    public var identity: FileIdentity
    /// What ffprobe said about it.
    public var video: VideoInfo
    /// Where the scan found it and its folder, which a read checks them against; nil when unknown.
    public var scanned: ScannedFile?

    /// Creates a record.
    public init(sourcePath: String, relativePath: String, identity: FileIdentity, video: VideoInfo, scanned: ScannedFile? = nil) {
        self.sourcePath = sourcePath
        self.relativePath = relativePath
        self.identity = identity
        self.video = video
        self.scanned = scanned
    }

    /// Where the scan found the clip (``scanned``), else its identity's inode alone; nil when
    /// neither is known.
    public var scannedFile: ScannedFile? {
        scanned ?? (identity.inode == 0 ? nil : ScannedFile(device: 0, inode: identity.inode, folderDevice: 0, folderInode: 0))
    }

    /// The longest clip taken for a Live Photo's motion, in seconds (a phone's last about 3 s).
    public static let maximumDuration = 5.0
}

/// A folder of photos; sub-folders are nested albums.
///
/// A hidden album (`hidden: true` in its `index.md`) is still in its parent's ``albums`` and is
/// still built, with its pages and images; it is only left out of the parent's list of albums
/// (use ``visibleAlbums`` for that list), so that only people given its address find it.
public struct GalleryAlbum: Sendable, Hashable {
    /// The folder's name (the title given on the command line for the root).
    public var name: String
    /// Path relative to the source folder with `/` separators; empty for the root.
    public var relativePath: String
    /// Sub-albums that hold at least one photo somewhere below them, hidden ones included, in
    /// this album's ``sort`` order.
    public var albums: [GalleryAlbum]
    /// Photos directly in this folder, in this album's ``sort`` order.
    public var photos: [GalleryPhoto]
    /// The title to show: the `title` of the album's `index.md`, else ``name``.
    public var title: String
    /// The album's date: the `date` of its `index.md`, else the capture date of the oldest photo
    /// in it or below it; `nil` when none of them is dated.
    public var date: GalleryDate?
    /// The album's description: the body of its `index.md` rendered from Markdown to HTML
    /// (to be inserted as is); `nil` when there is none.
    public var descriptionHTML: String?
    /// Whether the album is left out of its parent's list of albums (it is still built).
    public var hidden: Bool
    /// The file name of the photo chosen as cover by the `cover` of `index.md`; always one of
    /// ``photos`` when set (an unknown name is reported and ignored).
    public var coverFileName: String?
    /// The order of ``photos`` and ``albums``: the `sort` of `index.md`, else the site's.
    public var sort: AlbumSortOrder
    /// How ``photos`` are split into sections by capture date: the `group` of `index.md`, else
    /// the site's. With a grouping other than `none`, ``photos`` are ordered by section
    /// (oldest first, undated last), each section in the ``sort`` order.
    public var group: PhotoGrouping = .none
    /// How the album is laid out: the `layout` of `index.md`, else the site's.
    public var layout: AlbumLayout = .columns
    /// The capture date of the oldest photo in the album or below it (set by the scanner).
    var oldestPhotoDate: GalleryDate?

    /// Creates an album.
    public init(
        name: String, relativePath: String, albums: [GalleryAlbum], photos: [GalleryPhoto],
        title: String? = nil, date: GalleryDate? = nil, descriptionHTML: String? = nil, hidden: Bool = false,
        coverFileName: String? = nil, sort: AlbumSortOrder = .date
    ) {
        self.name = name
        self.relativePath = relativePath
        self.albums = albums
        self.photos = photos
        self.title = title ?? name
        self.date = date
        self.descriptionHTML = descriptionHTML
        self.hidden = hidden
        self.coverFileName = coverFileName
        self.sort = sort
    }

    /// The sub-albums listed on this album's page: ``albums`` without the hidden ones.
    public var visibleAlbums: [GalleryAlbum] {
        albums.filter { !$0.hidden }
    }

    /// Number of photos in this album and all albums below it (hidden ones included).
    public var totalPhotoCount: Int {
        photos.count + albums.reduce(0) { $0 + $1.totalPhotoCount }
    }

    /// The photo that represents the album: the one named by ``coverFileName``, else its first
    /// photo, else the cover of its first visible sub-album.
    public var cover: GalleryPhoto? {
        if let coverFileName, let chosen = photos.first(where: { $0.fileName == coverFileName }) { return chosen }
        return photos.first ?? visibleAlbums.lazy.compactMap(\.cover).first
    }
}

/// A file that was not published, and why; or a problem in an album's `index.md` or a caption
/// file (then ``line`` says where, and the reason starts with "line N: ").
public struct ScanProblem: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the source folder.
    public var path: String
    /// Why it was skipped, in words a user understands.
    public var reason: String
    /// The 1-based line in the file the problem is about, when it is about a line.
    public var line: Int?
    /// Whether it is a warning about a file that was read in part (an XMP packet that could
    /// not be read: the photo is still published), not a file that was skipped.
    public var isWarning = false

    /// Creates a problem record.
    public init(path: String, reason: String, line: Int? = nil, isWarning: Bool = false) {
        self.path = path
        self.reason = reason
        self.line = line
        self.isWarning = isWarning
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
    /// Videos that were left out because `ffmpeg` and `ffprobe` are not on the `PATH` (not in
    /// ``problems``: the build says so in one line). A video that `knownVideo` knows (an
    /// earlier build published it) is an item all the same.
    public var videosWithoutTools: [String] = []
    /// How many items were left out as rejected (rating -1), and how many below `min_rating`
    /// (photos and videos; a Live Photo counts once).
    public var rejected = 0
    public var belowMinimumRating = 0
    /// The XMP sidecars whose fields the photos took, each once, in the order of the walk.
    public var sidecars: [ScannedSidecar] = []
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

/// The visible text of a small piece of HTML: tags dropped, the common entities decoded,
/// runs of white space made one space.
func plainText(fromHTML html: String) -> String {
    var text = ""
    var inTag = false
    for character in html {
        if inTag {
            if character == ">" { inTag = false; text.append(" ") }
        } else if character == "<" {
            inTag = true
        } else {
            text.append(character)
        }
    }
    // (Foundation's search only when there is an entity: it costs microseconds a call, and
    // this runs for every captioned photo of a page.)
    for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")]
    where text.utf8.contains(UInt8(ascii: "&")) {
        text = text.replacingOccurrences(of: entity, with: value)
    }
    return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }

    func trimmingWhitespace() -> String {
        // (Most texts have nothing to trim, and are asked for on every page that shows them:
        // one that begins and ends with a visible ASCII character is returned as it is.)
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace && $0 != "\0" }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace && $0 != "\0" })!
        return String(scalars[first...last])
    }
}
