import Foundation
import Video
import Imaging
import Support

/// The fingerprint of everything an album's files (its pages, its photos' pages, its frame
/// data) are made from, cheap enough to compute for every album of a large library on every
/// build: when it is what the catalog recorded and the files are there, none of them is
/// rendered again. Page fingerprints (``PageRenderer``) stay the finer check for an album that
/// did change.
///
/// It is fed the site's key (the theme's fingerprint and every option but those that cannot
/// change a page), the album's own fields, the cards of its listed sub-albums, and each photo in
/// order (neighbours show on photo pages): its place, its content hash (everything read from
/// the file), its caption, its XMP sidecar's fields, its images and its original.
///
/// With ``SiteOptions/verifyAlbumKeys`` (a test hook; `CASCADE_VERIFY_ALBUM_KEYS=1` in the
/// environment sets it) an album whose key is unchanged is rendered anyway, and a file of it
/// that comes out different stops the program: an input the key misses is found by any such
/// test that changes it.
extension PageRenderer {
    /// The part of every album's key that is the same for the whole site.
    var siteKey: String {
        var pageOptions = options
        pageOptions.sourceDirectory = ""
        pageOptions.outputDirectory = ""
        pageOptions.jobs = 0
        pageOptions.catalogPath = nil
        pageOptions.waitForLock = true
        pageOptions.verifyAlbumKeys = false
        pageOptions.sitemapLimits = .sitemaps  // (no page names the sitemap)
        pageOptions.sidecarSettling = 2  // (no page shows it)
        // (Whether the site has search shapes a page as the search folder below does.)
        pageOptions.search = false
        var hasher = FingerprintHasher()
        hasher.combine(theme.fingerprint)
        hasher.combine(String(reflecting: pageOptions))
        for index in indexes {  // every page's footer links to the lists of tags, people, places
            hasher.combine(index.isEmpty ? "no " + index.kind.rawValue : index.kind.rawValue)
        }
        hasher.combine(plan.assetsFolder)  // every page links to the theme's assets
        hasher.combine(plan.feedPath)  // and to the feed
        hasher.combine(plan.searchFolder ?? "no search")  // and to the search index
        return hasher.hex
    }

    /// The key of the album `index`, given ``siteKey``.
    func inputKey(album index: Int, siteKey: String) -> String {
        var hasher = FingerprintHasher()
        hasher.combine(siteKey)
        let album = plan.albums[index]
        hasher.combine(album.directory)
        hasher.combine(album.title)
        hasher.combine(album.descriptionHTML ?? "\u{0}")
        hasher.combine(album.hidden ? "hidden" : "shown")
        hasher.combine("group=" + album.group.rawValue + ";layout=" + album.layout.rawValue)
        hasher.combine(String(index == 0))
        for ancestor in album.ancestors {
            hasher.combine(ancestor.name)
            hasher.combine(ancestor.directory)
        }
        hasher.combine(countLabel(totalCounts(index)))
        feed(cover(of: index), into: &hasher)
        hasher.combine(String(album.listed.count))
        for child in album.listed {
            hasher.combine(plan.albums[child].title)
            hasher.combine(plan.albums[child].directory)
            hasher.combine(countLabel(totalCounts(child)))
            feed(cover(of: child), into: &hasher)
        }
        hasher.combine(String(album.photos.count))
        for photo in album.photos { feed(photo, into: &hasher) }
        return "album-" + hasher.hex
    }

    /// The part of its walls' keys of each photo of `numbers` (``photos(onAnyOf:)`` of
    /// ``indexWalls``: the tags', people's and places'), by the photo's number (0 for a photo on
    /// none), worked out once, on every core: a photo is on several walls (a library of 100,000
    /// photos on the same five tags fed each five times).
    func tagPhotoValues(of numbers: [Int], jobs: Int) -> [UInt64] {
        var values = [UInt64](repeating: 0, count: plan.photos.count)
        for (photo, value) in zip(numbers, parallelMap(numbers, jobs: jobs, photoValue)) { values[photo] = value }
        return values
    }

    /// Photo `index`'s part of the keys of the walls it is on: what an album's key is fed of it.
    private func photoValue(_ index: Int) -> UInt64 {
        var hasher = FingerprintHasher()
        feed(index, into: &hasher)
        return hasher.value
    }

    /// The keys of entry `index` of `tags` (a tag's, a person's, a place's pages and frame
    /// data), given ``siteKey`` and ``tagPhotoValues(of:jobs:)``: the whole wall's, from its name,
    /// slug and each of its photos as an album's key feeds them; and one per chunk of its frame
    /// data and per static page after the first, each from the photos it shows (a tag of a large
    /// library has hundreds: when one photo changed, a wall makes again only those whose key
    /// changed). `summary` is the wall's ``tagWallSummary(_:of:facts:)``.
    func tagWallKeys(_ index: Int, of tags: TagIndex, siteKey: String, photoValues: [UInt64], summary: TagWallSummary) -> TagWallKeys {
        let tag = tags.tags[index]
        let photos = tag.photos.map { photoValues[$0] }
        // What every key of the wall is made from: the site's, the tag and its number of photos.
        var base = FingerprintHasher()
        base.combine(siteKey)
        base.combine(tags.kind.rawValue)
        base.combine(tag.name)
        base.combine(tag.slug)
        base.combine(String(photos.count))
        var wall = base
        for photo in photos { wall.combine(value: photo) }
        // A chunk shows its photos' details, with links relative to the wall's folder.
        let chunkSize = options.framesChunkSize
        let chunks = stride(from: 0, to: photos.count, by: chunkSize).map { start in
            var hasher = FingerprintHasher()
            hasher.combine(siteKey)
            hasher.combine(tags.directory(index))
            hasher.combine(String(start))
            for photo in photos[start..<min(start + chunkSize, photos.count)] { hasher.combine(value: photo) }
            return hasher.hex
        }
        // A static page after the first is a wall of its own photos, under the whole wall's
        // title, count, credit and cover (its first photo), with links to the other pages.
        let perPage = options.tilesPerPage
        let pageCount = SitePlan.pageCount(photos: photos.count, perPage: perPage)
        let shared: UInt64 = {
            var hasher = base
            hasher.combine(String(pageCount))
            hasher.combine(summary.countLabel)
            hasher.combine(summary.credit ?? "\u{0}")
            hasher.combine(value: photos.first ?? 0)
            return hasher.value
        }()
        let pages: [String] = pageCount < 2 ? [] : (2...pageCount).map { page in
            var hasher = FingerprintHasher()
            hasher.combine(value: shared)
            hasher.combine(String(page))
            for photo in photos[((page - 1) * perPage)..<min(page * perPage, photos.count)] { hasher.combine(value: photo) }
            return hasher.hex
        }
        return TagWallKeys(wall: "tag-" + wall.hex, chunks: chunks, pages: pages)
    }

