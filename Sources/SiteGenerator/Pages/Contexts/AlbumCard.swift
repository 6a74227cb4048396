/// A sub-album's card on its parent's page: its name, count and cover.
struct AlbumCard: Sendable {
    let name: String
    /// Its page, relative to the parent's.
    let url: String
    /// Its photos and those of all albums below it.
    let photoCount: Int
    let countLabel: String
    /// Nil for an album without any photo, below it either.
    let cover: CardCover?

    var mustache: [String: Any] {
        var values: [String: Any] = ["name": name, "url": url, "photoCount": photoCount, "countLabel": countLabel]
        if let cover { values["cover"] = cover.mustache }
        return values
    }
}

/// The cover image of an ``AlbumCard``: its cover photo's tile images.
struct CardCover: Sendable {
    /// At the size of the tile image the `<img>` shows.
    let image: PictureImage
    /// `eager` for the first covers, above the fold; `lazy` for the others.
    let loading: String

    var mustache: [String: Any] {
        var values: [String: Any] = ["loading": loading]
        image.add(to: &values)
        return values
    }
}
