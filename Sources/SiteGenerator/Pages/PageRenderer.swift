import Catalog
import Dispatch
import Foundation
import Gallery
import Video
import GalleryConfig
import Synchronization
import Waterfall
import Support

/// Renders the pages and `frames.json` of each album through the theme.
struct PageRenderer: Sendable {
    let plan: SitePlan
    /// Per photo of the plan, as published (nil for a photo that was skipped): its images and
    /// its original, when the site offers it for download.
    let published: [PublishedPhoto?]
    let options: SiteOptions
    let theme: Theme
    /// How many pages are rendered at once.
    let jobs: Int
    /// The indexes of the published photos (tags, people, places: one per ``TagKind``), for
    /// their pages and the photos' links to them.
    let indexes: [TagIndex]
    /// Per photo of the plan, its position in its album (for a title that names it so).
    private let positions: [Int]
    /// How dates are shown: the site's `date_format`, else the theme's for its language.
    private let dateFormat: DateFormat

    init(plan: SitePlan, published: [PublishedPhoto?], options: SiteOptions, theme: Theme, jobs: Int, indexes: [TagIndex]) {
        self.plan = plan
        self.published = published
        self.options = options
        self.theme = theme
        self.jobs = jobs
        self.indexes = indexes
        var format = options.dateFormat
        if format == .default, let own = theme.strings.texts["date_format"] { format = DateFormat(pattern: own) }
        dateFormat = format
        var positions = [Int](repeating: 0, count: plan.photos.count)
        for album in plan.albums {
            for (position, photo) in album.photos.enumerated() { positions[photo] = position }
        }
        self.positions = positions
    }

    /// One album's files: its page (and, for a large album, its further static pages) and its
    /// frame data, each with its site-relative path, the fingerprint of what it is made from
    /// (pages only), and its contents, nil for a page `unchanged(path, key)` says need not be
    /// rendered again. The photos' pages come from ``photoPageFile``.
    func albumFiles(
        album index: Int, unchanged: @Sendable (String, String) -> Bool = { _, _ in false }
    ) throws(SiteError) -> [(path: String, key: String?, contents: String?)] {
        let album = plan.albums[index]
        let photos = album.photos
        let wall = try makeWall(photos, group: album.group, layout: album.layout)
        let pageCount = SitePlan.pageCount(photos: photos.count, perPage: options.tilesPerPage)
        // (Worked out once for all the album's pages: each credits the whole album's photos, and
        // the cover photos of the albums it lists, whose cards show them.)
        let author = credit(photos + album.listed.compactMap { cover(of: $0) })
        // (Once too: it counts every photo of the album and of the albums below.)
        let countLabel = albumCountLabel(index)
        // A large album's static pages are independent of each other: made on every core.
        let renderer = self
        var files = try parallelMap(Array(1...pageCount), jobs: jobs) { page throws(SiteError) -> (path: String, key: String?, contents: String?) in
            let path = renderer.plan.albumPagePath(album: index, page: page)
            let context = try renderer.albumContext(index, page: page, pageCount: pageCount, wall: wall, author: author, countLabel: countLabel)
            let (key, contents) = try renderer.render(context, at: path, unchanged: unchanged)
            return (path, key, contents)
        }
        files += framesFiles(album: index, wall: wall).map { ($0.0, nil, $0.1) }
        return files
    }

    func makeWall(_ photos: [Int], group: PhotoGrouping, layout: AlbumLayout) throws(SiteError) -> AlbumWall {
        let sizes = photos.map { photo in
            Size(width: Double(published[photo]!.images.width), height: Double(published[photo]!.images.height))
        }
        // A grouped album's photos are in section order: a section starts where the key changes.
        var sections: [AlbumWall.Section] = []
        if group != .none {
            var previous: Int?
            for (position, photo) in photos.enumerated() {
                let key = group.key(plan.photos[photo].photo.date)
                if position == 0 || key != previous {
                    sections.append(AlbumWall.Section(start: position, label: group.label(key, names: theme.strings.names, undated: theme.strings.text("undated"))))
                }
                previous = key
            }
        }
        do {
            return try AlbumWall(displaySizes: sizes, sections: sections, layout: layout, breakpoints: options.breakpoints, gap: options.gap)
        } catch {
            throw .invalidOption(error.description)
        }
    }

    /// One static page of an album. Page 1 holds the sub-albums and the first tiles of the
    /// whole album's wall (the viewer adds the rest); page n > 1 holds its own slice of the
    /// photos as a wall of its own, for browsers without scripts.
    private func albumContext(
        _ index: Int, page: Int, pageCount: Int, wall: AlbumWall, author: String?, countLabel: String
    ) throws(SiteError) -> AlbumPageContext {
        let album = plan.albums[index]
        let photos = album.photos
        let directory = page == 1 ? album.directory : album.directory + "pages/"
        let range = ((page - 1) * options.tilesPerPage)..<min(page * options.tilesPerPage, photos.count)
        let pageWall = page == 1 ? wall : try makeWall(Array(photos[range]), group: album.group, layout: album.layout)
        let title = page == 1 ? album.title : pageTitle(album.title, page: page, of: pageCount)
        let albums = page == 1 ? album.listed : []
        let sizesAttribute = pageWall.sizesAttribute(pagePadding: options.pagePadding)
        return AlbumPageContext(
            frame: frame(directory: directory, title: title, ancestors: album.ancestors,
                         page: plan.albumPagePath(album: index, page: page), image: coverImage(of: index), author: author),
            album: AlbumSummary(
                name: album.title, descriptionHTML: page == 1 ? album.descriptionHTML : nil, photoCount: photos.count,
                totalPhotoCount: totalPhotos(index), countLabel: countLabel, isRoot: index == 0, isTag: false),
            // The first covers are above the fold: loaded at once, not lazily.
            albums: albums.enumerated().map { albumCard($1, from: directory, position: $0) },
            hasPhotos: !photos.isEmpty,
            isEmpty: album.listed.isEmpty && photos.isEmpty,
            wallCSS: page == 1 ? wall.css(renderedCount: range.count) : pageWall.css(),
            // Every static page carries the viewer: page 1 shows the whole wall, the others keep
            // their own tiles and get the lightbox (`wallIsSlice`).
            framesURL: page == 1 ? "frames.json" : "../frames.json",
            wallIsSlice: page > 1,
            wallIsGrouped: pageWall.isGrouped,
            wallIsRows: pageWall.isRows,
            slideshowInterval: options.slideshowInterval,
            lightboxThumbnails: options.lightboxThumbnails,
            tiles: range.map { position in
                tile(photos[position], position: position, wallIndex: position - range.lowerBound, wall: pageWall,
                     renderedCount: range.count, sizes: sizesAttribute, directory: directory)
            },
            pagination: pageCount > 1 ? pagination(page: page, pageCount: pageCount, from: directory) { plan.albumPagePath(album: index, page: $0) } : nil)
    }

