import Gallery
import Support

/// What a tag wall's files are checked against: the earlier build's page keys (and the tag
/// walls' keys, under their `frames.json`), and whether a file of the output folder is there.
struct TagWallFilesEarlier: Sendable {
    var keys: [String: String]
    var exists: @Sendable (String) -> Bool
}

/// A file of a tag's wall (``PageRenderer/tagWallFiles(_:of:earlier:unchanged:)``): its page key
/// (pages only), its contents (nil when it need not be written), and whether its key said it
/// is as the earlier build made it.
struct TagWallFile: Sendable {
    var path: String
    var key: String?
    var contents: String?
    var keptByKey: Bool
}

/// What a tag's wall says of all its photos together, on each of its pages and in the list of
/// entries: how many photos and videos, and whom they are by. Worked out once per wall, for its
/// keys, its pages and the list: each goes through all the wall's photos, as many as a large
/// library's.
struct TagWallSummary: Sendable {
    var countLabel: String
    var credit: String?
}

/// What the summaries of the walls of the site's indexes (``TagWallSummary``) take of each
/// photo, worked out once for all of them (each summary goes through all its wall's photos, and
/// a photo is on many walls): whether it is a video, and whom it is by (its creator, else the
/// site's author) as a number into ``names``, by the photo's number.
struct WallPhotoFacts: Sendable {
    var isVideo: [Bool]
    /// -1 for a photo by nobody known.
    var name: [Int32]
    var names: [String] = []
}

/// What the frame data of the walls of one index (``TagIndex``) writes of each photo, worked out
/// once for all the walls that are made again (a photo is on many of them: all of a large
/// library's photos may be on the same five tags): its id, as JSON, and its placeholder colour,
/// by the photo's number.
struct WallPhotoText: Sendable {
    /// A photo's id from any wall's folder `<kind>/<slug>/`, as JSON; nil for a photo whose page
    /// is under `<kind>/` (in an album of that name), whose id then depends on the wall.
    var ids: [String?]
    var colours: [String?]
}

/// The index pages (see ``TagIndex``): each entry's wall (a tag's, a person's, a place's), made
/// by the same engine, template (`album.mustache`) and viewer as an album's, over photos of
/// several albums, and the list of all entries (`tags.mustache`, for every kind).
extension PageRenderer {
    /// The index of `kind`.
    func index(_ kind: TagKind) -> TagIndex {
        indexes.first { $0.kind == kind }!
    }

    /// The tags (``TagKind/tags``).
    var tags: TagIndex { index(.tags) }

    /// The numbers of the photos on any of `walls` (each a wall's photos), each once, in order.
    func photos(onAnyOf walls: some Sequence<[Int]>) -> [Int] {
        var onWall = [Bool](repeating: false, count: plan.photos.count)
        for wall in walls {
            for photo in wall { onWall[photo] = true }
        }
        return onWall.indices.filter { onWall[$0] }
    }

    /// The photos of every entry of ``indexes`` (``TagIndex/Tag/photos``).
    var indexWalls: some Sequence<[Int]> {
        indexes.lazy.flatMap { $0.tags.lazy.map(\.photos) }
    }

    /// ``WallPhotoFacts`` of `photos` (``photos(onAnyOf:)`` of ``indexWalls``), on every core.
    func wallPhotoFacts(of photos: [Int], jobs: Int) -> WallPhotoFacts {
        let read = parallelMap(photos, jobs: jobs) { [self] photo in
            (isVideo: plan.photos[photo].photo.isVideo, name: creditName(creator: plan.photos[photo].photo.creator))
        }
        var facts = WallPhotoFacts(isVideo: Array(repeating: false, count: plan.photos.count),
                                   name: Array(repeating: -1, count: plan.photos.count))
        var numbers: [String: Int32] = [:]
        for (photo, fact) in zip(photos, read) {
            facts.isVideo[photo] = fact.isVideo
            guard let name = fact.name else { continue }
            if let number = numbers[name] {
                facts.name[photo] = number
            } else {
                numbers[name] = Int32(facts.names.count)
                facts.name[photo] = Int32(facts.names.count)
                facts.names.append(name)
            }
        }
        return facts
    }

    /// The summary of entry `entry` of `index`'s wall (what ``itemCountLabel(_:)`` and
    /// ``credit(_:)`` of its photos say), from `facts` (``wallPhotoFacts(of:jobs:)``).
    func tagWallSummary(_ entry: Int, of index: TagIndex, facts: WallPhotoFacts) -> TagWallSummary {
        let photos = index.tags[entry].photos
        var videos = 0
        var names: [String] = []
        var seen = Set<Int32>()
        for photo in photos {
            if facts.isVideo[photo] { videos += 1 }
            let name = facts.name[photo]
            if name >= 0, seen.insert(name).inserted { names.append(facts.names[Int(name)]) }
        }
        return TagWallSummary(countLabel: countLabel((photos.count - videos, videos)), credit: credit(names: names, ofNoPhoto: photos.isEmpty))
    }

