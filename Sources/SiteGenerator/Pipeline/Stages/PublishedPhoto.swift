import Gallery
import Imaging
import Support

/// A photo as the site publishes it: where it goes, its images, and its original when the site
/// offers originals for download.
struct PublishedPhoto: Sendable {
    /// Its place in the site: album, folder and slug.
    var planned: SitePlan.Photo
    /// Its images: display size, placeholder colour, renditions (as the catalog records them),
    /// read in place (a read of one of its fields does not copy the record, as a `@Boxed`
    /// property's getter did, every string of it retained and released, for every photo of
    /// every wall).
    var images: PhotoImages {
        _read { yield sharedImages.wrappedValue }
        set { sharedImages = Boxed(wrappedValue: newValue) }
    }
    /// The images, kept out of line: a photo whose images were kept shares its record with the
    /// catalog's.
    private var sharedImages: Boxed<PhotoImages>
    /// Its original file, published beside the album's page, if it is.
    var original: PublishedOriginal?

    /// A published photo whose images are `images`, shared, not copied.
    init(planned: SitePlan.Photo, sharing images: Boxed<PhotoImages>, original: PublishedOriginal? = nil) {
        self.planned = planned
        sharedImages = images
        self.original = original
    }

    /// The source photo.
    var photo: GalleryPhoto {
        _read { yield planned.photo }
    }
}

/// A photo's original file as published for download.
struct PublishedOriginal: Sendable {
    /// Site-relative path.
    var path: String
    /// Size in bytes.
    var size: Int
}