    /// Links to the other static pages: previous, next, the first, the last and the two on
    /// either side of the current one.
    func pagination(page: Int, pageCount: Int, from directory: String, path: (Int) -> String) -> Pagination {
        func url(_ number: Int) -> String { relativeURL(from: directory, to: path(number)) }
        var shown = Set([1, pageCount])
        for number in (page - 2)...(page + 2) where number >= 1 && number <= pageCount { shown.insert(number) }
        var links: [PageNumber] = []
        var last = 0
        for number in shown.sorted() {
            if number > last + 1 { links.append(.ellipsis) }
            links.append(.page(number: number, url: url(number), current: number == page))
            last = number
        }
        return Pagination(page: page, pageCount: pageCount, links: links,
                          previous: page > 1 ? PageLink(url: url(page - 1)) : nil,
                          next: page < pageCount ? PageLink(url: url(page + 1)) : nil)
    }

    // MARK: - Contexts

    /// The variables every page receives. `page` is the page's site-relative path, `image` the
    /// site-relative path of the image that represents it (for link previews), `author` whom its
    /// photos are by (``credit(_:)``; the site's `author` when the page shows no photo).
    func frame(
        directory: String, title: String, ancestors: [(name: String, directory: String)], page: String, image: String?,
        author: String?? = nil
    ) -> PageFrame {
        let author = author ?? options.author
        var crumbs = ancestors.map { Breadcrumb(name: $0.name, url: relativeURL(from: directory, to: $0.directory + "index.html"), current: false) }
        if !crumbs.isEmpty || !directory.isEmpty {
            crumbs.append(Breadcrumb(name: title, url: nil, current: true))
        }
        // Open Graph: a shared link shows the title and, with the site's address known, the image.
        var ogURL: String?
        var ogImage: String?
        if let base = options.baseURL {
            let pageURL = page.hasSuffix("index.html") ? String(page.dropLast("index.html".count)) : page
            ogURL = base + URLPath.encode(path: pageURL)
            ogImage = image.map { base + URLPath.encode(path: $0) }
        }
        func indexURL(_ kind: TagKind) -> String? {
            guard let index = indexes.first(where: { $0.kind == kind }), !index.isEmpty else { return nil }
            return relativeURL(from: directory, to: index.indexPath)
        }
        return PageFrame(
            site: SiteInfo(title: options.title, author: options.author ?? ""),
            title: title,
            pageTitle: directory.isEmpty && ancestors.isEmpty ? options.title : "\(title) · \(options.title)",
            rootURL: relativeURL(from: directory, to: "index.html"),
            assetsURL: relativeURL(from: directory, to: plan.assetsFolder + "/"),
            breadcrumbs: crumbs,
            gap: options.gap,
            pagePadding: options.pagePadding,
            author: author,
            footerCredit: author.map { theme.strings.text("footer_photos_by", ["author": $0]) },
            og: OpenGraph(title: title, siteName: options.title, url: ogURL, image: ogImage),
            feedURL: options.baseURL.map { $0 + plan.feedPath },
            tagsURL: indexURL(.tags),
            peopleURL: indexURL(.people),
            placesURL: indexURL(.places),
            // The search box, and where its script finds the index (`index.gz`).
            searchURL: plan.searchFolder.map { relativeURL(from: directory, to: $0 + "/") })
    }

    /// Whom `photos` are by, each name once, in the photos' order: each one's creator, the
    /// site's `author` for one without; and whether any of them names its own creator.
    func creators(_ photos: some Sequence<Int>) -> (names: [String], anyCreator: Bool) {
        var names: [String] = []
        var seen: Set<String> = []
        var anyCreator = false
        for photo in photos {
            let creator = plan.photos[photo].photo.creator
            anyCreator = anyCreator || creator != nil
            if let name = creditName(creator: creator), seen.insert(name).inserted { names.append(name) }
        }
        return (names, anyCreator)
    }

    /// The name a photo whose creator is `creator` is credited under: its creator's, else the
    /// site's `author`; nil when neither is known.
    func creditName(creator: String?) -> String? {
        creator ?? options.author
    }

    /// Whom `photos` are by, for a page showing them (its `<meta name="author">` and footer):
    /// each one's creator, the site's `author` for one without; nil when none is known. Never
    /// the site's author alone for a photo somebody else made.
    func credit(_ photos: [Int]) -> String? {
        credit(names: creators(photos).names, ofNoPhoto: photos.isEmpty)
    }

    /// ``credit(_:)`` of photos by `names` (``creators(_:)``), or of none.
    func credit(names: [String], ofNoPhoto: Bool) -> String? {
        var names = names
        if ofNoPhoto, let author = options.author { names = [author] }
        switch names.count {
        case 0: return nil
        case 1: return names[0]
        case 2, 3:
            return theme.strings.text("names_and", ["names": names.dropLast().joined(separator: theme.strings.text("list_separator")), "last": names.last!])
        default:
            return theme.strings.text("names_and_others", ["names": names.prefix(3).joined(separator: theme.strings.text("list_separator"))])
        }
    }

