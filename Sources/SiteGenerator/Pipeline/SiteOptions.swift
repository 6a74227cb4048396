import Catalog
import Foundation
import Video
import GalleryConfig
import Imaging

/// A column count that applies from a wall width upwards: the same type as a breakpoint of
/// `cascade.yml`.
public typealias ColumnBreakpoint = SiteConfiguration.Breakpoint

/// Everything that shapes a build.
public struct SiteOptions: Sendable {
    /// The photo folder (read only, never written to).
    public var sourceDirectory: String
    /// Where the site is written.
    public var outputDirectory: String
    /// A folder whose files override the default theme's files of the same name.
    public var templatesDirectory: String?
    /// The site's title (the root album's name).
    public var title: String
    /// Column counts per wall width, laid out at build time and chosen by CSS.
    public var breakpoints: [ColumnBreakpoint]
    /// Gap between columns and rows, in CSS px.
    public var gap: Int
    /// Padding around the page content, in CSS px (used for `sizes`; the theme's CSS uses the same value).
    public var pagePadding: Int
    /// Widths of the tile images offered in `srcset`.
    public var tileWidths: [Int]
    /// Widths of the large image on a photo's own page.
    public var photoWidths: [Int]
    /// The format every image is made in: the `<img>` every browser gets.
    public var imageFormat: EncodeFormat
    /// Further formats every image is also made in, offered before ``imageFormat`` through
    /// `<picture>` (`<source type=…>`), best first: a browser takes the first it supports.
    public var sourceFormats: [EncodeFormat] = []
    /// Photos whose header claims more pixels than this are refused before decoding.
    public var limits: DecodeLimits
    /// How many photos are processed at once.
    public var jobs: Int
    /// The most tiles one album page holds. A larger album's page holds its first tiles (the
    /// viewer script shows the rest from `frames.json`), and further static pages under
    /// `pages/` hold the rest for browsers without scripts.
    public var tilesPerPage: Int
    /// Items per chunk of an album's frame data (`frames/N.json`).
    public var framesChunkSize: Int
    /// The order of photos and albums (an album's `index.md` may choose another for itself).
    public var sort: AlbumSortOrder = .date
    /// How albums' photos are split into sections by date (an album's `index.md` may choose
    /// another for itself).
    public var group: PhotoGrouping = .none
    /// How albums are laid out (an album's `index.md` may choose another for itself).
    public var layout: AlbumLayout = .columns
    /// The photographer, for the pages' footer and metadata.
    public var author: String?
    /// The site's absolute URL, ending in `/`: with it the site gets a sitemap and its pages
    /// absolute Open Graph URLs (a shared link shows the album's cover).
    public var baseURL: String?
    /// Whether published images keep the photo's GPS position (JPEG images only; off by default).
    public var keepGPS: Bool = false
    /// The colour space of the images (`colour`): sRGB, or Display P3 for wide-gamut photos.
    public var colour: OutputColour = .sRGB
    /// How videos' web versions are made (`video_max_height`, `video_quality`,
    /// `video_max_duration`).
    public var video = VideoSettings()
    /// `ffmpeg` and `ffprobe`, found on the `PATH` by default; nil leaves videos out.
    public var videoTools: MediaTools? = MediaTools.locate()
    /// Whether the site gets search (`search` in `cascade.yml`, on there by default): a search
    /// box on every page and Cascade's own index of the photos (``SearchStage``).
    public var search: Bool = false
    /// Whether each photo's original file is published and offered for download on its page.
    /// While GPS positions are stripped, originals that carry one are not published.
    public var downloadOriginals: Bool = false
    /// Where the catalog of what earlier builds made is kept; nil for the default place in the
    /// user's cache folder (see ``Catalog``).
    public var catalogPath: String?
    /// Whether a build waits while another build of the same output folder runs (else it fails).
    public var waitForLock: Bool = true
    /// A store of images shared with the shards of a sharded build (``ShardBuilder``): images
    /// are taken from it when it holds them, and what it lacks is made and added to it.
    public var storeDirectory: String?
    /// How capture dates are shown (`date_format`).
    public var dateFormat: DateFormat = SiteConfiguration().dateFormat
    /// Seconds each photo stays in the lightbox's slideshow (`slideshow_interval`).
    public var slideshowInterval: Int = SiteConfiguration().slideshowInterval
    /// Whether the lightbox shows a strip of the album's thumbnails (`lightbox_thumbnails`).
    public var lightboxThumbnails: Bool = SiteConfiguration().lightboxThumbnails
    /// Whether photo pages and the lightbox show the camera settings (`show_exif`).
    public var showExif: Bool = SiteConfiguration().showExif
    /// The fewest stars a published photo has (`min_rating`); rejected photos are never published.
    public var minRating: Int = SiteConfiguration().minRating
    /// The language the pages are written in (`language`, `--language`).
    public var language: LanguageTag = SiteConfiguration().language
    /// Whether named face regions make people: listed on photo pages, with pages of their own (`people`).
    public var people: Bool = SiteConfiguration().people
    /// How much one sitemap file may list (the protocol's; a test lowers them).
    var sitemapLimits = SitemapLimits.sitemaps
    /// How long before the build began a sidecar must have last changed for the catalog to keep
    /// its fields (a test changes it): a file's times have the coarse clock's steps, so one
    /// changed again within a step of the scan's read could keep the identity it was read with.
    var sidecarSettling = 2.0
    /// A test hook: albums whose input key is unchanged are rendered anyway, and one whose files
    /// come out different stops the program (see ``PageRenderer/inputKey(album:siteKey:)``).
    /// `CASCADE_VERIFY_ALBUM_KEYS=1` in the environment sets it.
    var verifyAlbumKeys = ProcessInfo.processInfo.environment["CASCADE_VERIFY_ALBUM_KEYS"] == "1"

