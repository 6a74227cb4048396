import Foundation
import Gallery
import Imaging

/// A photo's images made from one decode: what a build writes into the site, or a shard into
/// the store.
struct RenderedImages: Sendable {
    /// Sizes, colour and file sizes, as the store records them.
    var images: StoredImages
    /// Per image (by ascending width), per format made, the encoded file.
    var encoded: [[[UInt8]]]
}

/// How a photo's images are made: widths, formats and settings, the same for a one-machine
/// build, a shard and a final build, so that they make the same bytes.
struct ImageRecipe: Sendable {
    var widths: [Int]
    /// The formats every image is made in: the main one (`<img>`) first.
    var formats: [EncodeFormat]
    var limits: DecodeLimits
    /// Per format (in the order of `formats`), what its images depend on besides the photo.
    var settings: [ImageSettingsKey]
    /// Whether JPEG images keep the photo's GPS position.
    var keepGPS: Bool
    /// The colour space of the images (sRGB, or Display P3 for wide-gamut photos).
    var colour: OutputColour

    init(widths: [Int], formats: [EncodeFormat], limits: DecodeLimits, settings: [ImageSettingsKey], keepGPS: Bool, colour: OutputColour = .sRGB) {
        self.widths = widths
        self.formats = formats
        self.limits = limits
        self.settings = settings
        self.keepGPS = keepGPS
        self.colour = colour
    }

    /// The recipe of a build with `options`.
    init(options: SiteOptions) {
        self.init(
            widths: options.allImageWidths, formats: options.allImageFormats, limits: options.limits,
            settings: options.allImageFormats.map(options.imageSettingsKey(for:)), keepGPS: options.keepGPS,
            colour: options.colour)
    }

    /// The store entry of the photo whose content hash is `hash` and size `size`.
    func storeKey(hash: String, size: Int) -> String {
        // An entry's images depend on the colour setting when the photo is wide-gamut, which
        // is known only once it is made: every entry's key includes it.
        RenditionStore.key(hash: hash, size: size, settings: settings.map { $0.wide(colour).stored })
    }

    /// Reads `photo` and makes its images in the formats at `indices` (of `formats`), from one
    /// decode; JPEG images get the photo's GPS position back when the recipe keeps it.
    /// `source`, when given, is decoded instead of the photo's file (a video's poster frame).
    func render(_ photo: GalleryPhoto, formats indices: [Int], source: [UInt8]? = nil) -> Result<RenderedImages, ImagingError> {
        let bytes: [UInt8]
        if let source {
            bytes = source
        } else {
            do throws(SourceFileError) {
                bytes = [UInt8](try SourceFile.open(photo.sourcePath, scanned: photo.scannedFile).readAll())
            } catch {
                return .failure(.io(path: photo.relativePath, reason: error.description))
            }
        }
        let set: RenditionSet
        do throws(ImagingError) {
            set = try Renditions.make(from: bytes, widths: widths, formats: indices.map { formats[$0] }, limits: limits, colour: colour)
        } catch {
            return .failure(error)
        }
        // The GPS position goes back into JPEG images only when the site keeps it.
        let gps = keepGPS && photo.info.format == .jpeg ? GPSMetadata.block(fromJPEG: bytes) : nil
        let encoded = set.renditions.map { rendition in
            indices.enumerated().map { position, format in
                var file = rendition.encodings[position]
                if let gps, case .jpeg = formats[format] { file = GPSMetadata.inserting(gps, into: file) }
                return file
            }
        }
        let images = StoredImages(
            width: set.info.displayWidth, height: set.info.displayHeight, color: set.averageColor.hex,
            renditions: set.renditions.map { StoredImages.Size(width: $0.width, height: $0.height) },
            formats: indices.map { formats[$0].fileExtension }, fileSizes: encoded.map { $0.map(\.count) },
            warnings: set.warnings, wideGamut: set.wideGamut)
        return .success(RenderedImages(images: images, encoded: encoded))
    }

    /// Whether a store entry holds this recipe's images at `widths` (ascending) in every format.
    func matches(_ stored: StoredImages, widths: [Int]) -> Bool {
        stored.renditions.map(\.width) == widths && stored.formats == formats.map(\.fileExtension)
    }

    /// The images of `photo` (content hash `hash`) in `store`: taken from it when it holds
    /// them (checked: every value possible for this photo, every file's content the hash the
    /// entry recorded), else made and added to it. `widths` are the widths the photo gets.
    /// Returns the entry's key and images, whether this call made them, and why the entry the
    /// store held could not be used, when it was damaged (it is then made again and replaced).
    func stored(
        _ photo: GalleryPhoto, hash: String, widths: [Int], in store: RenditionStore
    ) -> Result<(key: String, images: StoredImages, made: Bool, damage: String?), PhotoFailure> {
        let key = storeKey(hash: hash, size: photo.fileSize)
        var damage: String?
        switch store.check(key, verify: true, display: (photo.info.displayWidth, photo.info.displayHeight)) {
        case .found(let images) where matches(images, widths: widths):
            return .success((key, images, false, nil))
        case .damaged(let reason):
            damage = "its images in the store (\(store.entryPath(key))) are damaged: \(reason); they are made again"
        case .found, .missing:
            break
        }
        let rendered: RenderedImages
        switch render(photo, formats: Array(formats.indices)) {
        case .success(let value): rendered = value
        case .failure(let error): return .failure(.image(error))
        }
        guard rendered.images.renditions.map(\.width) == widths else {
            return .failure(.image(.processingFailed("made images \(rendered.images.renditions.map(\.width)) px wide, not the planned \(widths)")))
        }
        do throws(SiteError) {
            try store.put(key, images: rendered.images, encoded: rendered.encoded)
        } catch {
            return .failure(.write(error))
        }
        return .success((key, rendered.images, true, damage))
    }
}