    /// The pages and frame data of the entries `entries` of `index`, each with its keys and its
    /// summary (see ``tagWallFiles(_:of:keys:summary:earlier:unchanged:known:)``).
    func tagWallFiles(
        _ entries: [(entry: Int, keys: TagWallKeys, summary: TagWallSummary)], of index: TagIndex, earlier: TagWallFilesEarlier,
        unchanged: @Sendable (String, String) -> Bool
    ) throws(SiteError) -> [TagWallFile] {
        let renderer = self
        let known = entries.count > 1 ? wallPhotoText(entries.map(\.entry), of: index) : nil
        return try parallelMap(entries, jobs: jobs) { entry throws(SiteError) -> [TagWallFile] in
            try renderer.tagWallFiles(entry.entry, of: index, keys: entry.keys, summary: entry.summary, earlier: earlier,
                                      unchanged: unchanged, known: known)
        }.flatMap { $0 }
    }

    /// ``WallPhotoText`` of the photos of `index`'s entries `entries`, on every core.
    private func wallPhotoText(_ entries: [Int], of index: TagIndex) -> WallPhotoText {
        let photos = photos(onAnyOf: entries.lazy.map { index.tags[$0].photos })
        // (An id does not depend on which wall of the index it is written for, when the photo's
        // page shares no folder with the walls' (relativeURL): any wall's folder gives it.)
        let folder = index.directory(entries[0])
        let texts = parallelMap(photos, jobs: jobs) { [self] photo -> (id: String?, colour: String) in
            let target = plan.photos[photo].directory + plan.photos[photo].slug
            let id = target.hasPrefix(index.folder) ? nil : jsonString(relativeURL(from: folder, to: target))
            return (id, placeholderHex(photo))
        }
        var text = WallPhotoText(ids: Array(repeating: nil, count: plan.photos.count), colours: Array(repeating: nil, count: plan.photos.count))
        for (photo, made) in zip(photos, texts) {
            text.ids[photo] = made.id
            text.colours[photo] = made.colour
        }
        return text
    }

    /// The list of `index`'s entries, each with its count (`countLabels`, by entry), unless
    /// `unchanged(path, key)` says it need not be rendered again.
    func tagListFile(
        _ index: TagIndex, countLabels: [String], unchanged: (String, String) -> Bool
    ) throws(SiteError) -> (path: String, key: String, contents: String?) {
        let (key, contents) = try render(tagListContext(index, countLabels: countLabels), at: index.indexPath, unchanged: unchanged)
        return (index.indexPath, key, contents)
    }

    /// One entry's static pages (500 tiles a page, as an album's) and frame data. A static
    /// page after the first and a chunk of the frame data whose key (`keys`) is the one the
    /// earlier build recorded, and whose file is there, is not made again: its contents are nil.
    /// (With ``SiteOptions/verifyAlbumKeys`` they are made, marked `keptByKey`: one that comes
    /// out different from its file stops the program when it is written.)
    private func tagWallFiles(
        _ entry: Int, of index: TagIndex, keys: TagWallKeys, summary: TagWallSummary, earlier: TagWallFilesEarlier,
        unchanged: (String, String) -> Bool, known: WallPhotoText?
    ) throws(SiteError) -> [TagWallFile] {
        let tag = index.tags[entry]
        let directory = index.directory(entry)
        let recorded = earlier.keys[directory + "frames.json"].flatMap(TagWallKeys.init(recorded:))
        let verify = options.verifyAlbumKeys
        /// Whether the file at `path`, whose own key is `key`, is as the earlier build made it.
        func kept(_ path: String, _ key: String, in recordedKeys: [String]?, at position: Int) -> Bool {
            guard let recordedKeys, recordedKeys.indices.contains(position), recordedKeys[position] == key else { return false }
            return earlier.exists(path)
        }
        let wall = try makeWall(tag.photos, group: .none, layout: .columns)
        let pageCount = SitePlan.pageCount(photos: tag.photos.count, perPage: options.tilesPerPage)
        var files: [TagWallFile] = []
        for page in 1...pageCount {
            let path = index.pagePath(entry, page: page)
            let keptPage = page > 1 && kept(path, keys.pages[page - 2], in: recorded?.pages, at: page - 2)
            if keptPage, !verify, let key = earlier.keys[path] {
                files.append(TagWallFile(path: path, key: key, contents: nil, keptByKey: true))
                continue
            }
            let context = try tagPageContext(entry, of: index, page: page, pageCount: pageCount, wall: wall, summary: summary)
            let (key, contents) = try render(context, at: path, unchanged: verify ? { _, _ in false } : unchanged)
            files.append(TagWallFile(path: path, key: key, contents: contents, keptByKey: keptPage))
        }
        let chunkKept = { (chunk: Int) in
            kept(directory + SitePlan.framesChunkPath(chunk), keys.chunks[chunk], in: recorded?.chunks, at: chunk)
        }
        let frames = framesFiles(directory: directory, photos: tag.photos, wall: wall, imageURL: "{dir}thumbs/{name}-{width}.",
                                 keepChunk: verify ? { _ in false } : chunkKept, known: known) { photo in
            relativeURL(from: directory, to: plan.photos[photo].directory + plan.photos[photo].slug)
        }
        // (`frames.json` first, then the chunks in order.)
        for (position, (path, contents)) in frames.enumerated() {
            files.append(TagWallFile(path: path, key: nil, contents: contents, keptByKey: position > 0 && chunkKept(position - 1)))
        }
        return files
    }

