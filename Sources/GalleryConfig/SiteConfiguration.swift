import Foundation
import Yams

/// The order of an album's photos and sub-albums.
public enum AlbumSortOrder: String, Sendable, Hashable, CaseIterable {
    /// By capture date, oldest first (EXIF DateTimeOriginal for photos, front matter `date` or
    /// the oldest photo for albums); undated ones after the dated ones, by name; ties by name.
    case date
    /// By name, case-insensitively, numbers by value (`IMG_2` before `IMG_10`).
    case name
    /// By capture date, newest first; undated ones still after the dated ones, by name.
    case dateDescending = "date-desc"
    /// By name, in reverse.
    case nameDescending = "name-desc"
}

/// The site's settings, read from `cascade.yml` in the photo folder.
///
/// Every key is optional; a missing key (or `key:` with no value) keeps its default, which is
/// what ``SiteConfiguration/init()`` holds. Unknown keys, values of the wrong type and values out
/// of range are a ``ConfigurationError`` naming the file, the key and the line.
public struct SiteConfiguration: Sendable, Hashable {
    /// The name of the configuration file in the photo folder.
    public static let fileName = "cascade.yml"

    /// A column count (and a row height, for albums laid out in rows) that applies from an
    /// album width upwards.
    public struct Breakpoint: Sendable, Hashable {
        /// The smallest album (wall) width in CSS px at which `columns` applies.
        public var minWidth: Int
        /// Number of columns, 1 to 24.
        public var columns: Int
        /// The height, CSS px, that rows are aimed at in an album laid out in rows (`layout:
        /// rows`); nil: ``defaultRowHeight(minWidth:)``.
        public var rowHeight: Int?

        /// Creates a breakpoint.
        public init(minWidth: Int, columns: Int, rowHeight: Int? = nil) {
            self.minWidth = minWidth
            self.columns = columns
            self.rowHeight = rowHeight
        }

        /// The row height in force: the configured one, else the default.
        public var effectiveRowHeight: Int { rowHeight ?? Self.defaultRowHeight(minWidth: minWidth) }

        /// The row height of the default breakpoint that applies at `minWidth`: 150 px from 0,
        /// 180 from 600, 220 from 1000, 260 from 1600, 300 from 2400.
        public static func defaultRowHeight(minWidth: Int) -> Int {
            SiteConfiguration.defaultBreakpoints.last { $0.minWidth <= minWidth }?.rowHeight ?? 150
        }
    }

