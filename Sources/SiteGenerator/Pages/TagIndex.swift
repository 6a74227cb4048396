import Gallery
import GalleryConfig

/// What an index of the site's photos groups them by (see ``TagIndex``): the keywords (tags),
/// the people of named face regions, or the places the photographer wrote.
enum TagKind: String, Sendable, CaseIterable {
    case tags, people, places

    /// The folder of its pages (at the site's root: an album there gets another slug).
    var folder: String { rawValue + "/" }
    /// The page listing every entry.
    var indexPath: String { folder + "index.html" }
    /// The key of the list page's title, and of its link's text in every page's footer, in the
    /// strings files (`tags`, `people`, `places`).
    var titleKey: String { rawValue }
    /// The slug of an entry whose name has no letter or digit to make one of.
    var fallbackSlug: String {
        switch self {
        case .tags: "tag"
        case .people: "person"
        case .places: "place"
        }
    }

    /// The entries `photo` is under, in its own order.
    func names(of photo: GalleryPhoto) -> [String] {
        switch self {
        case .tags: photo.keywords
        case .people: photo.people
        case .places: photo.places
        }
    }
}

/// One index of the site's photos (``TagKind``), made by one engine for all three: every
/// keyword of a published photo (XMP or IPTC keywords; a hierarchical keyword by its last
/// level), every person named in its face regions, every part of the place written for it,
/// is an entry with a page `<kind>/<slug>/` showing every photo under it, across all albums,
/// and a page `<kind>/index.html` listing all entries with their counts. Names that differ
/// only by case are one entry (named as first met). Photos of hidden albums (and of albums
/// inside them) are left out: an index page never leads to them.
struct TagIndex: Sendable {
    struct Tag: Sendable {
        /// The keyword as first met.
        var name: String
        /// Its folder's name under `tags/`, unique.
        var slug: String
        /// Its photos (indices into the plan's photos) in the site's `sort` order.
        var photos: [Int]
    }

    /// What the index groups photos by.
    let kind: TagKind
    /// Whether the site has this index (`people: false` turns the people's off): when not,
    /// photo pages do not list their entries either.
    let enabled: Bool
    /// The folder of the pages.
    var folder: String { kind.folder }
    /// The page listing every entry.
    var indexPath: String { kind.indexPath }

    /// Tags sorted by name (case-insensitively, numbers by value).
    private(set) var tags: [Tag] = []
    /// For each photo on a tag page, the tags it carries (indices into ``tags``), in its keywords' order.
    private(set) var tagsOfPhoto: [Int: [Int]] = [:]

    var isEmpty: Bool { tags.isEmpty }

    /// The tags (or people, or places: `kind`) of the photos of `plan`'s reachable albums that
    /// are not hidden, each tag's photos in `sort` order (nil: as found, when only the files
    /// matter); none when `enabled` is false.
    init(plan: SitePlan, sort: AlbumSortOrder?, kind: TagKind = .tags, enabled: Bool = true) {
        self.kind = kind
        self.enabled = enabled
        guard enabled else { return }
        var byKey: [String: Int] = [:]
        var found: [Tag] = []
        var keysOfPhoto: [Int: [Int]] = [:]
        // The photos with a tag, in the order they are met.
        var tagged: [Int] = []
        for album in plan.reachableAlbums where !plan.albums[album].hidden {
            for photo in plan.albums[album].photos {
                for keyword in kind.names(of: plan.photos[photo].photo) {
                    let key = keyword.lowercased()
                    let index: Int
                    if let known = byKey[key] {
                        index = known
                    } else {
                        index = found.count
                        byKey[key] = index
                        found.append(Tag(name: keyword, slug: "", photos: []))
                    }
                    guard found[index].photos.last != photo else { continue }
                    found[index].photos.append(photo)
                    if keysOfPhoto[photo] == nil { tagged.append(photo) }
                    keysOfPhoto[photo, default: []].append(index)
                }
            }
        }
        // Sorted by name, and slugs handed out in that order: the same tags get the same slugs.
        let order = found.indices.sorted { a, b in
            naturalOrder(found[a].name, found[b].name)
        }
        var position = [Int](repeating: 0, count: found.count)
        var slugs = SlugAllocator()
        // Every photo with a tag sorted once, and each tag's photos taken in that order: what
        // sorting each tag's photos gives (a stable sort keeps the order of any part of what it
        // sorts), with one sort instead of one per tag (a large library's tags are as large).
        if let sort {
            let entries = tagged.map { Entry(index: $0, name: plan.photos[$0].photo.fileName, date: plan.photos[$0].photo.date) }
            var sorted = [[Int]](repeating: [], count: found.count)
            for photo in GalleryScanner.sorted(entries, sort, name: \.name, date: \.date).map(\.index) {
                for tag in keysOfPhoto[photo]! { sorted[tag].append(photo) }
            }
            for tag in found.indices { found[tag].photos = sorted[tag] }
        }
        for (newIndex, oldIndex) in order.enumerated() {
            position[oldIndex] = newIndex
            var tag = found[oldIndex]
            tag.slug = slugs.allocate(for: tag.name, fallback: kind.fallbackSlug)
            tags.append(tag)
        }
        tagsOfPhoto = keysOfPhoto.mapValues { $0.map { position[$0] } }
    }

    /// A photo's sort keys.
    private struct Entry {
        var index: Int
        var name: String
        var date: GalleryDate?
    }

    /// Site-relative folder of tag `index`'s pages.
    func directory(_ index: Int) -> String {
        folder + tags[index].slug + "/"
    }

    /// Site-relative path of static page `page` (1 is `index.html`) of tag `index`.
    func pagePath(_ index: Int, page: Int) -> String {
        directory(index) + (page == 1 ? "index.html" : "pages/\(page).html")
    }

    /// Every file of the tag pages: each tag's static pages and frame data, and the list of tags.
    func files(tilesPerPage: Int, framesChunkSize: Int) -> [String] {
        guard !tags.isEmpty else { return [] }
        return [indexPath] + tags.indices.flatMap { wallFiles($0, tilesPerPage: tilesPerPage, framesChunkSize: framesChunkSize) }
    }

    /// The files of tag `index`: its static pages, its `frames.json` and its chunks.
    func wallFiles(_ index: Int, tilesPerPage: Int, framesChunkSize: Int) -> [String] {
        let count = tags[index].photos.count
        var files = (1...SitePlan.pageCount(photos: count, perPage: tilesPerPage)).map { pagePath(index, page: $0) }
        files.append(directory(index) + "frames.json")
        files += (0..<((count + framesChunkSize - 1) / framesChunkSize)).map { directory(index) + SitePlan.framesChunkPath($0) }
        return files
    }
}