    /// The site-relative path of the image that represents an album: its cover's largest tile image.
    func coverImage(of album: Int) -> String? {
        coverImage(photo: cover(of: album))
    }

    /// The site-relative path of a photo's largest tile image.
    func coverImage(photo cover: Int?) -> String? {
        guard let cover, let coverImages = published[cover]?.images else { return nil }
        return (coverImages.renditions.last { $0.width <= tileImageLimit } ?? coverImages.renditions.first)?.path
    }

    private func albumCard(_ index: Int, from directory: String, position: Int) -> AlbumCard {
        let album = plan.albums[index]
        var cover: CardCover?
        if let coverPhoto = self.cover(of: index), let coverImages = published[coverPhoto]?.images {
            let tileImages = coverImages.renditions.filter { $0.width <= tileImageLimit }
            let chosen = tileImages.first { $0.width >= 600 } ?? tileImages.last ?? coverImages.renditions[0]
            let sizes = "(min-width: 700px) 320px, 50vw"
            cover = CardCover(
                image: picture(coverPhoto, coverImages, src: chosen, renditions: tileImages,
                               width: chosen.width, height: chosen.height, sizes: sizes, from: directory),
                loading: position < 8 ? "eager" : "lazy")
        }
        return AlbumCard(
            name: album.title,
            url: relativeURL(from: directory, to: album.directory + "index.html"),
            photoCount: totalPhotos(index),
            countLabel: albumCountLabel(index),
            cover: cover)
    }

    func tile(
        _ photo: Int, position: Int, wallIndex: Int, wall: AlbumWall, renderedCount: Int, sizes: String, directory: String
    ) -> Tile {
        let photoImages = published[photo]!.images
        let tileImages = photoImages.renditions.filter { $0.width <= tileImageLimit }
        let usable = tileImages.isEmpty ? [photoImages.renditions[0]] : tileImages
        let src = usable.first { $0.width >= 400 } ?? usable.last!
        let eager = wall.isInFirstRow(index: wallIndex)
        let isLive = plan.photos[photo].photo.motion != nil && photoImages.video != nil
        // A grouped album's section header comes before the section's first tile.
        let section = wall.section(startingAt: wallIndex).map { section in
            SectionHeader(label: wall.sections[section].label, index: section, start: position,
                          style: wall.sectionStyle(section, renderedCount: renderedCount))
        }
        return Tile(
            index: position,
            url: relativeURL(from: directory, to: plan.pagePath(photo: photo)),
            style: wall.tileStyle(index: wallIndex) + ";--bg:\(photoImages.color)",
            image: picture(photo, photoImages, src: src, renditions: usable,
                           width: photoImages.width, height: photoImages.height, sizes: sizes, from: directory),
            caption: plan.photos[photo].photo.caption ?? "",
            loading: eager ? "eager" : "lazy",
            isVideo: plan.photos[photo].photo.isVideo,
            duration: plan.photos[photo].photo.video.map { Duration.label($0.duration) } ?? "",
            isLive: isLive,
            // One name for the whole tile, as viewer.js's tileLabel writes it.
            label: plan.photos[photo].photo.video.map {
                theme.strings.text("viewer_video_label", ["duration": Duration.label($0.duration), "alt": altText(photo)])
            } ?? (isLive ? theme.strings.text("viewer_live_label", ["alt": altText(photo)]) : ""),
            section: section)
    }

    /// The page of the photo at `position` in album `index`, unless `unchanged(path, key)`
    /// says the page at `path` was made from the same inputs (`key`: a fingerprint of the
    /// page's variables and the theme) and need not be rendered again; then `contents` is nil.
    func photoPageFile(
        album index: Int, position: Int, unchanged: (String, String) -> Bool
    ) throws(SiteError) -> (path: String, key: String, contents: String?) {
        let photo = plan.albums[index].photos[position]
        let path = plan.pagePath(photo: photo)
        let (key, contents) = try render(photoContext(photo, position: position, in: index), at: path, unchanged: unchanged)
        return (path, key, contents)
    }

    /// The page at `path` made from `context`: its key (``fingerprint(_:)``) and its text, nil
    /// when `unchanged(path, key)` says the page there was made from the same and is kept.
    func render(
        _ context: some PageContext, at path: String, unchanged: (String, String) -> Bool
    ) throws(SiteError) -> (key: String, contents: String?) {
        // Converted once, for both the fingerprint and the template.
        let variables = context.mustache
        let key = fingerprint(variables)
        if unchanged(path, key) { return (key, nil) }
        return (key, try theme.render(type(of: context).template, variables))
    }

    /// What a page is made from: the theme and the page's variables (``PageContext/mustache``).
    func fingerprint(_ variables: [String: Any]) -> String {
        var hasher = FingerprintHasher()
        hasher.combine(context: variables)
        return theme.fingerprint + "-" + hasher.hex
    }

