import Gallery
import GalleryConfig

/// The site's tags: every keyword of a published photo (XMP or IPTC keywords; a hierarchical
/// keyword by its last level) becomes a tag, with a page `tags/<slug>/` showing every photo
/// that carries it, across all albums, and a page `tags/index.html` listing all tags with
/// their counts. Keywords that differ only by case are one tag (named as first met). Photos
/// of hidden albums (and of albums inside them) are left out: a tag page never leads to them.
struct TagIndex: Sendable {
    struct Tag: Sendable {
        /// The keyword as first met.
        var name: String
        /// Its folder's name under `tags/`, unique.
        var slug: String
        /// Its photos (indices into the plan's photos) in the site's `sort` order.
        var photos: [Int]
    }

    /// The folder of the tag pages.
    static let folder = "tags/"
    /// The page listing every tag.
    static let indexPath = "tags/index.html"

    /// Tags sorted by name (case-insensitively, numbers by value).
    private(set) var tags: [Tag] = []
    /// For each photo on a tag page, the tags it carries (indices into ``tags``), in its keywords' order.
    private(set) var tagsOfPhoto: [Int: [Int]] = [:]

    var isEmpty: Bool { tags.isEmpty }

    /// The tags of the photos of `plan`'s reachable albums that are not hidden, each tag's
    /// photos in `sort` order (nil: as found, when only the files matter).
    init(plan: SitePlan, sort: AlbumSortOrder?) {
        var byKey: [String: Int] = [:]
        var found: [Tag] = []
        var keysOfPhoto: [Int: [Int]] = [:]
        for album in plan.reachableAlbums where !plan.albums[album].hidden {
            for photo in plan.albums[album].photos {
                for keyword in plan.photos[photo].photo.keywords {
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
        // Sorted by name, and slugs handed out in that order: the same tags get the same slugs.
        let order = found.indices.sorted { a, b in
            naturalOrder(found[a].name, found[b].name)
        }
        var position = [Int](repeating: 0, count: found.count)
        var slugs = SlugAllocator()
        // Each photo's name and date, read once for all the tags it is on.
        var keys: [Int: Entry] = [:]
        if sort != nil {
            for photo in keysOfPhoto.keys {
                keys[photo] = Entry(index: photo, name: plan.photos[photo].photo.fileName, date: plan.photos[photo].photo.date)
            }
        }
        for (newIndex, oldIndex) in order.enumerated() {
            position[oldIndex] = newIndex
            var tag = found[oldIndex]
            tag.slug = slugs.allocate(for: tag.name, fallback: "tag")
            if let sort { tag.photos = GalleryScanner.sorted(tag.photos.map { keys[$0]! }, sort, name: \.name, date: \.date).map(\.index) }
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
        Self.folder + tags[index].slug + "/"
    }

    /// Site-relative path of static page `page` (1 is `index.html`) of tag `index`.
    func pagePath(_ index: Int, page: Int) -> String {
        directory(index) + (page == 1 ? "index.html" : "pages/\(page).html")
    }

    /// Every file of the tag pages: each tag's static pages and frame data, and the list of tags.
    func files(tilesPerPage: Int, framesChunkSize: Int) -> [String] {
        guard !tags.isEmpty else { return [] }
        return [Self.indexPath] + tags.indices.flatMap { wallFiles($0, tilesPerPage: tilesPerPage, framesChunkSize: framesChunkSize) }
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