    /// Creates options with the defaults of a photo folder without `cascade.yml`
    /// (``SiteConfiguration/init()``, the one source of defaults).
    public init(
        sourceDirectory: String,
        outputDirectory: String,
        templatesDirectory: String? = nil,
        title: String,
        breakpoints: [ColumnBreakpoint] = SiteConfiguration().breakpoints,
        gap: Int = SiteConfiguration().gap,
        pagePadding: Int = SiteConfiguration().pagePadding,
        tileWidths: [Int] = SiteConfiguration().thumbnailWidths,
        photoWidths: [Int] = SiteConfiguration().photoWidths,
        imageFormat: EncodeFormat = SiteOptions.encodeFormats(SiteConfiguration().formats, quality: SiteConfiguration().quality).image,
        limits: DecodeLimits = DecodeLimits(maxPixels: SiteConfiguration().maxPixels),
        jobs: Int = 0,
        tilesPerPage: Int = 500,
        framesChunkSize: Int = 1000
    ) {
        self.sourceDirectory = sourceDirectory
        self.outputDirectory = outputDirectory
        self.templatesDirectory = templatesDirectory
        self.title = title
        self.breakpoints = breakpoints
        self.gap = gap
        self.pagePadding = pagePadding
        self.tileWidths = tileWidths
        self.photoWidths = photoWidths
        self.imageFormat = imageFormat
        self.limits = limits
        self.jobs = jobs
        self.tilesPerPage = tilesPerPage
        self.framesChunkSize = framesChunkSize
    }

    /// Every image width a photo may get: tile and photo widths, ascending.
    var allImageWidths: [Int] { Array(Set(tileWidths + photoWidths)).sorted() }

    /// Every format images are made in: ``imageFormat`` first, then ``sourceFormats``.
    var allImageFormats: [EncodeFormat] { [imageFormat] + sourceFormats }

    /// What a photo's images in `format` depend on besides the photo: a rebuild reuses the
    /// images of a format only when this is the same, so adding a format makes only its images.
    /// The `colour` setting is not in it: it shapes only wide-gamut photos' images, whose
    /// records add it (``ImageSettingsKey/wide(_:)``).
    func imageSettingsKey(for format: EncodeFormat) -> ImageSettingsKey {
        ImageSettingsKey(widths: allImageWidths, format: format, keepGPS: keepGPS)
    }

