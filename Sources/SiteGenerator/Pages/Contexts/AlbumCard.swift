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
    let src: String
    let srcset: String
    let sizes: String
    let sources: [PictureSource]
    let width: Int
    let height: Int
    let alt: String
    /// The placeholder colour shown until the image loads.
    let color: String
    /// `eager` for the first covers, above the fold; `lazy` for the others.
    let loading: String

    var mustache: [String: Any] {
        [
            "src": src, "srcset": srcset, "sizes": sizes, "sources": sources.map(\.mustache),
            "width": width, "height": height, "alt": alt, "color": color, "loading": loading,
        ]
    }
}