    private func photoContext(_ photo: Int, position: Int, in albumIndex: Int) -> PhotoPageContext {
        let album = plan.albums[albumIndex]
        let entry = plan.photos[photo]
        let photoImages = published[photo]!.images
        let title = photoTitle(photo)
        let date = entry.photo.date
        let large = photoImages.renditions.last { $0.width <= 1600 } ?? photoImages.renditions[0]
        let ratio = String(format: "%.4f", Double(photoImages.width) / Double(max(photoImages.height, 1)))
        let largeSizes = "(min-aspect-ratio: \(photoImages.width)/\(photoImages.height)) calc(\(ratio) * (100vh - 140px)), 100vw"
        let details = PhotoDetails(
            title: title,
            caption: entry.photo.caption,
            captionHTML: entry.photo.captionHTML,
            // The caption under the image, unless it is plain text all in the title above it.
            showCaption: entry.photo.captionHTML != nil || (entry.photo.caption.map { $0 != title } ?? false),
            date: date.map(dateText),
            isoDate: date?.iso8601,
            camera: cameraSummary(photo).entries.map { CameraSetting(name: cameraName($0.name), value: $0.value) },
            keywords: tagLinks(.tags, photo, from: album.directory),
            hasKeywords: !entry.photo.keywords.isEmpty,
            creator: entry.photo.creator,
            copyright: entry.photo.copyright,
            people: tagLinks(.people, photo, from: album.directory),
            places: tagLinks(.places, photo, from: album.directory),
            fileName: entry.photo.fileName,
            image: picture(photo, photoImages, src: large, renditions: photoImages.renditions,
                           width: photoImages.width, height: photoImages.height, sizes: largeSizes, from: album.directory),
            position: number(position + 1),
            count: number(album.photos.count),
            isVideo: entry.photo.isVideo,
            videoURL: photoImages.video.map { relativeURL(from: album.directory, to: $0.path) } ?? "",
            duration: entry.photo.video.map { Duration.label($0.duration) } ?? "",
            poster: relativeURL(from: album.directory, to: (photoImages.renditions.last ?? large).path),
            isLive: entry.photo.motion != nil && photoImages.video != nil,
            liveURL: entry.photo.motion == nil ? "" : photoImages.video.map { relativeURL(from: album.directory, to: $0.path) } ?? "")
        let albumPage = plan.albumPagePath(album: albumIndex, page: position / options.tilesPerPage + 1)
        let original = published[photo]?.original.map { original in
            OriginalDownload(
                url: relativeURL(from: album.directory, to: original.path),
                label: "\(number(entry.photo.info.displayWidth)) × \(number(entry.photo.info.displayHeight)), \(byteCount(original.size))",
                fileName: entry.photo.fileName)
        }
        func link(_ neighbour: Int) -> PageLink {
            PageLink(url: relativeURL(from: album.directory, to: plan.pagePath(photo: neighbour)), title: linkTitle(neighbour))
        }
        return PhotoPageContext(
            frame: frame(directory: album.directory, title: title,
                         ancestors: album.ancestors + [(album.title, album.directory)],
                         page: plan.pagePath(photo: photo), image: large.path, author: credit([photo])),
            photo: details,
            // Back to the photo's place: the album's page that holds its tile (`id="p<position>"`).
            album: AlbumLink(name: album.title, url: relativeURL(from: album.directory, to: albumPage) + "#p\(position)"),
            original: original,
            previous: position > 0 ? link(album.photos[position - 1]) : nil,
            next: position + 1 < album.photos.count ? link(album.photos[position + 1]) : nil)
    }

    /// Adds every indexed photo's document (``searchDocument(_:album:number:)``) and its words
    /// to `builder`, in site order, and returns the index's album titles (the documents' `album`
    /// numbers index them) and its albums as the catalog records them (``SearchIndexAlbum``; nil
    /// when one has no key). A hidden album's photos stay out, as they are out of the sitemap
    /// (``searchAlbums``).
    ///
    /// An album whose input key (`keys`, by album) `cached` has its photos' documents for is
    /// taken from there. The others' are made, 256 photos a task, `jobs` tasks at a time, and
    /// handed to `made` a few thousand at a time (each run with its album's key and the
    /// position of its first photo), to be kept for the next build: no more than that is held,
    /// however large an album. (With ``SiteOptions/verifyAlbumKeys`` an album's documents are
    /// made even when they are kept, and differing ones stop the program: an input the album's
    /// key misses is found.)
    func addSearchDocuments(
        to builder: inout SearchIndexBuilder, jobs: Int, keys: (Int) -> String?,
        cached: @escaping @Sendable (String) -> [(document: SearchDocument, words: [String])]?,
        made: ([SearchDocumentRun]) throws(SiteError) -> Void
    ) throws(SiteError) -> (titles: [String], albums: [SearchIndexAlbum]?) {
        let albums = searchAlbums
        let language = options.language
        var indexAlbums: [SearchIndexAlbum]? = []
        let batch = 256 * max(1, jobs)
        // The photos to make, in site order, and the albums they are of, in order, each with
        // its documents made and not yet handed on (all of them when they are to be compared
        // with kept ones).
        var queue: [(photo: Int, album: Int, number: Int)] = []
        var making: [(key: String?, remaining: Int, next: Int, run: [SearchDocumentRun.Entry], kept: [SearchDocumentRun.Entry]?,
                      words: SearchWordsKey)] = []
        var toKeep: [SearchDocumentRun] = []
        var toKeepCount = 0
        func makeQueued(_ builder: inout SearchIndexBuilder) throws(SiteError) {
            let photos = queue
            queue = []
            let results = parallelMap(indexRuns(photos.count, length: 256), jobs: jobs) { part in
                photos[part].map { searchEntry($0.photo, album: $0.album, number: $0.number) }
            }
            for result in results.joined() {
                builder.add(result.document, words: result.words)
                making[0].words.add(result.document, words: result.words)
                making[0].remaining -= 1
                let done = making[0].remaining == 0
                if let kept = making[0].kept {
                    making[0].run.append(result)
                    if done, !Self.same(kept, making[0].run) {
                        fatalError("search index: the documents kept for album key \(making[0].key ?? "") differ from those made (verifyAlbumKeys)")
                    }
                } else if let key = making[0].key {
                    making[0].run.append(result)
                    if done || making[0].run.count == Self.keptRunLength {
                        toKeep.append(SearchDocumentRun(album: key, first: making[0].next, entries: making[0].run))
                        toKeepCount += making[0].run.count
                        making[0].next += making[0].run.count
                        making[0].run = []
                    }
                }
                if done {
                    let album = making.removeFirst()
                    if let key = album.key {
                        indexAlbums?.append(SearchIndexAlbum(key: key, photos: album.next + album.run.count, words: album.words.hex))
                    } else {
                        indexAlbums = nil
                    }
                }
            }
            if toKeepCount >= 16_384 {
                try made(toKeep)
                (toKeep, toKeepCount) = ([], 0)
            }
        }
        // An album's kept documents are read from the catalog on another core while the album
        // before it is added to the index (reading and adding each take about half the step).
        let albumKeys = albums.map(keys)
        func read(_ number: Int) -> BackgroundWork<[(document: SearchDocument, words: [String])]?>? {
            guard albumKeys.indices.contains(number), let key = albumKeys[number] else { return nil }
            return BackgroundWork { cached(key) }
        }
        var reading = read(0)
        for (number, album) in albums.enumerated() {
            let key = albumKeys[number]
            let count = plan.albums[album].photos.count
            let kept = reading?.wait().flatMap { $0.count == count ? $0 : nil }
            reading = read(number + 1)
            if let kept, !options.verifyAlbumKeys {
                // (Queued photos come first in site order.)
                if !queue.isEmpty { try makeQueued(&builder) }
                for var entry in kept {
                    entry.document.album = number
                    builder.add(entry.document, words: entry.words)
                }
                indexAlbums?.append(SearchIndexAlbum(key: key!, photos: count, words: SearchWordsKey.of(kept, language: language)))
                continue
            }
            making.append((key, count, 0, [], kept, SearchWordsKey(language: language)))
            for photo in plan.albums[album].photos {
                queue.append((photo, album, number))
                if queue.count == batch { try makeQueued(&builder) }
            }
        }
        if !queue.isEmpty { try makeQueued(&builder) }
        try made(toKeep)
        return (albums.map { plan.albums[$0].title }, indexAlbums)
    }