    private func tagPageContext(
        _ entry: Int, of index: TagIndex, page: Int, pageCount: Int, wall: AlbumWall, summary: TagWallSummary
    ) throws(SiteError) -> AlbumPageContext {
        let tag = index.tags[entry]
        let photos = tag.photos
        let directory = page == 1 ? index.directory(entry) : index.directory(entry) + "pages/"
        let range = ((page - 1) * options.tilesPerPage)..<min(page * options.tilesPerPage, photos.count)
        let pageWall = page == 1 ? wall : try makeWall(Array(photos[range]), group: .none, layout: .columns)
        let title = page == 1 ? tag.name : pageTitle(tag.name, page: page, of: pageCount)
        let sizes = pageWall.sizesAttribute(pagePadding: options.pagePadding)
        return AlbumPageContext(
            frame: frame(directory: directory, title: title, ancestors: [(options.title, ""), (theme.strings.text(index.kind.titleKey), index.folder)],
                         page: index.pagePath(entry, page: page), image: coverImage(photo: photos.first), author: summary.credit),
            album: AlbumSummary(
                name: tag.name, descriptionHTML: nil, photoCount: photos.count, totalPhotoCount: photos.count,
                countLabel: summary.countLabel, isRoot: false, isTag: true),
            albums: [],
            hasPhotos: true,
            isEmpty: false,
            wallCSS: page == 1 ? wall.css(renderedCount: range.count) : pageWall.css(),
            framesURL: page == 1 ? "frames.json" : "../frames.json",
            wallIsSlice: page > 1,
            wallIsGrouped: nil,
            wallIsRows: nil,
            slideshowInterval: options.slideshowInterval,
            lightboxThumbnails: options.lightboxThumbnails,
            tiles: range.map { position in
                tile(photos[position], position: position, wallIndex: position - range.lowerBound, wall: pageWall, renderedCount: range.count, sizes: sizes, directory: directory)
            },
            pagination: pageCount > 1 ? pagination(page: page, pageCount: pageCount, from: directory) { index.pagePath(entry, page: $0) } : nil)
    }

    private func tagListContext(_ index: TagIndex, countLabels: [String]) -> TagListContext {
        TagListContext(
            frame: frame(directory: index.folder, title: theme.strings.text(index.kind.titleKey), ancestors: [(options.title, "")], page: index.indexPath, image: nil),
            tags: index.tags.indices.map { entry in
                let tag = index.tags[entry]
                return TagListEntry(name: tag.name, url: relativeURL(from: index.folder, to: index.pagePath(entry, page: 1)),
                                    count: number(tag.photos.count), countLabel: countLabels[entry])
            })
    }

    /// The entries of `kind` a photo is under, for its page: each with the URL of its page from
    /// the album `directory` when the photo is on it (not for photos of hidden albums).
    func tagLinks(_ kind: TagKind, _ photo: Int, from directory: String) -> [TagLink] {
        let index = index(kind)
        guard index.enabled else { return [] }
        let names = kind.names(of: plan.photos[photo].photo)
        guard let tagged = index.tagsOfPhoto[photo] else { return names.map { TagLink(name: $0, url: nil) } }
        return tagged.map { entry in
            TagLink(name: index.tags[entry].name, url: relativeURL(from: directory, to: index.pagePath(entry, page: 1)))
        }
    }
}
