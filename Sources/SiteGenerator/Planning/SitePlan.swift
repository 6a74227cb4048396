import Foundation
import Gallery
import GalleryConfig
import Imaging
import Support

/// Where every album and photo goes in the site.
///
/// Albums become folders (`nature/flowers/`, the root album is the site root); a photo's page
/// is `<album>/<slug>.html` and its images `<album>/thumbs/<slug>-<width>.<ext>`; an album's
/// frame data is `<album>/frames.json` with chunks in `<album>/frames/`, and the further static
/// pages of a large album are `<album>/pages/<n>.html`. Slugs are
/// unique per folder regardless of case, and never take a name the site uses itself.
struct SitePlan: Sendable {
    /// Names an album folder uses for itself.
    static let reservedAlbumSlugs: Set<String> = ["thumbs", "assets", "frames", "pages", "originals", "videos"]
    /// Names a photo page cannot take.
    static let reservedPhotoSlugs: Set<String> = ["index", "frames"]

    struct Album: Sendable {
        /// The folder's name (or the site's title for the root).
        var name: String
        /// The title shown: the `index.md` title, else the name.
        var title: String
        /// The album's description (HTML rendered from its `index.md`), if any.
        var descriptionHTML: String?
        /// The album's date (its `index.md` date, else its oldest photo's), if any.
        var date: GalleryDate? = nil
        /// Whether the album is hidden from its parent's list (it is still built), or is inside
        /// a hidden album.
        var hidden: Bool
        /// The sub-albums listed on the album's page: the albums that are not hidden.
        var listed: [Int] = []
        /// The photo chosen as cover in `index.md`, if any (an index into `photos` of the plan).
        var coverPhoto: Int?
        var relativePath: String
        /// Site-relative folder, `""` for the root or `"nature/flowers/"`.
        var directory: String
        /// Names and folders of the albums above this one, root first.
        var ancestors: [(name: String, directory: String)]
        var albums: [Int]
        var photos: [Int]
        /// How the photos are split into sections (they are in section order).
        var group: PhotoGrouping = .none
        /// How the album is laid out.
        var layout: AlbumLayout = .columns
    }

    struct Photo: Sendable {
        /// The photo itself: one reference (``GalleryPhoto`` keeps its fields out of line), so a
        /// photo's place is cheap to copy into every stage's output. Stored, not wrapped: a
        /// wrapper's getter hands out a copy, one retain and release of the shared fields per
        /// field read, and the pages' threads reading the same photos contended for them.
        var photo: GalleryPhoto
        var slug: String
        var directory: String
        var album: Int
    }

    private(set) var albums: [Album] = []
    private(set) var photos: [Photo] = []

    /// Photo slugs that would collide with a file the tool did not make.
    private(set) var collisions: [(photo: String, file: String, slug: String)] = []
    /// Album folders that would take the place of something the tool did not make (a file of
    /// the user's where the folder or one of its own folders must go): the album's source
    /// path, the site-relative path in the way, and the folder it gets instead.
    private(set) var folderCollisions: [(album: String, path: String, directory: String)] = []
    /// The folder of the theme's assets: `assets`, or the next free name (`assets-2`) when a
    /// theme file's place there is the user's.
    private(set) var assetsFolder = "assets"
    /// Where the feed and the sitemap go (with a base URL): `feed.xml` and `sitemap.xml`, or the
    /// next free name (`feed-2.xml`) when that is the user's.
    private(set) var feedPath = "feed.xml"
    private(set) var sitemapPath = "sitemap.xml"
    /// The folder of the search index (``SearchStage``), when the site has search: `search`,
    /// or the next free name (`search-2`) when something there is the user's.
    private(set) var searchFolder: String?