    /// How many documents of an album are handed to the catalog at a time, at most.
    static let keptRunLength = 4096

    /// The photo `photo`'s search document (``searchDocument(_:album:number:)``) with its words.
    func searchEntry(_ photo: Int, album: Int, number: Int) -> SearchDocumentRun.Entry {
        let document = searchDocument(photo, album: album, number: number)
        return (document, SearchIndexBuilder.words(of: document))
    }

    /// The albums whose photos the search index holds, in site order: those shown, with photos.
    var searchAlbums: [Int] {
        plan.albums.indices.filter { !plan.albums[$0].hidden && !plan.albums[$0].photos.isEmpty }
    }

    /// Whether documents kept (their album's number 0, no texts) are those made.
    private static func same(_ kept: [SearchDocumentRun.Entry], _ made: [SearchDocumentRun.Entry]) -> Bool {
        kept.count == made.count && zip(kept, made).allSatisfy { kept, made in
            var document = kept.document
            (document.texts, document.album) = (made.document.texts, made.document.album)
            return document == made.document && kept.words == made.words
        }
    }

    /// What the search index holds of a photo of the album `albumIndex`, whose number among the
    /// index's albums is `number`: its result (its tile image, its title as its page's `h1`, its
    /// date as shown, and `open`, the address that opens it in its album's lightbox; paths from
    /// the site's root, URL-encoded), the text of its page that is indexed, and its filters: its
    /// year, its album, its camera (as its page shows it: none with `show_exif: false`), the
    /// people named in it and the parts of its place (with their tag pages on).
    func searchDocument(_ photo: Int, album albumIndex: Int, number: Int) -> SearchDocument {
        let entry = plan.photos[photo]
        let album = plan.albums[albumIndex]
        let images = published[photo]!.images
        let tileImages = images.renditions.filter { $0.width <= tileImageLimit }
        let usable = tileImages.isEmpty ? [images.renditions[0]] : tileImages
        let image = usable.first { $0.width >= 400 } ?? usable.last!
        let title = photoTitle(photo)
        let date = entry.photo.date.map(dateText) ?? ""
        let camera = cameraSummary(photo).entries
        let cameraName = camera.first(where: { $0.name == "Camera" })?.value
        var texts = [title]
        if let caption = entry.photo.caption { texts.append(caption) }
        texts += entry.photo.keywords + entry.photo.people + entry.photo.places
        texts += camera.filter { $0.name == "Camera" || $0.name == "Lens" }.map(\.value)
        texts += [album.title, date]

        var filters: [SearchFilter] = []
        if let date = entry.photo.date { filters.append(SearchFilter(name: "year", value: String(date.year))) }
        filters.append(SearchFilter(name: "album", value: album.title))
        if let cameraName { filters.append(SearchFilter(name: "camera", value: cameraName)) }
        // Each person named in it, and each part of its place ("Paris", "France").
        for (kind, key) in [(TagKind.people, "person"), (.places, "place")] where index(kind).enabled {
            for name in kind.names(of: entry.photo) { filters.append(SearchFilter(name: key, value: name)) }
        }
        return SearchDocument(
            open: URLPath.encode(path: album.directory + "index.html") + "#photo=" + URLPath.encode(path: entry.slug),
            image: URLPath.encode(path: image.path), width: image.width, height: image.height,
            title: title, album: number, date: date, texts: texts, filters: filters)
    }

    // MARK: - frames.json

    /// Photo `photo`'s placeholder colour in frame data: six hex digits (grey for a colour
    /// the record does not hold as `#rrggbb`).
    func placeholderHex(_ photo: Int) -> String {
        let hex = published[photo]!.images.color.dropFirst()
        return hex.count == 6 && hex.allSatisfy(\.isHexDigit) ? String(hex) : "808080"
    }

