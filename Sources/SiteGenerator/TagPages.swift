import Gallery

/// The tag pages (see ``TagIndex``): each tag's wall, made by the same engine, template
/// (`album.mustache`) and viewer as an album's, over photos of several albums, and the list of
/// all tags (`tags.mustache`).
extension PageRenderer {
    /// The pages and frame data of the tags `indices` (see ``tagWallFiles(_:unchanged:)``).
    func tagWallFiles(_ indices: [Int], unchanged: @Sendable (String, String) -> Bool) throws(SiteError) -> [(path: String, key: String?, contents: String?)] {
        let renderer = self
        return try parallelMap(indices, jobs: jobs) { index throws(SiteError) -> [(path: String, key: String?, contents: String?)] in
            try renderer.tagWallFiles(index, unchanged: unchanged)
        }.flatMap { $0 }
    }

    /// The list of tags, unless `unchanged(path, key)` says it need not be rendered again.
    func tagListFile(unchanged: (String, String) -> Bool) throws(SiteError) -> (path: String, key: String, contents: String?) {
        let context = tagListContext()
        let key = fingerprint(context)
        return (TagIndex.indexPath, key, unchanged(TagIndex.indexPath, key) ? nil : try theme.render("tags", context))
    }

    /// One tag's static pages (500 tiles a page, as an album's) and frame data.
    private func tagWallFiles(_ index: Int, unchanged: (String, String) -> Bool) throws(SiteError) -> [(path: String, key: String?, contents: String?)] {
        let tag = tags.tags[index]
        let directory = tags.directory(index)
        let wall = try makeWall(tag.photos, group: .none, layout: .columns)
        let pageCount = SitePlan.pageCount(photos: tag.photos.count, perPage: options.tilesPerPage)
        var files: [(path: String, key: String?, contents: String?)] = []
        for page in 1...pageCount {
            let path = tags.pagePath(index, page: page)
            let context = try tagPageContext(index, page: page, pageCount: pageCount, wall: wall)
            let key = fingerprint(context)
            files.append((path, key, unchanged(path, key) ? nil : try theme.render("album", context)))
        }
        let frames = framesFiles(directory: directory, photos: tag.photos, wall: wall, imageURL: "{dir}thumbs/{name}-{width}.") { photo in
            relativeURL(from: directory, to: plan.photos[photo].directory + plan.photos[photo].slug)
        }
        files += frames.map { ($0.0, nil, $0.1) }
        return files
    }

    private func tagPageContext(_ index: Int, page: Int, pageCount: Int, wall: AlbumWall) throws(SiteError) -> [String: Any] {
        let tag = tags.tags[index]
        let photos = tag.photos
        let directory = page == 1 ? tags.directory(index) : tags.directory(index) + "pages/"
        let range = ((page - 1) * options.tilesPerPage)..<min(page * options.tilesPerPage, photos.count)
        let pageWall = page == 1 ? wall : try makeWall(Array(photos[range]), group: .none, layout: .columns)
        let title = page == 1 ? tag.name : pageTitle(tag.name, page: page, of: pageCount)
        var context = common(directory: directory, title: title, ancestors: [(options.title, ""), (theme.strings.text("tags"), TagIndex.folder)],
                             page: tags.pagePath(index, page: page), image: coverImage(photo: photos.first))
        context["album"] = [
            "name": tag.name, "descriptionHTML": "", "hasDescription": false, "photoCount": photos.count,
            "totalPhotoCount": photos.count, "countLabel": photoCountLabel(photos.count), "isRoot": false, "isTag": true,
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
            context["pagination"] = pagination(page: page, pageCount: pageCount, from: directory) { tags.pagePath(index, page: $0) }
        }
        return context
    }

    private func tagListContext() -> [String: Any] {
        var context = common(directory: TagIndex.folder, title: theme.strings.text("tags"), ancestors: [(options.title, "")], page: TagIndex.indexPath, image: nil)
        context["tags"] = tags.tags.indices.map { index -> [String: Any] in
            let tag = tags.tags[index]
            return ["name": tag.name, "url": relativeURL(from: TagIndex.folder, to: tags.pagePath(index, page: 1)),
                    "count": tag.photos.count, "countLabel": photoCountLabel(tag.photos.count)]
        }
        context["hasTags"] = !tags.isEmpty
        return context
    }

    /// The keywords of a photo for its page: each with the URL of its tag page from the album
    /// `directory` when the photo is on it (not for photos of hidden albums).
    func keywordLinks(_ photo: Int, from directory: String) -> [[String: Any]] {
        let keywords = plan.photos[photo].photo.keywords
        guard let tagged = tags.tagsOfPhoto[photo] else { return keywords.map { ["name": $0] } }
        return tagged.map { index in
            ["name": tags.tags[index].name, "url": relativeURL(from: directory, to: tags.pagePath(index, page: 1))]
        }
    }
}