    /// The plan of the site for the album tree `root`. `taken(directory, slug, photo)` says
    /// which file (if any) of the photo's page, images or original under that slug exists and
    /// is not the tool's: such a photo gets the next free slug (listed in ``collisions``). It is
    /// asked only of the photos of an album for whose folder `holdsForeignFile(directory)` is
    /// true (asked once per album with photos).
    /// The slugs of the photos' names are worked out on `jobs` threads first.
    /// `folderTaken(directory)` says what (if anything) in the way of the album folder
    /// `directory` (site-relative, ending in `/`) is not the tool's: the album gets the next free
    /// slug (listed in ``folderCollisions``). The theme's assets go to `assetsFolder`.
    init(
        root: GalleryAlbum, jobs: Int = 1, assetsFolder: String = "assets", feedPath: String = "feed.xml", sitemapPath: String = "sitemap.xml",
        searchFolder: String? = nil, holdsForeignFile: (String) -> Bool = { _ in true },
        taken: (String, String, GalleryPhoto) -> String? = { _, _, _ in nil }, folderTaken: (String) -> String? = { _ in nil }
    ) {
        self.assetsFolder = assetsFolder
        self.feedPath = feedPath
        self.sitemapPath = sitemapPath
        self.searchFolder = searchFolder
        photos.reserveCapacity(root.totalPhotoCount)
        // Each photo's slug of its name, in the order `add` takes the photos (an album's photos,
        // then its sub-albums'), on every core: most of the plan's work for a large library.
        var inOrder: [GalleryPhoto] = []
        inOrder.reserveCapacity(root.totalPhotoCount)
        func gather(_ album: GalleryAlbum) {
            inOrder += album.photos
            album.albums.forEach(gather)
        }
        gather(root)
        let nameSlugs = parallelMap(indexRuns(inOrder.count, length: 4096), jobs: jobs) { [inOrder] run in
            inOrder[run].map { SlugAllocator.slug($0.stem) }
        }.flatMap { $0 }
        _ = add(root, directory: "", ancestors: [], insideHidden: false, nameSlugs: nameSlugs, holdsForeignFile: holdsForeignFile,
                taken: taken, folderTaken: folderTaken)
    }

    /// Adds `album` and its sub-albums; `nameSlugs` holds the slug of each photo's name, by the
    /// index the photo gets in ``photos``.
    private mutating func add(
        _ album: GalleryAlbum, directory: String, ancestors: [(name: String, directory: String)], insideHidden: Bool,
        nameSlugs: [String], holdsForeignFile: (String) -> Bool, taken: (String, String, GalleryPhoto) -> String?,
        folderTaken: (String) -> String?
    ) -> Int {
        let index = albums.count
        let hidden = insideHidden || album.hidden
        albums.append(Album(name: album.name, title: album.title, descriptionHTML: album.descriptionHTML, date: album.date, hidden: hidden,
                            relativePath: album.relativePath, directory: directory,
                            ancestors: ancestors, albums: [], photos: [], group: album.group, layout: album.layout))
        var photoSlugs = SlugAllocator(reserved: Self.reservedPhotoSlugs, capacity: album.photos.count)
        var photoIndices: [Int] = []
        photoIndices.reserveCapacity(album.photos.count)
        // (Whether any of its photos' files can be in the way: asked once for the album.)
        let mayBeTaken = !album.photos.isEmpty && holdsForeignFile(directory)
        for photo in album.photos {
            let nameSlug = nameSlugs[photos.count]
            var slug = photoSlugs.allocate(slug: nameSlug, fallback: "photo")
            while mayBeTaken, let file = taken(directory, slug, photo) {
                let next = photoSlugs.allocate(slug: nameSlug, fallback: "photo")
                collisions.append((photo.relativePath, file, next))
                slug = next
            }
            if photo.fileName == album.coverFileName { albums[index].coverPhoto = photos.count }
            photoIndices.append(photos.count)
            photos.append(Photo(photo: photo, slug: slug, directory: directory, album: index))
        }
        // At the root, `tags`, `people` and `places` are the index pages' folders (reserved
        // whether or not the site has them, so that an album's address does not depend on it).
        var albumSlugs = SlugAllocator(reserved: directory.isEmpty
            ? Self.reservedAlbumSlugs.union(TagKind.allCases.map(\.rawValue) + [assetsFolder] + (searchFolder.map { [$0] } ?? []))
            : Self.reservedAlbumSlugs)
        var childIndices: [Int] = []
        var listed: [Int] = []
        for child in album.albums {
            let nameSlug = SlugAllocator.slug(child.name)
            var slug = albumSlugs.allocate(slug: nameSlug, fallback: "album")
            while let file = folderTaken(directory + slug + "/") {
                slug = albumSlugs.allocate(slug: nameSlug, fallback: "album")
                folderCollisions.append((child.relativePath, file, directory + slug + "/"))
            }
            let childIndex = add(child, directory: directory + slug + "/",
                                 ancestors: ancestors + [(album.title, directory)], insideHidden: hidden, nameSlugs: nameSlugs, holdsForeignFile: holdsForeignFile, taken: taken,
                                 folderTaken: folderTaken)
            childIndices.append(childIndex)
            if !child.hidden { listed.append(childIndex) }
        }
        albums[index].photos = photoIndices
        albums[index].albums = childIndices
        albums[index].listed = listed
        return index
    }

    /// Site-relative path of a photo's image at `width`.
    func imagePath(photo index: Int, width: Int, format: EncodeFormat) -> String {
        Self.imagePath(directory: photos[index].directory, slug: photos[index].slug, width: width, format: format)
    }

