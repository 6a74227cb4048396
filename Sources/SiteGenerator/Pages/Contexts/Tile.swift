/// A photo's tile on a wall page: its link, its place on the wall, its image and what a
/// screen reader says of it; a section header before it when it starts one.
struct Tile: Sendable {
    /// Its position in the whole wall (the page's `#p<index>` anchor).
    let index: Int
    /// Its photo's page.
    let url: String
    /// Its position and placeholder colour on the wall (CSS).
    let style: String
    /// Its image, at the photo's display size.
    let image: PictureImage
    /// The caption, empty without one.
    let caption: String
    /// `eager` in the wall's first row, `lazy` below it.
    let loading: String
    let isVideo: Bool
    /// A video's length ("1:05"), empty for a photo.
    let duration: String
    /// A Live Photo whose clip is published.
    let isLive: Bool
    /// One name for the whole tile of a video or Live Photo, as viewer.js's tileLabel writes
    /// it; empty for a still photo.
    let label: String
    /// The header of the section the tile starts, in a grouped album.
    let section: SectionHeader?

    var mustache: [String: Any] {
        var values: [String: Any] = [
            "index": index,
            "url": url,
            "style": style,
            "caption": caption,
            "loading": loading,
            "isVideo": isVideo,
            "duration": duration,
            "isLive": isLive,
            "label": label,
        ]
        image.add(to: &values)
        if let section { values["section"] = section.mustache }
        return values
    }
}

/// A grouped wall's section header ("July 2024"), before the section's first tile.
struct SectionHeader: Sendable {
    let label: String
    /// The section's number on the wall.
    let index: Int
    /// Its first tile's position in the whole wall.
    let start: Int
    let style: String

    var mustache: [String: Any] { ["label": label, "index": index, "start": start, "style": style] }
}
