/// One static page of a wall (`album.mustache`): an album's, or a tag's, a person's or a
/// place's (see ``TagIndex``), with its sub-albums' cards (an album's first page), its tiles,
/// its wall's CSS and the settings the viewer reads from it.
struct AlbumPageContext: PageContext {
    static let template = "album"

    let frame: PageFrame
    let album: AlbumSummary
    /// The sub-albums (an album's first page only).
    let albums: [AlbumCard]
    let hasPhotos: Bool
    /// An album with neither photos nor albums ("This album is empty").
    let isEmpty: Bool
    let wallCSS: String
    /// The album's frame data, `frames.json`, relative to the page.
    let framesURL: String
    /// A page after the first: its tiles are a slice of the wall, not its start.
    let wallIsSlice: Bool
    /// Whether the wall has sections by date, and is laid out in rows; nil on an index entry's
    /// page, which has never carried them (its wall is in columns without sections): left out,
    /// its variables, and so its fingerprint in the catalog, stay as they were.
    let wallIsGrouped: Bool?
    let wallIsRows: Bool?
    /// Seconds a photo stays in the lightbox's slideshow.
    let slideshowInterval: Int
    let lightboxThumbnails: Bool
    let tiles: [Tile]
    /// Links to the other static pages; nil when there is one.
    let pagination: Pagination?

    var hasAlbums: Bool { !albums.isEmpty }

    var mustache: [String: Any] {
        var values = frame.mustache
        values["album"] = album.mustache
        values["albums"] = albums.map(\.mustache)
        values["hasAlbums"] = hasAlbums
        values["hasPhotos"] = hasPhotos
        values["isEmpty"] = isEmpty
        values["wallCSS"] = wallCSS
        values["framesURL"] = framesURL
        values["wallIsSlice"] = wallIsSlice
        if let wallIsGrouped { values["wallIsGrouped"] = wallIsGrouped }
        if let wallIsRows { values["wallIsRows"] = wallIsRows }
        values["slideshowInterval"] = slideshowInterval
        values["lightboxThumbnails"] = lightboxThumbnails
        values["tiles"] = tiles.map(\.mustache)
        if let pagination { values["pagination"] = pagination.mustache }
        return values
    }
}

/// The album (or index entry) a wall page shows: `{{album.…}}`.
struct AlbumSummary: Sendable {
    let name: String
    /// The album's `index.md` as HTML, on its first page only.
    let descriptionHTML: String?
    /// Its own photos.
    let photoCount: Int
    /// Its photos and those of all albums below it.
    let totalPhotoCount: Int
    /// "3 photos", "2 photos, 1 video", in the site's language.
    let countLabel: String
    /// The root album, whose page is the site's home page.
    let isRoot: Bool
    /// A tag's, a person's or a place's page rather than an album's (only those carry the variable).
    let isTag: Bool

    var hasDescription: Bool { descriptionHTML != nil }

    var mustache: [String: Any] {
        var values: [String: Any] = [
            "name": name,
            "descriptionHTML": descriptionHTML ?? "",
            "hasDescription": hasDescription,
            "photoCount": photoCount,
            "totalPhotoCount": totalPhotoCount,
            "countLabel": countLabel,
            "isRoot": isRoot,
        ]
        if isTag { values["isTag"] = true }
        return values
    }
}

/// Links to the other static pages of a large wall: previous, next, the first, the last and
/// the two on either side of the current one, with gaps between.
struct Pagination: Sendable {
    /// The current page, from 1.
    let page: Int
    let pageCount: Int
    let links: [PageNumber]
    let previous: PageLink?
    let next: PageLink?

    var mustache: [String: Any] {
        var values: [String: Any] = ["page": page, "pageCount": pageCount, "links": links.map(\.mustache)]
        if let previous { values["previous"] = previous.mustache }
        if let next { values["next"] = next.mustache }
        return values
    }
}

/// One entry of ``Pagination/links``: a page's number and link, or a gap ("…").
enum PageNumber: Sendable {
    case page(number: Int, url: String, current: Bool)
    case ellipsis

    /// `ellipsis`, and for a page its `number`, `url` and whether it is the `current` one.
    var mustache: [String: Any] {
        switch self {
        case .ellipsis: ["ellipsis": true]
        case .page(let number, let url, let current): ["ellipsis": false, "number": number, "url": url, "current": current]
        }
    }
}