    /// Site-relative path of the image at `width` of the photo `slug` in the album `directory`.
    static func imagePath(directory: String, slug: String, width: Int, format: EncodeFormat) -> String {
        // Joined at once into a string of its size (interpolation grew it piece by piece: this is
        // asked for every photo's every image several times a build).
        [directory, "thumbs/", slug, "-", String(width), ".", format.fileExtension].joined()
    }

    /// Site-relative paths of the images a photo gets, by width, one per format (in the order
    /// of `formats`): one width per requested width that its upright size allows (see
    /// `Renditions.targetWidths`).
    func imagePaths(photo index: Int, widths: [Int], formats: [EncodeFormat]) -> [Int: [String]] {
        let (targets, files) = imageFiles(photo: index, widths: widths, formats: formats)
        return Dictionary(uniqueKeysWithValues: targets.enumerated().map { position, width in
            (width, files.map { $0[position] })
        })
    }

    /// The widths of a photo's images, ascending, and per format (in the order of `formats`) its
    /// images' site-relative paths at those widths: ``imagePaths(photo:widths:formats:)`` as
    /// lists, without the dictionary (asked of a large library's every photo).
    func imageFiles(photo index: Int, widths: [Int], formats: [EncodeFormat]) -> (widths: [Int], files: [[String]]) {
        let targets = Renditions.targetWidths(requested: widths, fullWidth: photos[index].photo.info.displayWidth)
        return (targets, formats.map { format in targets.map { imagePath(photo: index, width: $0, format: format) } })
    }

    /// Site-relative path of a video's web version: `<album>/videos/<slug>.mp4`.
    func videoPath(photo index: Int) -> String {
        Self.videoPath(directory: photos[index].directory, slug: photos[index].slug)
    }

    /// Site-relative path of the web version of the video `slug` in the album `directory`.
    static func videoPath(directory: String, slug: String) -> String {
        "\(directory)videos/\(slug).mp4"
    }

    /// Site-relative path of a Live Photo's motion clip: `<album>/videos/<slug>.live.mp4` (a
    /// slug has no dot, so it never meets a video's own).
    func livePath(photo index: Int) -> String {
        Self.livePath(directory: photos[index].directory, slug: photos[index].slug)
    }

    /// Site-relative path of the motion clip of the Live Photo `slug` in the album `directory`.
    static func livePath(directory: String, slug: String) -> String {
        "\(directory)videos/\(slug).live.mp4"
    }

    /// Site-relative path of a photo's page.
    func pagePath(photo index: Int) -> String {
        Self.pagePath(directory: photos[index].directory, slug: photos[index].slug)
    }

    /// Site-relative path of the page of the photo `slug` in the album `directory`.
    static func pagePath(directory: String, slug: String) -> String {
        [directory, slug, ".html"].joined()
    }

    /// Site-relative path of a photo's original, published for download: `originals/` beside
    /// the album's page, the slug, and the extension of its content (``originalExtension(of:)``).
    func originalPath(photo index: Int) -> String {
        Self.originalPath(directory: photos[index].directory, slug: photos[index].slug, photo: photos[index].photo)
    }

    /// Site-relative path of the original of `photo`, whose slug is `slug`, in the album `directory`.
    static func originalPath(directory: String, slug: String, photo: GalleryPhoto) -> String {
        directory + "originals/" + slug + "." + originalExtension(of: photo)
    }

    /// The extension an original is published under: that of what the file holds, as its
    /// first bytes said (the file's own extension only when it is a name of that same format,
    /// `.jpeg` for a JPEG, `.mov` for a QuickTime movie). Never the name alone: a JPEG named
    /// `holiday.html` is published as `.jpg`, so no original is ever served under an extension
    /// a browser runs (`.html`, `.svg`, `.js`...).
    static func originalExtension(of photo: GalleryPhoto) -> String {
        let own = pathExtension(photo.fileName).lowercased()
        let names: [String]
        if let video = photo.video {
            let container = video.container
            if container.contains("mp4") || container.contains("mov") {
                names = ["mp4", "mov", "m4v", "3gp", "3g2"]
            } else if container.contains("matroska") || container.contains("webm") {
                names = ["mkv", "webm"]
            } else if container.contains("avi") {
                names = ["avi"]
            } else if container.contains("mpegts") {
                names = ["ts", "mts", "m2ts"]
            } else if container.contains("mpeg") {
                names = ["mpg", "mpeg"]
            } else if container.contains("asf") {
                names = ["wmv", "asf"]
            } else {
                names = ["bin"]
            }
        } else {
            names = switch photo.info.format {
            case .jpeg: ["jpg", "jpeg", "jpe"]
            case .png: ["png"]
            case .gif: ["gif"]
            case .webp: ["webp"]
            case .heif: ["heic", "heif", "hif"]
            case .avif: ["avif"]
            case .tiff: ["tif", "tiff"]
            case .bmp: ["bmp"]
            }
        }
        return names.contains(own) ? own : names[0]
    }

