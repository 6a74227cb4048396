import Gallery

/// A photo as the site publishes it: where it goes, its images, and its original when the site
/// offers originals for download.
struct PublishedPhoto: Sendable {
    /// Its place in the site: album, folder and slug.
    var planned: SitePlan.Photo
    /// Its images: display size, placeholder colour, renditions (as the catalog records them).
    var images: PhotoImages
    /// Its original file, published beside the album's page, if it is.
    var original: PublishedOriginal?

    /// The source photo.
    var photo: GalleryPhoto { planned.photo }
}

/// A photo's original file as published for download.
struct PublishedOriginal: Sendable {
    /// Site-relative path.
    var path: String
    /// Size in bytes.
    var size: Int
}
