import Gallery
import Support

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

    /// The pages and frame data of the entries `entries` of `index` (see ``tagWallFiles(_:unchanged:)``).
    func tagWallFiles(_ entries: [Int], of index: TagIndex, unchanged: @Sendable (String, String) -> Bool) throws(SiteError) -> [(path: String, key: String?, contents: String?)] {
        let renderer = self
        return try parallelMap(entries, jobs: jobs) { entry throws(SiteError) -> [(path: String, key: String?, contents: String?)] in
            try renderer.tagWallFiles(entry, of: index, unchanged: unchanged)
        }.flatMap { $0 }
    }

    /// The list of `index`'s entries, unless `unchanged(path, key)` says it need not be rendered again.
    func tagListFile(_ index: TagIndex, unchanged: (String, String) -> Bool) throws(SiteError) -> (path: String, key: String, contents: String?) {
        let context = tagListContext(index)
        let key = fingerprint(context)
        return (index.indexPath, key, unchanged(index.indexPath, key) ? nil : try theme.render("tags", context))
    }

    /// One entry's static pages (500 tiles a page, as an album's) and frame data.
    private func tagWallFiles(_ entry: Int, of index: TagIndex, unchanged: (String, String) -> Bool) throws(SiteError) -> [(path: String, key: String?, contents: String?)] {
        let tag = index.tags[entry]
        let directory = index.directory(entry)
        let wall = try makeWall(tag.photos, group: .none, layout: .columns)
        let pageCount = SitePlan.pageCount(photos: tag.photos.count, perPage: options.tilesPerPage)
        var files: [(path: String, key: String?, contents: String?)] = []
        let author = credit(tag.photos)
        for page in 1...pageCount {
            let path = index.pagePath(entry, page: page)
            let context = try tagPageContext(entry, of: index, page: page, pageCount: pageCount, wall: wall, author: author)
            let key = fingerprint(context)
            files.append((path, key, unchanged(path, key) ? nil : try theme.render("album", context)))
        }
        let frames = framesFiles(directory: directory, photos: tag.photos, wall: wall, imageURL: "{dir}thumbs/{name}-{width}.") { photo in
            relativeURL(from: directory, to: plan.photos[photo].directory + plan.photos[photo].slug)
        }
        files += frames.map { ($0.0, nil, $0.1) }
        return files
    }

    private func tagPageContext(_ entry: Int, of index: TagIndex, page: Int, pageCount: Int, wall: AlbumWall, author: String?) throws(SiteError) -> [String: Any] {
        let tag = index.tags[entry]
        let photos = tag.photos
        let directory = page == 1 ? index.directory(entry) : index.directory(entry) + "pages/"
        let range = ((page - 1) * options.tilesPerPage)..<min(page * options.tilesPerPage, photos.count)
        let pageWall = page == 1 ? wall : try makeWall(Array(photos[range]), group: .none, layout: .columns)
        let title = page == 1 ? tag.name : pageTitle(tag.name, page: page, of: pageCount)
        var context = common(directory: directory, title: title, ancestors: [(options.title, ""), (theme.strings.text(index.kind.titleKey), index.folder)],
                             page: index.pagePath(entry, page: page), image: coverImage(photo: photos.first), author: author)
        context["album"] = [
            "name": tag.name, "descriptionHTML": "", "hasDescription": false, "photoCount": photos.count,
            "totalPhotoCount": photos.count, "countLabel": itemCountLabel(photos), "isRoot": false, "isTag": true,
        ] as [String: Any]
        context["albums"] = [[String: Any]]()
        context["hasAlbums"] = false
        context["hasPhotos"] = true
        context["isEmpty"] = false
        context["wallCSS"] = page == 1 ? wall.css(renderedCount: range.count) : pageWall.css()
        context["framesURL"] = page == 1 ? "frames.json" : "../frames.json"
        context["wallIsSlice"] = page > 1
        context["slideshowInterval"] = options.slideshowInterval
        context["lightboxThumbnails"] = options.lightboxThumbnails
        let sizes = pageWall.sizesAttribute(pagePadding: options.pagePadding)
        context["tiles"] = range.map { position in
            tile(photos[position], position: position, wallIndex: position - range.lowerBound, wall: pageWall, renderedCount: range.count, sizes: sizes, directory: directory)
        }
        if pageCount > 1 {
            context["pagination"] = pagination(page: page, pageCount: pageCount, from: directory) { index.pagePath(entry, page: $0) }
        }
        return context
    }

    private func tagListContext(_ index: TagIndex) -> [String: Any] {
        var context = common(directory: index.folder, title: theme.strings.text(index.kind.titleKey), ancestors: [(options.title, "")], page: index.indexPath, image: nil)
        context["tags"] = index.tags.indices.map { entry -> [String: Any] in
            let tag = index.tags[entry]
            return ["name": tag.name, "url": relativeURL(from: index.folder, to: index.pagePath(entry, page: 1)),
                    "count": number(tag.photos.count), "countLabel": itemCountLabel(tag.photos)]
        }
        context["hasTags"] = !index.isEmpty
        return context
    }

    /// The entries of `kind` a photo is under, for its page: each with the URL of its page from
    /// the album `directory` when the photo is on it (not for photos of hidden albums).
    func tagLinks(_ kind: TagKind, _ photo: Int, from directory: String) -> [[String: Any]] {
        let index = index(kind)
        guard index.enabled else { return [] }
        let names = kind.names(of: plan.photos[photo].photo)
        guard let tagged = index.tagsOfPhoto[photo] else { return names.map { ["name": $0] } }
        return tagged.map { entry in
            ["name": index.tags[entry].name, "url": relativeURL(from: directory, to: index.pagePath(entry, page: 1))]
        }
    }
}