    /// An album's frame data (documented in docs/layout.md): `frames.json`, compact and complete
    /// for placing every tile (aspect ratios, each tile's column per breakpoint, photo ids),
    /// and the per-photo details in chunks `frames/N.json` that the viewer loads when their
    /// tiles come near the screen.
    func framesFiles(album index: Int, wall: AlbumWall) -> [(String, String?)] {
        let album = plan.albums[index]
        return framesFiles(directory: album.directory, photos: album.photos, wall: wall, imageURL: "thumbs/{id}-{width}.") { photo in
            URLPath.encode(segment: plan.photos[photo].slug)
        }
    }

    /// The frame data of a wall of `photos` whose page is in `directory`: each photo's id is
    /// `id(photo)`, and its images are at `imageURL` with `{id}` (or `{dir}` and `{name}`, the
    /// id up to and after its last `/`) and `{width}` filled in, and the format's extension after it.
    /// A chunk `keepChunk` says is as it was is not made: its contents are nil.
    /// `known`, when given, has a photo's id as JSON and its placeholder colour, worked out
    /// once for several walls (``WallPhotoText``); a photo it has no id for goes by `id`.
    func framesFiles(
        directory: String, photos: [Int], wall: AlbumWall, imageURL: String, keepChunk: (Int) -> Bool = { _ in false },
        known: WallPhotoText? = nil, id: (Int) -> String
    ) -> [(String, String?)] {
        let chunkSize = options.framesChunkSize
        let chunkCount = (photos.count + chunkSize - 1) / chunkSize
        var json = "{\"version\":3,\"count\":\(photos.count),\"gap\":\(options.gap)"
        json += ",\"ratioScale\":\(AlbumWall.ratioScale),\"staticCount\":\(min(photos.count, options.tilesPerPage))"
        json += ",\"pageURL\":\"{id}.html\",\"imageURL\":\(jsonString(imageURL + options.imageFormat.fileExtension))"
        json += ",\"sources\":[" + options.sourceFormats.map { format in
            "{\"type\":\(jsonString(format.mimeType)),\"imageURL\":\(jsonString(imageURL + format.fileExtension))}"
        }.joined(separator: ",") + "]"
        json += ",\"layout\":\"\(wall.isRows ? "rows" : "columns")\""
        json += ",\"tileMaxWidth\":\(tileImageLimit),\"chunkSize\":\(chunkSize),\"chunks\":["
        json += (0..<chunkCount).map { jsonString(SitePlan.framesChunkPath($0)) }.joined(separator: ",")
        json += "],\"breakpoints\":["
        for (position, entry) in wall.layouts.enumerated() {
            if position > 0 { json += "," }
            json += "{\"minWidth\":\(Int(entry.breakpoint.minWidth)),\"columns\":\(entry.columnCount)"
            json += ",\"referenceWidth\":\(AlbumWall.jsonNumber(entry.breakpoint.referenceWidth))"
            if let rows = wall.rowWall {
                json += ",\"contentHeight\":\(AlbumWall.jsonNumber(rows.contentHeights[position]))"
            } else {
                json += ",\"columnWidth\":\(AlbumWall.jsonNumber(entry.columnWidth))"
                json += ",\"contentHeight\":\(AlbumWall.jsonNumber(entry.contentHeight))"
            }
            if let rows = wall.rowWall {
                json += ",\"rowHeight\":\(rows.targets[position]),\"rows\":["
                json += rows.rowCounts(breakpoint: position).map(String.init).joined(separator: ",") + "]}"
            } else {
                json += ",\"column\":\"\(wall.columnString(breakpoint: position))\"}"
            }
        }
        // Sections of a grouped album (empty otherwise): each header's first item and text.
        json += "],\"headerHeight\":\(wall.isGrouped ? AlbumWall.sectionHeaderHeight : 0),\"sections\":["
        json += wall.sections.map { "{\"start\":\($0.start),\"label\":\(jsonString($0.label))}" }.joined(separator: ",")
        if let rows = wall.rowWall {
            // Each photo's layout ratio (width / height, clamped) in rows, times ratioScale.
            json += "],\"rowRatios\":["
            json += rows.ratioUnits.map(String.init).joined(separator: ",")
        }
        json += "],\"ratios\":["
        json += wall.ratioUnits.map(String.init).joined(separator: ",")
        json += "],\"ids\":["
        json += photos.map { photo in known?.ids[photo] ?? jsonString(id(photo)) }.joined(separator: ",")
        // Each photo's placeholder colour, six hex digits a photo: a tile shows it before its chunk loads.
        json += "],\"colors\":\""
        json += photos.map { photo in known?.colours[photo] ?? placeholderHex(photo) }.joined()
        json += "\"}\n"
        var files: [(String, String?)] = [(directory + "frames.json", json)]
        for chunk in 0..<chunkCount {
            if keepChunk(chunk) {
                files.append((directory + SitePlan.framesChunkPath(chunk), nil))
                continue
            }
            let range = (chunk * chunkSize)..<min((chunk + 1) * chunkSize, photos.count)
            var text = "{\"start\":\(range.lowerBound),\"items\":["
            text += range.map { position in
                let photo = photos[position]
                let photoImages = published[photo]!.images
                return "{\"alt\":\(jsonString(altText(photo))),\"width\":\(photoImages.width),\"height\":\(photoImages.height)"
                    + ",\"color\":\(jsonString(photoImages.color)),\"widths\":["
                    + photoImages.renditions.map { String($0.width) }.joined(separator: ",") + "]"
                    + lightboxDetails(photo, from: directory) + "}"
            }.joined(separator: ",")
            text += "]}\n"
            files.append((directory + SitePlan.framesChunkPath(chunk), text))
        }
        return files
    }

    // MARK: - Helpers

    /// The widest image a tile shows: the largest tile width.
    var tileImageLimit: Int { options.tileWidths.max() ?? 800 }