    /// A format of the generated images.
    public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
        case jpeg, webp, avif
    }

    /// The site's title; `nil`: the command line's `--title`, else the photo folder's name.
    public var title: String?
    /// The photographer, for the pages' footer and metadata; `nil`: none.
    public var author: String?
    /// The site's absolute URL (`https://example.com/photos/`, always ending in `/`), for the
    /// sitemap and Open Graph tags; `nil`: the site uses relative links only.
    public var baseURL: String?
    /// Column counts per album width, sorted by `minWidth`; the first starts at 0.
    public var breakpoints: [Breakpoint]
    /// Gap between tiles, in CSS px.
    public var gap: Int
    /// Padding around the page content, in CSS px.
    public var pagePadding: Int
    /// Widths of the tile images in an album's waterfall, ascending.
    public var thumbnailWidths: [Int]
    /// Widths of the large image on a photo's page and in the lightbox, ascending.
    public var photoWidths: [Int]
    /// Formats of the generated images, each at most once, in any order: the most widely
    /// supported one is the `<img>` every browser gets, the others are offered first through
    /// `<picture>` (see `SiteOptions.encodeFormats`).
    public var formats: [ImageFormat]
    /// Quality of the lossy formats (JPEG, WebP, AVIF), 1 to 100.
    public var quality: Int
    /// The order of photos and albums, unless an album's `index.md` says otherwise.
    public var sort: AlbumSortOrder
    /// Photos whose header claims more megapixels than this are refused before decoding.
    public var maxMegapixels: Int
    /// Whether GPS positions are kept out of everything published (true by default).
    public var stripGPS: Bool
    /// The colour space of the images: sRGB for every photo, or Display P3 for wide-gamut ones.
    public var colour: ColourSetting
    /// Whether a photo's page links to its original file, published next to the page.
    public var downloadOriginals: Bool
    /// How capture dates are shown on the pages and in the lightbox (see ``DateFormat``).
    public var dateFormat: DateFormat
    /// Seconds each photo stays in the lightbox's slideshow.
    public var slideshowInterval: Int
    /// Whether the lightbox shows a strip of the album's thumbnails under the photo.
    public var lightboxThumbnails: Bool
    /// The largest height of a video's web version as shown, after its display rotation (px).
    public var videoMaxHeight: Int
    /// Quality of a video's web version when it is encoded, 1 to 100.
    public var videoQuality: Int
    /// Videos longer than this many minutes are skipped.
    public var videoMaxDuration: Int
    /// How albums' photos are split into sections by capture date, unless an album's
    /// `index.md` says otherwise.
    public var group: PhotoGrouping
    /// How albums are laid out, unless an album's `index.md` says otherwise.
    public var layout: AlbumLayout
    /// Whether each photo's camera settings are shown on its page and in the lightbox.
    public var showExif: Bool
    /// The fewest stars a photo needs to be published (0: every photo but rejected ones).
    public var minRating: Int
    /// The language the pages are written in (`language:`, a BCP 47 tag); English by default.
    public var language: LanguageTag
    /// Whether the people named in photos' face regions are listed on their pages and get pages of their own.
    public var people: Bool
    /// Whether the site gets its static search: the search box and Cascade's own index.
    public var search: Bool

    /// The defaults: the settings of a photo folder without `cascade.yml`.
    public init() {
        title = nil
        author = nil
        baseURL = nil
        breakpoints = Self.defaultBreakpoints
        gap = 8
        pagePadding = 12
        thumbnailWidths = [400, 800, 1600]
        photoWidths = [800, 1600, 2400]
        formats = [.jpeg]
        quality = 82
        sort = .date
        maxMegapixels = 200
        stripGPS = true
        colour = .srgb
        downloadOriginals = false
        dateFormat = .default
        slideshowInterval = 4
        lightboxThumbnails = false
        videoMaxHeight = 1080
        videoQuality = 75
        videoMaxDuration = 30
        group = .none
        layout = .columns
        showExif = true
        minRating = 0
        language = .english
        people = true
        search = true
    }

    /// 2 columns from 0 px, 3 from 600, 4 from 1000, 5 from 1600, 6 from 2400 (rows of 150,
    /// 180, 220, 260, 300 px).
    public static let defaultBreakpoints: [Breakpoint] = [
        Breakpoint(minWidth: 0, columns: 2, rowHeight: 150), Breakpoint(minWidth: 600, columns: 3, rowHeight: 180),
        Breakpoint(minWidth: 1000, columns: 4, rowHeight: 220), Breakpoint(minWidth: 1600, columns: 5, rowHeight: 260),
        Breakpoint(minWidth: 2400, columns: 6, rowHeight: 300),
    ]

    /// The largest pixel count a photo may claim (`maxMegapixels` × 1,000,000).
    public var maxPixels: Int { maxMegapixels * 1_000_000 }

    // MARK: Reading

    /// The configuration of a photo folder: its `cascade.yml`, or the defaults when there is none.
    public static func load(folder: String) throws(ConfigurationError) -> SiteConfiguration {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return SiteConfiguration() }
        return try load(file: path)
    }

    /// The largest configuration file read (4 MiB): a real one is a few kilobytes, and a huge
    /// one (a video saved under the wrong name) is refused before it is read into memory.
    public static let maximumFileSize = 4 << 20

    /// Reads and parses a configuration file.
    public static func load(file path: String) throws(ConfigurationError) -> SiteConfiguration {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            // One byte more than allowed tells a file that is too large, whatever stat says.
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw ConfigurationError(kind: .unreadable, file: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        guard data.count <= maximumFileSize else {
            throw ConfigurationError(
                kind: .unreadable, file: path,
                reason: "the file is larger than \(maximumFileSize >> 20) MB, far more than any configuration; is it the right file?")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(kind: .unreadable, file: path, reason: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses the text of a configuration file; `file` names it in errors.
    public static func parse(_ text: String, file: String = fileName) throws(ConfigurationError) -> SiteConfiguration {
        let reader = YAMLReader(file: file)
        var configuration = SiteConfiguration()
        guard let root = try reader.compose(text), !root.isNullValue else { return configuration }
        var groupEntry: YAMLReader.Entry?
        for entry in try reader.entries(of: root, at: "", allowed: keys, what: "the settings") {
            switch entry.key {
            case "title": configuration.title = try reader.text(entry).get()
            case "author": configuration.author = try reader.text(entry).get()
            case "base_url": configuration.baseURL = try baseURL(entry, reader)
            case "breakpoints": configuration.breakpoints = try breakpoints(entry, reader)
            case "gap": configuration.gap = try reader.int(entry, in: SettingRange.gap, unit: " (CSS px)").get()
            case "page_padding": configuration.pagePadding = try reader.int(entry, in: SettingRange.pagePadding, unit: " (CSS px)").get()
            case "thumbnail_widths": configuration.thumbnailWidths = try reader.widths(entry).get()
            case "photo_widths": configuration.photoWidths = try reader.widths(entry).get()
            case "formats": configuration.formats = try formats(entry, reader)
            case "quality": configuration.quality = try reader.int(entry, in: SettingRange.quality).get()
            case "sort": configuration.sort = try reader.choice(entry.value, at: entry.path, as: AlbumSortOrder.self).get()
            case "max_megapixels":
                configuration.maxMegapixels = try reader.int(entry, in: SettingRange.maxMegapixels, unit: " (megapixels)").get()
            case "strip_gps": configuration.stripGPS = try reader.bool(entry).get()
            case "colour": configuration.colour = try reader.choice(entry.value, at: entry.path, as: ColourSetting.self).get()
            case "download_originals": configuration.downloadOriginals = try reader.bool(entry).get()
            case "date_format":
                let format = DateFormat(pattern: try reader.text(entry).get())
                guard format.hasTokens else {
                    throw reader.error(.badValue, entry.path, entry.value,
                                       "must show at least one of YYYY, MMMM, MMM, MM, M, DD, D, HH, H, mm, ss (for example \"D MMMM YYYY, HH:mm\")")
                }
                configuration.dateFormat = format
            case "slideshow_interval":
                configuration.slideshowInterval = try reader.int(entry, in: SettingRange.slideshowInterval, unit: " (seconds)").get()
            case "lightbox_thumbnails": configuration.lightboxThumbnails = try reader.bool(entry).get()
            case "video_max_height":
                configuration.videoMaxHeight = try reader.int(entry, in: SettingRange.videoMaxHeight, unit: " (px)").get()
            case "video_quality": configuration.videoQuality = try reader.int(entry, in: SettingRange.quality).get()
            case "video_max_duration":
                configuration.videoMaxDuration = try reader.int(entry, in: SettingRange.videoMaxDuration, unit: " (minutes)").get()
            case "layout": configuration.layout = try reader.choice(entry.value, at: entry.path, as: AlbumLayout.self).get()
            case "group":
                configuration.group = try reader.choice(entry.value, at: entry.path, as: PhotoGrouping.self).get()
                groupEntry = entry
            case "show_exif": configuration.showExif = try reader.bool(entry).get()
            case "min_rating": configuration.minRating = try reader.int(entry, in: SettingRange.minRating, unit: " (stars)").get()
            case "language":
                let text = try reader.text(entry).get()
                guard let tag = LanguageTag(text) else {
                    throw reader.error(.badValue, entry.path, entry.value,
                                       "must be a BCP 47 language tag such as fr, de, pt-BR, zh-Hans or ar, not \"\(text)\"")
                }
                configuration.language = tag
            case "people": configuration.people = try reader.bool(entry).get()
            case "search": configuration.search = try reader.bool(entry).get()
            default: break  // `entries` refuses keys that are not listed
            }
        }
        if configuration.layout == .rows, configuration.group != .none, let entry = groupEntry {
            throw reader.error(.badValue, entry.path, entry.value,
                               "cannot be combined with layout: rows yet; use group: none, or layout: columns")
        }
        return configuration
    }

    /// Every key `cascade.yml` may hold.
    public static let keys = [
        "title", "author", "base_url", "breakpoints", "gap", "page_padding", "thumbnail_widths", "photo_widths",
        "formats", "quality", "colour", "sort", "max_megapixels", "strip_gps", "download_originals",
        "date_format", "slideshow_interval", "lightbox_thumbnails", "group", "layout", "show_exif", "min_rating",
        "video_max_height", "video_quality", "video_max_duration", "people", "search", "language",
    ]

    private static func baseURL(_ entry: YAMLReader.Entry, _ reader: YAMLReader) throws(ConfigurationError) -> String {
        let text = try reader.text(entry).get().trimmingCharacters(in: .whitespaces)
        let allowed = "an absolute http:// or https:// address such as https://example.com/photos/"
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil, !text.contains(where: \.isWhitespace)
        else {
            throw reader.error(.badValue, entry.path, entry.value, "must be \(allowed), not \"\(text)\"")
        }
        return text.hasSuffix("/") ? text : text + "/"
    }

    private static func breakpoints(_ entry: YAMLReader.Entry, _ reader: YAMLReader) throws(ConfigurationError) -> [Breakpoint] {
        var result: [Breakpoint] = []
        for (path, node) in try reader.items(entry, what: "breakpoints ({min_width, columns})").get() {
            let fields = try reader.entries(of: node, at: path, allowed: ["min_width", "columns", "row_height"],
                                            what: "a breakpoint such as {min_width: 600, columns: 3, row_height: 180}")
            var minWidth: Int?
            var columns: Int?
            var rowHeight: Int?
            for field in fields {
                switch field.key {
                case "min_width": minWidth = try reader.int(field, in: SettingRange.breakpointMinWidth, unit: " (CSS px)").get()
                case "row_height": rowHeight = try reader.int(field, in: SettingRange.rowHeight, unit: " (CSS px)").get()
                default: columns = try reader.int(field, in: SettingRange.columns).get()
                }
            }
            guard let minWidth, let columns else {
                let missing = minWidth == nil ? "min_width" : "columns"
                throw reader.error(.badValue, path, node, "needs both min_width and columns; \(missing) is missing")
            }
            if let last = result.last, minWidth <= last.minWidth {
                throw reader.error(.badValue, path + ".min_width", node,
                                   "breakpoints must be listed by growing min_width, each larger than the one before (\(last.minWidth)), not \(minWidth)")
            }
            if result.isEmpty, minWidth != 0 {
                throw reader.error(.badValue, path + ".min_width", node,
                                   "the first breakpoint must start at min_width 0 so that every width has a column count, not \(minWidth)")
            }
            result.append(Breakpoint(minWidth: minWidth, columns: columns, rowHeight: rowHeight))
        }
        return result
    }

    private static func formats(_ entry: YAMLReader.Entry, _ reader: YAMLReader) throws(ConfigurationError) -> [ImageFormat] {
        // A single word is accepted as a list of one (`formats: webp`).
        if entry.value.scalar != nil {
            return [try reader.choice(entry.value, at: entry.path, as: ImageFormat.self).get()]
        }
        var result: [ImageFormat] = []
        for (path, node) in try reader.items(entry, what: "image formats (jpeg, webp, avif)").get() {
            let format = try reader.choice(node, at: path, as: ImageFormat.self).get()
            guard !result.contains(format) else {
                throw reader.error(.badValue, path, node, "\(format.rawValue) is listed twice; list each format once")
            }
            result.append(format)
        }
        return result
    }
}