    /// An XMP sidecar's fields, each with a mark for "none" (`String(reflecting:)` would do,
    /// at many times the cost: this runs for every photo of every album and tag on every build).
    private func feed(_ sidecar: XMPMetadata?, into hasher: inout FingerprintHasher) {
        guard let sidecar else {
            hasher.combine("no sidecar")
            return
        }
        for text in [sidecar.title, sidecar.description, sidecar.dateTaken, sidecar.creator, sidecar.rating.map(String.init)] {
            hasher.combine(text ?? "\u{0}")
        }
        for list in [sidecar.keywords, sidecar.people] {
            hasher.combine(String(list?.count ?? -1))
            for name in list ?? [] { hasher.combine(name) }
        }
        for text in [sidecar.rights, sidecar.sublocation, sidecar.city, sidecar.state, sidecar.country] {
            hasher.combine(text ?? "\u{0}")
        }
    }

    private func feed(_ index: Int?, into hasher: inout FingerprintHasher) {
        guard let index, let published = published[index] else {
            hasher.combine("\u{0}")
            return
        }
        hasher.combine(published.planned.slug)
        hasher.combine(published.planned.directory)
        let photo = published.photo
        hasher.combine(photo.relativePath)
        hasher.combine(photo.fileName)
        hasher.combine(photo.captionText ?? "\u{0}")
        hasher.combine(photo.captionHTML ?? "\u{0}")
        // The sidecar is not part of the photo's file: what it says is fed here (what the
        // file itself says is in its content hash).
        feed(photo.sidecar, into: &hasher)
        // The zone a UTC date is shown in comes from the album's other items.
        hasher.combine(photo.localZone.map(String.init) ?? "\u{0}")
        // Its links to tag (people's, places') pages, whose slugs depend on the whole site's
        // keywords (names, places); the number in its generic name ("Photo 3 of Holidays").
        for tags in indexes {
            hasher.combine(tags.kind.rawValue)
            for tag in tags.tagsOfPhoto[index] ?? [] {
                hasher.combine(tags.tags[tag].name)
                hasher.combine(tags.tags[tag].slug)
            }
        }
        let generic = genericNameParts(index)
        hasher.combine("\(generic.isVideo ? "video" : "photo") \(generic.position)")
        hasher.combine(generic.album)
        let images = published.images
        hasher.combine(images.contentHash)
        hasher.combine(String(images.probeVersion ?? -1))
        hasher.combine("\(images.width)x\(images.height)\(images.color)")
        for rendition in images.renditions {
            hasher.combine("\(rendition.width)x\(rendition.height)")
            hasher.combine(rendition.path)
        }
        for source in images.sources ?? [] {
            hasher.combine(source.type)
            for path in source.paths { hasher.combine(path) }
        }
        // A video's web version, or a Live Photo's motion clip (a clip added beside a photo
        // changes the photo's item, not its content hash).
        if let video = images.video {
            hasher.combine(video.path)
            hasher.combine(video.sourceHash ?? "\u{0}")
            hasher.combine(video.probe.map { Duration.label($0.duration) } ?? "\u{0}")
            // (Its date: a probe made again by a newer VideoProbe reads more of it.)
            hasher.combine(video.probe?.creationDate ?? "\u{0}")
        } else {
            hasher.combine("\u{0}")
        }
        if let original = published.original {
            hasher.combine(original.path)
            hasher.combine(String(original.size))
        } else {
            hasher.combine("\u{0}")
        }
    }
}

/// The keys of a tag's wall (``PageRenderer/tagWallKeys(_:of:siteKey:photoValues:summary:)``), kept in the catalog
/// as one text under the wall's `frames.json`: the wall's key, its chunks' and its pages'.
struct TagWallKeys: Sendable, Equatable {
    var wall: String
    /// Per chunk of the frame data, in order.
    var chunks: [String]
    /// Per static page from the second, in order.
    var pages: [String]

    /// As the catalog keeps it.
    var recorded: String {
        wall + ";" + chunks.joined(separator: ",") + ";" + pages.joined(separator: ",")
    }

    /// The keys `recorded` holds; nil for another text (a key an earlier version recorded).
    init?(recorded: String) {
        let parts = recorded.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        wall = String(parts[0])
        chunks = parts[1].isEmpty ? [] : parts[1].split(separator: ",").map(String.init)
        pages = parts[2].isEmpty ? [] : parts[2].split(separator: ",").map(String.init)
    }

    init(wall: String, chunks: [String], pages: [String]) {
        (self.wall, self.chunks, self.pages) = (wall, chunks, pages)
    }
}