    /// The photo `photo`'s `<picture>` (its images are `photoImages`) on a page in `directory`:
    /// `src` in the `<img>`, `renditions` in its srcset and, at the same widths, in each further
    /// format's `<source>`; the page reserves `width` × `height` for it.
    private func picture(
        _ photo: Int, _ photoImages: PhotoImages, src: BuildManifest.RenditionRecord, renditions: [BuildManifest.RenditionRecord],
        width: Int, height: Int, sizes: String, from directory: String
    ) -> PictureImage {
        PictureImage(
            src: relativeURL(from: directory, to: src.path),
            srcset: srcset(renditions, from: directory),
            sizes: sizes,
            sources: pictureSources(photoImages, widths: renditions.map(\.width), sizes: sizes, from: directory),
            width: width, height: height,
            alt: altText(photo),
            color: photoImages.color)
    }

    private func srcset(_ renditions: [BuildManifest.RenditionRecord], from directory: String) -> String {
        renditions.map { "\(relativeURL(from: directory, to: $0.path)) \($0.width)w" }.joined(separator: ", ")
    }

    /// The `<source>` elements of a photo's `<picture>`: per further format (best first), its
    /// MIME type and the srcset of its images at `widths`; empty when the site has one format.
    private func pictureSources(_ photoImages: PhotoImages, widths: [Int], sizes: String, from directory: String) -> [PictureSource] {
        let chosen = Set(widths)
        return (photoImages.sources ?? []).map { source in
            // The same images as the <img>'s, at this format's paths.
            let images = zip(photoImages.renditions, source.paths).filter { chosen.contains($0.0.width) }.map { rendition, path in
                BuildManifest.RenditionRecord(width: rendition.width, height: rendition.height, path: path)
            }
            return PictureSource(type: source.type, srcset: srcset(images, from: directory), sizes: sizes)
        }
    }

    /// The lightbox's details of a photo in a chunk item (after its other fields): its title,
    /// its caption (as HTML when it is Markdown, else as text), its date for people and for `<time>`, and its
    /// original's address and label when originals are published.
    private func lightboxDetails(_ photo: Int, from directory: String) -> String {
        let entry = plan.photos[photo]
        var text = ",\"title\":\(jsonString(linkTitle(photo)))"
        // The caption as Markdown made HTML, else as plain text (a `.txt` file's, the
        // metadata's description): the alt text is the title first, so it is not the caption.
        if let html = entry.photo.captionHTML {
            text += ",\"captionHTML\":\(jsonString(html))"
        } else if let caption = entry.photo.caption {
            text += ",\"caption\":\(jsonString(caption))"
        }
        if let date = entry.photo.date {
            text += ",\"date\":\(jsonString(dateText(date))),\"isoDate\":\(jsonString(date.iso8601))"
        }
        if let video = published[photo]?.images.video, let info = entry.photo.video {
            text += ",\"video\":{\"url\":\(jsonString(relativeURL(from: directory, to: video.path)))"
            text += ",\"duration\":\(jsonString(Duration.label(info.duration)))}"
        } else if let clip = published[photo]?.images.video, entry.photo.motion != nil {
            text += ",\"live\":{\"url\":\(jsonString(relativeURL(from: directory, to: clip.path)))}"
        }
        let camera = cameraSummary(photo)
        if !camera.isEmpty {
            text += ",\"camera\":[" + camera.entries.map { jsonString($0.value) }.joined(separator: ",") + "]"
        }
        if let creator = entry.photo.creator { text += ",\"creator\":\(jsonString(creator))" }
        if let copyright = entry.photo.copyright { text += ",\"copyright\":\(jsonString(copyright))" }
        for kind in [TagKind.people, .places] where index(kind).enabled {
            let names = kind.names(of: entry.photo)
            if !names.isEmpty { text += ",\"\(kind.rawValue)\":[" + names.map(jsonString).joined(separator: ",") + "]" }
        }
        if let original = published[photo]?.original {
            text += ",\"original\":{\"url\":\(jsonString(relativeURL(from: directory, to: original.path)))"
            text += ",\"fileName\":\(jsonString(entry.photo.fileName))"
            text += ",\"label\":\(jsonString("\(number(entry.photo.info.displayWidth)) × \(number(entry.photo.info.displayHeight)), \(byteCount(original.size))"))}"
        }
        return text
    }

    /// A photo's camera settings as shown, or none with `show_exif: false`.
    private func cameraSummary(_ photo: Int) -> CameraSummary {
        CameraSummary(options.showExif ? plan.photos[photo].photo.metadata.camera : nil) { theme.strings.text("camera_in_35mm", ["focal": String($0)]) }
    }

    /// A photo's title (its page's heading, `<title>`, `og:title` and breadcrumb, and so its
    /// search result): ``linkTitle(_:)``, never a camera's file name.
    private func photoTitle(_ photo: Int) -> String {
        linkTitle(photo)
    }

    /// The title of a link to a photo (previous, next) and of the lightbox: ``describedTitle(_:)``,
    /// else ``plainName(_:)``.
    func linkTitle(_ photo: Int) -> String {
        describedTitle(photo) ?? plainName(photo)
    }

    /// A photo's name when it has no title or caption: its file name without extension, unless
    /// a camera gave it (``GalleryPhoto/hasCameraName``): then ``genericName(_:)``.
    func plainName(_ photo: Int) -> String {
        plan.photos[photo].photo.hasCameraName ? genericName(photo) : plan.photos[photo].photo.stem
    }

    /// "Photo 3 of Holidays" ("Video 3 of Holidays"): a photo named by its place in its album.
    func genericName(_ photo: Int) -> String {
        let parts = genericNameParts(photo)
        return theme.strings.text(parts.isVideo ? "video_generic_name" : "photo_generic_name",
                                  ["position": number(parts.position), "album": parts.album])
    }

    /// What ``genericName(_:)`` fills the theme's text with: an input key feeds these (the
    /// texts and the language are in the site's key) rather than make the name of every photo.
    func genericNameParts(_ photo: Int) -> (isVideo: Bool, position: Int, album: String) {
        let entry = plan.photos[photo]
        return (entry.photo.isVideo, positions[photo] + 1, plan.albums[entry.album].title)
    }

