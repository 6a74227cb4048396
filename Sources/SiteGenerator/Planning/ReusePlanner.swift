import Catalog
import Imaging

/// What a build does with one photo's images.
enum ImageDecision: Equatable, Sendable {
    /// The images at the photo's own paths were made from this content with these settings:
    /// the formats in `formats` (indices into the build's formats) are kept as they are, any
    /// other format is made.
    case keep(formats: Set<Int>)
    /// The same content was published from another source path (a renamed or moved photo, or a
    /// copy): the images listed by that path's record are moved (or copied) to this photo's
    /// paths. Every move of a build is staged before any file is written, so that any
    /// permutation of names (a swap, a rotation) ends exactly like a clean build.
    case move(from: String)
    /// Nothing can be reused: the images are made from the photo.
    case make
}

/// What a build does with a video's web version.
enum VideoDecision: Equatable, Sendable {
    /// The web version at the video's own path was made from this content with these settings.
    case keep
    /// The same content was published before under another name: its web version, at `from`
    /// (site-relative), is to be linked into the build's temporary folder before any file is
    /// written (``StagingStage``, which turns this into `move` or, when it cannot, `make`).
    case take(from: String)
    /// The same content was published before under another name: its web version was linked
    /// to `staged` (absolute, in the build's temporary folder) and is moved into place.
    case move(staged: String)
    /// It is made with ffmpeg.
    case make
}

/// A video's web version, or a Live Photo's motion clip, to be published.
struct VideoJob: Sendable {
    var decision: VideoDecision
    /// Where it goes (site-relative).
    var path: String
    /// For a motion clip, its content hash (a video's is the item's own).
    var sourceHash: String?
    /// The settings its catalog record names: this build's, or the earlier build's when it is
    /// kept without ffmpeg (so that a build with ffmpeg makes it again only if they changed).
    var settings: String
}

/// Decides, without touching a file, what happens to each photo's images: a pure function of
/// the catalog's records, the photo's content hash, the paths and settings this build wants,
/// and which files exist.
struct ReusePlanner: Sendable {
    /// What an earlier build made, by source path.
    var previous: PhotoRecords
    /// Per format of this build (main first), the settings its images depend on.
    var settings: [ImageSettingsKey]
    /// The `colour` setting, which the images of wide-gamut photos depend on besides
    /// (``ImageSettingsKey/wide(_:)``); nil to match any photo's images alone.
    var colour: OutputColour?
    /// Whether a site-relative file exists.
    var exists: @Sendable (String) -> Bool
    /// Source paths of the earlier records, by content hash (the least path wins, so the choice
    /// does not depend on dictionary order): made when a photo first needs it (a rebuild whose
    /// photos all stay where they were never does).
    private let pathsByHash: Lazy<[String: String]>

    init(previous: PhotoRecords, settings: [ImageSettingsKey], colour: OutputColour? = nil, exists: @escaping @Sendable (String) -> Bool) {
        self.previous = previous
        self.settings = settings
        self.colour = colour
        self.exists = exists
        pathsByHash = Lazy {
            // The least path per hash, without sorting every path of a large library.
            var byHash: [String: String] = [:]
            byHash.reserveCapacity(previous.count)
            for (path, record) in previous.boxes {
                let hash = record.wrappedValue.contentHash
                if let earlier = byHash[hash], earlier <= path { continue }
                byHash[hash] = path
            }
            return byHash
        }
    }

    /// The decision for the photo at source path `path` whose content hash is `hash`, which
    /// this build wants at `wanted` (per format, its files by ascending width `widths`).
    func decide(path: String, hash: String, widths: [Int], wanted: [[String]]) -> ImageDecision {
        // Records are read in place, not copied (this is asked of every photo of a library).
        if let record = previous.boxed(path), record.wrappedValue.contentHash == hash {
            let kept = reusableFormats(record.wrappedValue, widths: widths, wanted: wanted)
            if !kept.isEmpty { return .keep(formats: kept) }
        }
        if let from = pathsByHash.value[hash], let record = previous.boxed(from), movable(record.wrappedValue, widths: widths) {
            return .move(from: from)
        }
        return .make
    }

    /// The formats whose wanted files `record` lists, made with the same settings, and which
    /// are still there.
    func reusableFormats(_ record: BuildManifest.PhotoRecord, widths: [Int], wanted: [[String]]) -> Set<Int> {
        guard record.renditions.count == widths.count, zip(record.renditions, widths).allSatisfy({ $0.width == $1 }) else { return [] }
        return Set(settings.indices.filter { record.files(madeWith: settings[$0], colour: colour) == wanted[$0] && wanted[$0].allSatisfy(exists) })
    }

    /// Whether `record`'s images are those of every format this build makes, at the same
    /// widths, and all still there.
    func movable(_ record: BuildManifest.PhotoRecord, widths: [Int]) -> Bool {
        guard record.renditions.count == widths.count, zip(record.renditions, widths).allSatisfy({ $0.width == $1 }) else { return false }
        return settings.allSatisfy { record.files(madeWith: $0, colour: colour).map { $0.allSatisfy(exists) } ?? false }
    }

    /// For a move from `record`: per format, its files by ascending width.
    func sources(of record: BuildManifest.PhotoRecord) -> [[String]] {
        settings.map { record.files(madeWith: $0, colour: colour)! }
    }
}