    /// Number of static pages of an album of `photoCount` photos, `perPage` tiles a page.
    static func pageCount(photos photoCount: Int, perPage: Int) -> Int {
        max(1, (photoCount + perPage - 1) / perPage)
    }

    /// Site-relative path of an album's static page `page` (1 is the album's `index.html`).
    func albumPagePath(album index: Int, page: Int) -> String {
        albums[index].directory + (page == 1 ? "index.html" : "pages/\(page).html")
    }

    /// An album's own files: its static pages (`tilesPerPage` tiles a page), its `frames.json`
    /// and its frame chunks (`framesChunkSize` photos a chunk); not its photos' pages.
    func albumFiles(album index: Int, tilesPerPage: Int, framesChunkSize: Int) -> [String] {
        let album = albums[index]
        let pageCount = Self.pageCount(photos: album.photos.count, perPage: tilesPerPage)
        var files = (1...pageCount).map { albumPagePath(album: index, page: $0) }
        files.append(album.directory + "frames.json")
        let chunks = (album.photos.count + framesChunkSize - 1) / framesChunkSize
        files += (0..<chunks).map { album.directory + Self.framesChunkPath($0) }
        return files
    }

    /// Path of chunk `chunk` of an album's frame data, relative to the album's folder.
    static func framesChunkPath(_ chunk: Int) -> String {
        "frames/\(chunk).json"
    }

    /// Removes photos that could not be processed, and albums left with no photo anywhere below
    /// them (the root album always stays).
    mutating func keepPhotos(where keep: (Int) -> Bool) {
        for index in albums.indices {
            albums[index].photos.removeAll { !keep($0) }
        }
        let snapshot = albums
        func hasPhotos(_ album: Int) -> Bool {
            !snapshot[album].photos.isEmpty || snapshot[album].albums.contains(where: hasPhotos)
        }
        for index in albums.indices {
            albums[index].albums.removeAll { !hasPhotos($0) }
            albums[index].listed.removeAll { !hasPhotos($0) }
            if let cover = albums[index].coverPhoto, !keep(cover) { albums[index].coverPhoto = nil }
        }
    }

    /// Albums reachable from the root, root first.
    var reachableAlbums: [Int] {
        var order: [Int] = []
        var stack = [0]
        while let next = stack.popLast() {
            order.append(next)
            stack.append(contentsOf: albums[next].albums.reversed())
        }
        return order
    }
}

/// A relative URL from the folder `from` (site-relative, ending in `/` or empty) to the
/// site-relative `path`, percent-encoded.
func relativeURL(from directory: String, to path: String) -> String {
    // Every page asks this for each of its links and images: for ASCII paths and a plain folder
    // (`a/b/` or empty), it is worked out on the bytes, without splitting either.
    let folder = directory.utf8
    if folder.last ?? UInt8(ascii: "/") == UInt8(ascii: "/"), folder.first != UInt8(ascii: "/"),
        folder.allSatisfy({ $0 < 0x80 }), path.utf8.allSatisfy({ $0 < 0x80 }),
        !zip(folder, folder.dropFirst()).contains(where: { $0 == UInt8(ascii: "/") && $1 == UInt8(ascii: "/") })
    {
        // The folder's leading segments that the path shares (each with its slash), and the rest.
        var matched = 0
        for (a, b) in zip(folder, path.utf8) {
            if a != b { break }
            matched += 1
        }
        var shared = 0
        var sharedSegments = 0
        var segments = 0
        for (offset, byte) in folder.enumerated() where byte == UInt8(ascii: "/") {
            segments += 1
            if offset < matched {
                shared = offset + 1
                sharedSegments += 1
            }
        }
        let url = String(repeating: "../", count: segments - sharedSegments)
            + URLPath.encode(path: String(path.utf8.dropFirst(shared))!)
        return url.isEmpty ? "./" : url
    }
    let fromParts = directory.split(separator: "/")
    var toParts = path.split(separator: "/", omittingEmptySubsequences: false)
    var common = 0
    while common < fromParts.count, common < toParts.count - 1, fromParts[common] == toParts[common] {
        common += 1
    }
    toParts.removeFirst(common)
    let rest = URLPath.encode(path: toParts.joined(separator: "/"))
    let url = String(repeating: "../", count: fromParts.count - common) + rest
    return url.isEmpty ? "./" : url
}