    /// The title a photo tool gave it (XMP `dc:title`, IPTC Object Name), else its caption's
    /// first line, cut at a word to at most about 80 characters; nil when it has neither.
    private func describedTitle(_ photo: Int) -> String? {
        if let title = plan.photos[photo].photo.metadataTitle { return title }
        guard let caption = plan.photos[photo].photo.caption else { return nil }
        let firstLine = caption.split(whereSeparator: \.isNewline).first.map(String.init) ?? caption
        let words = firstLine.split(whereSeparator: \.isWhitespace)
        var title = ""
        for word in words {
            if title.count + word.count + 1 > 80 {
                if title.isEmpty { title = String(word.prefix(79)) }
                return title + "…"
            }
            title += (title.isEmpty ? "" : " ") + word
        }
        return title.isEmpty ? nil : title
    }

    /// An album's count: its own items, and those of its albums when it has any, so that it
    /// agrees with the "2 / 5" of its photos' pages; videos counted as such ("2 photos, 1 video").
    func albumCountLabel(_ index: Int) -> String {
        let own = itemCounts(plan.albums[index].photos)
        let total = totalCounts(index)
        if own == total { return countLabel(own) }
        let strings = theme.strings
        if own == (0, 0) { return strings.count("album_count_in_albums", total.photos + total.videos, ["photos": countLabel(total)]) }
        if own.videos == 0 && total.videos == 0 { return strings.count("album_count_with_albums", total.photos, ["photos": countLabel(own)]) }
        return strings.text("album_count_with_albums_mixed", ["photos": countLabel(own), "total": countLabel(total)])
    }

    /// The alternative text of a photo's image: its title, else its caption, else
    /// ``plainName(_:)`` (never a camera's file name, which says nothing of the picture).
    /// The lightbox takes the caption from the chunk item's own `caption`, not from this.
    func altText(_ photo: Int) -> String {
        plan.photos[photo].photo.metadataTitle ?? plan.photos[photo].photo.caption ?? plainName(photo)
    }

    func cover(of index: Int) -> Int? {
        plan.albums[index].coverPhoto ?? plan.albums[index].photos.first
            ?? plan.albums[index].listed.lazy.compactMap { cover(of: $0) }.first
    }

    /// "5.2 MB", "830 KB".
    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return "\(max(1, (bytes + 500) / 1000)) KB"
    }

    /// "Album (page 2 of 5)", in the site's language.
    func pageTitle(_ title: String, page: Int, of pageCount: Int) -> String {
        theme.strings.text("page_title", ["title": title, "page": number(page), "pages": number(pageCount)])
    }

    /// A whole number as the site's language writes it.
    func number(_ value: Int) -> String { theme.strings.number(value) }

    /// A capture date as `date_format` shows it, with the language's month and day names; the
    /// language's own `date_format` (its strings file) unless `cascade.yml` sets one.
    func dateText(_ date: GalleryDate) -> String {
        dateFormat.string(date, names: theme.strings.names)
    }

    /// A camera setting's name ("Focal length") in the site's language: key `camera_focal_length`.
    func cameraName(_ name: String) -> String {
        let key = "camera_" + name.lowercased().replacingOccurrences(of: " ", with: "_")
        return theme.strings.texts[key] ?? name
    }

    /// "5.2 MB", "830 KB", in the site's language ("5,2 Mo").
    func byteCount(_ bytes: Int) -> String {
        guard !theme.strings.language.isEnglish else { return Self.byteCount(bytes) }
        if bytes >= 1_000_000 {
            let formatter = NumberFormatter()
            formatter.locale = theme.strings.language.locale
            formatter.minimumFractionDigits = 1
            formatter.maximumFractionDigits = 1
            formatter.minimumIntegerDigits = 1
            let size = formatter.string(from: NSNumber(value: Double(bytes) / 1_000_000)) ?? String(format: "%.1f", Double(bytes) / 1_000_000)
            return theme.strings.text("size_mb", ["size": size])
        }
        return theme.strings.text("size_kb", ["size": number(max(1, (bytes + 500) / 1000))])
    }

    /// "3 photos", "2 photos, 1 video", "1 video": the photos (Live Photos among them) and
    /// videos, in the site's language.
    func countLabel(_ counts: (photos: Int, videos: Int)) -> String {
        Self.countLabel(counts, strings: theme.strings)
    }

    /// ``countLabel(_:)`` in the language of `strings`: `photo_count`, `video_count`, and both
    /// by `photo_video_count`.
    static func countLabel(_ counts: (photos: Int, videos: Int), strings: SiteStrings) -> String {
        let photos = strings.count("photo_count", counts.photos)
        guard counts.videos > 0 else { return photos }
        let videos = strings.count("video_count", counts.videos)
        return counts.photos == 0 ? videos : strings.text("photo_video_count", ["photos": photos, "videos": videos])
    }

    /// The photos and videos among `photos`.
    func itemCounts(_ photos: [Int]) -> (photos: Int, videos: Int) {
        let videos = photos.reduce(0) { $0 + (plan.photos[$1].photo.isVideo ? 1 : 0) }
        return (photos.count - videos, videos)
    }

    /// ``countLabel(_:)`` of `photos`.
    func itemCountLabel(_ photos: [Int]) -> String {
        countLabel(itemCounts(photos))
    }

    /// The photos and videos of an album and all albums below it.
    func totalCounts(_ index: Int) -> (photos: Int, videos: Int) {
        plan.albums[index].albums.reduce(itemCounts(plan.albums[index].photos)) {
            let child = totalCounts($1)
            return ($0.photos + child.photos, $0.videos + child.videos)
        }
    }

    func totalPhotos(_ index: Int) -> Int {
        plan.albums[index].photos.count + plan.albums[index].albums.reduce(0) { $0 + totalPhotos($1) }
    }
}