    /// Whether the original of a photo whose file carries a GPS position (`hasGPS`) is
    /// published: with ``downloadOriginals``, unless positions are stripped and it has one.
    /// An original that is not published is no file of the site: nothing is in its way.
    func publishesOriginal(hasGPS: Bool) -> Bool {
        downloadOriginals && (keepGPS || !hasGPS)
    }

    /// Options from a configuration file (`cascade.yml`); `title` is used when the file has none.
    public init(configuration: SiteConfiguration, sourceDirectory: String, outputDirectory: String, title: String, jobs: Int = 0) {
        let (format, sources) = Self.encodeFormats(configuration.formats, quality: configuration.quality)
        self.init(
            sourceDirectory: sourceDirectory, outputDirectory: outputDirectory, title: configuration.title ?? title,
            breakpoints: configuration.breakpoints,
            gap: configuration.gap, pagePadding: configuration.pagePadding,
            tileWidths: configuration.thumbnailWidths, photoWidths: configuration.photoWidths,
            imageFormat: format, limits: DecodeLimits(maxPixels: configuration.maxPixels), jobs: jobs)
        sort = configuration.sort
        group = configuration.group
        layout = configuration.layout
        author = configuration.author
        baseURL = configuration.baseURL
        keepGPS = !configuration.stripGPS
        colour = configuration.colour == .wide ? .wide : .sRGB
        downloadOriginals = configuration.downloadOriginals
        sourceFormats = sources
        dateFormat = configuration.dateFormat
        slideshowInterval = configuration.slideshowInterval
        lightboxThumbnails = configuration.lightboxThumbnails
        video = VideoSettings(
            maxHeight: configuration.videoMaxHeight, quality: configuration.videoQuality,
            maxDuration: Double(configuration.videoMaxDuration) * 60)
        showExif = configuration.showExif
        minRating = configuration.minRating
        language = configuration.language
        people = configuration.people
        search = configuration.search
    }

    /// Whether the site has the index pages of `kind` (the people's only with ``people``).
    func enables(_ kind: TagKind) -> Bool {
        kind != .people || people
    }

    /// The kinds of index the site has (``enables(_:)``).
    var enabledTagKinds: Set<TagKind> {
        Set(TagKind.allCases.filter(enables))
    }

    /// The formats a configuration lists, whatever their order: the most widely supported one
    /// (JPEG, else WebP, else AVIF) for `<img>`, and the others, best compression first (AVIF,
    /// then WebP), for `<picture>`'s `<source>` elements. An empty list means JPEG.
    public static func encodeFormats(
        _ formats: [SiteConfiguration.ImageFormat], quality: Int
    ) -> (image: EncodeFormat, sources: [EncodeFormat]) {
        let byCompatibility: [SiteConfiguration.ImageFormat] = [.jpeg, .webp, .avif]
        let listed = byCompatibility.filter(formats.contains)
        guard let fallback = listed.first else { return (encodeFormat(.jpeg, quality: quality), []) }
        let sources = listed.dropFirst().reversed().map { encodeFormat($0, quality: quality) }
        return (encodeFormat(fallback, quality: quality), sources)
    }

    /// The image format a configuration names, at a quality.
    private static func encodeFormat(_ format: SiteConfiguration.ImageFormat, quality: Int) -> EncodeFormat {
        switch format {
        case .jpeg: .jpeg(quality: quality)
        case .webp: .webp(quality: quality)
        case .avif: .avif(quality: quality)
        }
    }

    /// 2 columns on phones, up to 6 on very wide screens (``SiteConfiguration/defaultBreakpoints``).
    public static let defaultBreakpoints: [ColumnBreakpoint] = SiteConfiguration.defaultBreakpoints

