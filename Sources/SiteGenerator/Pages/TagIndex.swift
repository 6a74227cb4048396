import Gallery
import GalleryConfig
import Support

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

    /// The indexes of every kind, in ``TagKind/allCases``' order, of the photos of `plan`'s
    /// reachable albums that are not hidden: each kind's entries gathered on a core of its own,
    /// each entry's photos in `sort` order (nil: as found, when only the files matter); a kind
    /// not in `enabled` has none.
    static func all(plan: SitePlan, sort: AlbumSortOrder?, enabled: Set<TagKind>, jobs: Int) -> [TagIndex] {
        let kinds = TagKind.allCases
        let gathered = parallelMap(kinds, jobs: jobs) { kind in
            enabled.contains(kind) ? Gathered(plan: plan, kind: kind) : Gathered()
        }
        // Every photo under an entry of any kind sorted once, and each entry's photos taken in
        // that order: what sorting each entry's photos gives (a stable sort keeps the order of
        // any part of what it sorts), with one sort instead of one per entry, or per kind (a
        // large library's entries, and its kinds, are as large as the library).
        var order: [Int]?
        if let sort, gathered.contains(where: { !$0.keysOfPhoto.isEmpty }) {
            var entries: [Entry] = []
            // (In the order met, which each kind's photos are in.)
            for album in plan.reachableAlbums where !plan.albums[album].hidden {
                for photo in plan.albums[album].photos where gathered.contains(where: { $0.keysOfPhoto[photo] != nil }) {
                    entries.append(Entry(index: photo, name: plan.photos[photo].photo.fileName, date: plan.photos[photo].photo.date))
                }
            }
            order = GalleryScanner.sorted(entries, sort, name: \.name, date: \.date).map(\.index)
        }
        return zip(kinds, gathered).map { kind, gathered in
            TagIndex(kind: kind, enabled: enabled.contains(kind), gathered: gathered, order: order)
        }
    }

    /// One kind's entries as first met (``all(plan:sort:enabled:jobs:)``), before they are sorted.
    private struct Gathered: Sendable {
        var found: [Tag] = []
        /// The entries (indices into `found`) of each photo under one.
        var keysOfPhoto: [Int: [Int]] = [:]

        init() {}

        init(plan: SitePlan, kind: TagKind) {
            var byKey: [String: Int] = [:]
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
                        keysOfPhoto[photo, default: []].append(index)
                    }
                }
            }
        }
    }

    /// The index of `kind` from what was `gathered` of it: its entries sorted by name, with
    /// their slugs, and each entry's photos in `order` when there is one (every photo under
    /// an entry of any kind, sorted).
    private init(kind: TagKind, enabled: Bool, gathered: Gathered, order: [Int]?) {
        self.kind = kind
        self.enabled = enabled
        var found = gathered.found
        if let order {
            var sorted = [[Int]](repeating: [], count: found.count)
            for photo in order {
                for tag in gathered.keysOfPhoto[photo] ?? [] { sorted[tag].append(photo) }
            }
            for tag in found.indices { found[tag].photos = sorted[tag] }
        }
        // Sorted by name, and slugs handed out in that order: the same tags get the same slugs.
        let order = found.indices.sorted { a, b in
            naturalOrder(found[a].name, found[b].name)
        }
        var position = [Int](repeating: 0, count: found.count)
        var slugs = SlugAllocator()
        for (newIndex, oldIndex) in order.enumerated() {
            position[oldIndex] = newIndex
            var tag = found[oldIndex]
            tag.slug = slugs.allocate(for: tag.name, fallback: kind.fallbackSlug)
            tags.append(tag)
        }
        tagsOfPhoto = gathered.keysOfPhoto.mapValues { $0.map { position[$0] } }
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
