/// A photo's (or a video's) own page (`photo.mustache`): the photo, the way back to its place
/// in its album, its neighbours and its original's download.
struct PhotoPageContext: PageContext {
    static let template = "photo"

    let frame: PageFrame
    let photo: PhotoDetails
    /// Its album, at the page of it that holds the photo's tile.
    let album: AlbumLink
    let original: OriginalDownload?
    let previous: PageLink?
    let next: PageLink?

    var mustache: [String: Any] {
        var values = frame.mustache
        values["photo"] = photo.mustache
        values["album"] = album.mustache
        if let original { values["original"] = original.mustache }
        if let previous { values["previous"] = previous.mustache }
        if let next { values["next"] = next.mustache }
        return values
    }
}

/// What a photo's page shows of it: `{{photo.…}}`.
struct PhotoDetails: Sendable {
    /// ``PageRenderer/linkTitle(_:)``: never a camera's file name.
    let title: String
    /// Its caption as text (a `.txt` file's, the metadata's description), and as HTML when
    /// it is Markdown.
    let caption: String?
    let captionHTML: String?
    /// The caption under the image, unless it is plain text all in the title above it.
    let showCaption: Bool
    /// Its capture date as shown, and as ISO 8601 for `<time>`.
    let date: String?
    let isoDate: String?
    /// The camera settings shown (none with `show_exif: false`).
    let camera: [CameraSetting]
    /// Its tags; `hasKeywords` says whether the photo has keywords at all.
    let keywords: [TagLink]
    let hasKeywords: Bool
    let creator: String?
    let copyright: String?
    let people: [TagLink]
    let places: [TagLink]
    let fileName: String
    /// The large image, at the photo's display size.
    let image: PictureImage
    /// Its place in its album ("2") and the album's count ("5"), as the language writes numbers.
    let position: String
    let count: String
    let isVideo: Bool
    /// A video's web version, empty for a photo.
    let videoURL: String
    /// A video's length ("1:05"), empty for a photo.
    let duration: String
    /// A video's poster: its largest image.
    let poster: String
    /// A Live Photo whose clip is published, and the clip; `liveURL` is empty for others.
    let isLive: Bool
    let liveURL: String

    var hasCaptionHTML: Bool { captionHTML != nil }
    var hasCaption: Bool { caption != nil }
    var hasDate: Bool { date != nil }
    /// Whether the figure has a caption (a shown caption or a date).
    var hasDetails: Bool { showCaption || date != nil }
    var hasCamera: Bool { !camera.isEmpty }
    var hasCredits: Bool { creator != nil || copyright != nil }
    var hasCreator: Bool { creator != nil }
    var hasCopyright: Bool { copyright != nil }
    var hasPeople: Bool { !people.isEmpty }
    var hasPlaces: Bool { !places.isEmpty }

    var mustache: [String: Any] {
        var values: [String: Any] = [
            "title": title,
            "caption": caption ?? "",
            "captionHTML": captionHTML ?? "",
            "hasCaptionHTML": hasCaptionHTML,
            "hasCaption": hasCaption,
            "showCaption": showCaption,
            "date": date ?? "",
            "isoDate": isoDate ?? "",
            "hasDate": hasDate,
            "hasDetails": hasDetails,
            "camera": camera.map(\.mustache),
            "hasCamera": hasCamera,
            "keywords": keywords.map(\.mustache),
            "hasKeywords": hasKeywords,
            "creator": creator ?? "",
            "copyright": copyright ?? "",
            "hasCredits": hasCredits,
            "hasCreator": hasCreator,
            "hasCopyright": hasCopyright,
            "people": people.map(\.mustache),
            "hasPeople": hasPeople,
            "places": places.map(\.mustache),
            "hasPlaces": hasPlaces,
            "fileName": fileName,
            "position": position,
            "count": count,
            "isVideo": isVideo,
            "videoURL": videoURL,
            "duration": duration,
            "poster": poster,
            "isLive": isLive,
            "liveURL": liveURL,
        ]
        image.add(to: &values)
        return values
    }
}

/// One camera setting on a photo's page: its name in the site's language, and its value.
struct CameraSetting: Sendable {
    let name: String
    let value: String

    var mustache: [String: Any] { ["name": name, "value": value] }
}

/// A tag, person or place a photo is under, with the link to its page when the photo is on it
/// (not for photos of hidden albums).
struct TagLink: Sendable {
    let name: String
    let url: String?

    var mustache: [String: Any] {
        var values: [String: Any] = ["name": name]
        if let url { values["url"] = url }
        return values
    }
}

/// The way back from a photo's page to its album ("Holidays").
struct AlbumLink: Sendable {
    let name: String
    /// The album's page that holds the photo's tile, at the tile (`#p<position>`).
    let url: String

    var mustache: [String: Any] { ["name": name, "url": url] }
}

/// A published original's download link.
struct OriginalDownload: Sendable {
    let url: String
    /// Its pixel size and file size ("4,000 × 3,000, 5.2 MB").
    let label: String
    /// The name it downloads under: the photo's own file name.
    let fileName: String

    var mustache: [String: Any] { ["url": url, "label": label, "fileName": fileName] }
}