    /// Checks the options that do not depend on the file system.
    func validate() throws(SiteError) {
        if breakpoints.isEmpty { throw .invalidOption("at least one breakpoint is needed") }
        if breakpoints.contains(where: { !SettingRange.columns.contains($0.columns) }) {
            throw .invalidOption("a breakpoint's column count must be \(SettingRange.text(SettingRange.columns))")
        }
        if breakpoints.contains(where: { $0.minWidth < 0 }) {
            throw .invalidOption("a breakpoint's minimum width cannot be negative")
        }
        if Set(breakpoints.map(\.minWidth)).count != breakpoints.count {
            throw .invalidOption("two breakpoints have the same minimum width")
        }
        if !SettingRange.gap.contains(gap) { throw .invalidOption("the gap must be \(SettingRange.text(SettingRange.gap)) px") }
        if !SettingRange.pagePadding.contains(pagePadding) {
            throw .invalidOption("the page padding must be \(SettingRange.text(SettingRange.pagePadding)) px")
        }
        if tileWidths.isEmpty || photoWidths.isEmpty || !(tileWidths + photoWidths).allSatisfy(SettingRange.imageWidth.contains) {
            throw .invalidOption("image widths must be \(SettingRange.text(SettingRange.imageWidth)) px")
        }
        if tilesPerPage < 1 || framesChunkSize < 1 {
            throw .invalidOption("tiles per page and the frame chunk size must be positive")
        }
        if limits.maxPixels < 1 { throw .invalidOption("the pixel limit must be positive") }
        if !SettingRange.minRating.contains(minRating) {
            throw .invalidOption("the minimum rating must be \(SettingRange.text(SettingRange.minRating)) stars")
        }
        if !SettingRange.slideshowInterval.contains(slideshowInterval) {
            throw .invalidOption("the slideshow interval must be \(SettingRange.text(SettingRange.slideshowInterval)) seconds")
        }
    }
}

extension SiteError {
    /// The catalog's error as the build reports it.
    init(_ error: CatalogError) {
        switch error {
        case .catalog(let path, let reason): self = .catalog(path: path, reason: reason)
        case .catalogDamaged(let path, let reason): self = .catalogDamaged(path: path, reason: reason)
        }
    }

    /// What `body` (work on the catalog) returns; its error as the build reports it.
    static func fromCatalog<T>(_ body: () throws(CatalogError) -> T) throws(SiteError) -> T {
        do {
            return try body()
        } catch {
            throw SiteError(error)
        }
    }
}

/// Errors that stop a build as a whole (a single bad photo never does).
public enum SiteError: Error, CustomStringConvertible, Equatable, Sendable {
    /// An option has a value that cannot work.
    case invalidOption(String)
    /// The output folder is the source folder, inside it, or contains it.
    case outputOverlapsSource(output: String, source: String)
    /// The output path exists and is not a folder.
    case outputNotADirectory(String)
    /// The source folder cannot be scanned.
    case source(String)
    /// A theme file cannot be read or parsed.
    case template(file: String, reason: String)
    /// A file of the site cannot be written.
    case write(path: String, reason: String)
    /// The catalog (what earlier builds made) cannot be opened or written.
    case catalog(path: String, reason: String)
    /// The catalog was found damaged while it was read (the build sets it aside and goes on).
    case catalogDamaged(path: String, reason: String)
    /// Another build of the same output folder is running (and the build was told not to wait).
    case busy(output: String, holder: String)
    /// The store of a sharded build cannot be used.
    case store(path: String, reason: String)
    /// The build's task was cancelled: it stopped between two steps, as an interrupted build
    /// (the next build completes the site).
    case cancelled

    /// A sentence naming the file or folder and the reason.
    public var description: String {
        switch self {
        case .invalidOption(let message): "invalid option: \(message)"
        case .outputOverlapsSource(let output, let source):
            "refusing to write the site to \(output): it overlaps the photo folder \(source) (the photo folder is never written to; choose an output folder outside it)"
        case .outputNotADirectory(let path): "the output path \(path) exists and is not a folder"
        case .source(let message): message
        case .template(let file, let reason): "theme file \(file): \(reason)"
        case .write(let path, let reason): "cannot write \(path): \(reason)"
        case .catalog(let path, let reason): "the catalog \(path) cannot be used: \(reason) (--catalog chooses another place)"
        case .catalogDamaged(let path, let reason): "the catalog \(path) is damaged: \(reason)"
        case .busy(let output, let holder): "another build of \(output) is running (\(holder)); try again when it is done"
        case .store(let path, let reason): "the store \(path) cannot be used: \(reason)"
        case .cancelled: "the build was cancelled; the files written are whole, and the next build completes the site"
        }
    }
}
