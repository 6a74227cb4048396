import Catalog
import Gallery
import Imaging
import Support

/// What the build does with one photo's images, decided before any file is written.
enum PhotoPlan: Sendable {
    /// The photo cannot be read: it is skipped.
    case unreadable(ImagingError)
    /// The photo's content hash, and what happens to its images.
    case planned(hash: String, decision: ImageDecision)
}

/// The second stage: each photo's content hash and reuse decision (``ReusePlanner``), what its
/// video or motion clip needs, which files moves take, which files this build may write that
/// the catalog does not list yet, and which of the catalog's records it replaces. It decides
/// and writes nothing: ``StagingStage`` then stages the moves and tells the catalog.
struct ImagePlanStage {
    static let name = "plan"

    struct Output: Sendable {
        /// Per photo of the plan, what happens to its images.
        var photos: [PhotoPlan]
        /// Per photo of the plan, what happens to its web version when it is a video, or to
        /// its motion clip when it is a Live Photo.
        var videos: [VideoJob?] = []
        /// The photos whose images a move takes (with the earlier files it takes, in order) or
        /// whose video's web version is taken (``VideoDecision/take(from:)``), in order: what
        /// ``StagingStage`` stages before any file is written.
        var toStage: [(photo: Int, files: [String])] = []
        /// Where the files that moves take were staged (absolute), by their site-relative path:
        /// empty until ``StagingStage``.
        var staged: [String: String] = [:]
        /// The files this build may make that the catalog does not list yet, and the catalog's
        /// photo records this build replaces (``Catalog/prepare(addingFiles:forgettingPhotos:)``).
        var adding: [String] = []
        var forgetting: [String] = []
        /// Source paths of the photos whose images stay as they are.
        var kept: Set<String>
        /// What the catalog holds now that this stage changed it.
        var pending: CatalogState
    }

    var work: PhotoWork
    var jobs: Int

    func run(scan: ScanStage.Output, earlier: EarlierBuild) -> Output {
        let plan = scan.plan
        let previous = earlier.stored.photos
        let scanned = earlier.scanned
        let planner = ReusePlanner(previous: previous, settings: work.settings, colour: work.colour, exists: earlier.listing.isRegularFile)
        let work = self.work
        // Hashes and decisions on every core (they read files and the listing, nothing else);
        // moves are staged afterwards, one photo after another. A settled photo
        // (``SettledPhotos``) keeps its images as the last build left them, its files not
        // worked out.
        let settled = scan.settled
        let allFormats = Set(work.formats.indices)
        let photos = parallelMap(Array(plan.photos.indices), jobs: jobs) { index -> PhotoPlan in
            let photo = plan.photos[index].photo
            let record = previous.boxed(photo.relativePath)
            if settled[index], let record {
                let decided = PhotoPlan.planned(hash: record.wrappedValue.contentHash, decision: .keep(formats: allFormats))
                // (Debug builds, the tests', check it is the decision made in full.)
                assert({
                    let (widths, wanted) = plan.imageFiles(photo: index, widths: work.widths, formats: work.formats)
                    return planner.decide(path: photo.relativePath, hash: record.wrappedValue.contentHash, widths: widths, wanted: wanted)
                        == .keep(formats: allFormats) && (try? work.contentHash(of: photo, previous: record).get()) == record.wrappedValue.contentHash
                }(), "\(photo.relativePath): the settled photo's decision is not the one made in full")
                return decided
            }
            let hash: Result<String, ImagingError>
            // A shard's record of this very file (a sharded build) spares reading it.
            if !(record?.wrappedValue.matches(photo.identity) ?? false), let shard = scanned[photo.relativePath], shard.matches(photo.identity) {
                hash = .success(shard.contentHash)
            } else {
                hash = work.contentHash(of: photo, previous: record)
            }
            switch hash {
            case .failure(let error): return .unreadable(error)
            case .success(let hash):
                let (widths, wanted) = plan.imageFiles(photo: index, widths: work.widths, formats: work.formats)
                return .planned(hash: hash, decision: planner.decide(path: photo.relativePath, hash: hash, widths: widths, wanted: wanted))
            }
        }
        var videos = [VideoJob?](repeating: nil, count: photos.count)
        var toStage: [(photo: Int, files: [String])] = []
        // The photos with more to decide, in order: moves to stage, videos and motion clips
        // (found on every core; most of a large library's photos have none of these).
        let decided = photos
        @Sendable func hasClip(_ index: Int) -> Bool { plan.photos[index].photo.video != nil || plan.photos[index].photo.motion != nil }
        let special = Array(parallelMap(indexRuns(decided.count, length: 4096), jobs: jobs) { run in
            run.filter { index in
                if case .planned(_, .move) = decided[index] { return true }
                return hasClip(index)
            }
        }.joined())
        let hasVideos = special.contains(where: hasClip)
        // The earlier web versions and motion clips by content hash and settings (the least
        // path wins, so the choice does not depend on dictionary order).
        var videoSources: [String: (path: String, video: BuildManifest.VideoRecord)] = [:]
        for (path, record) in hasVideos ? previous.boxes : [:] {
            guard let video = record.wrappedValue.video else { continue }
            let key = (video.sourceHash ?? record.wrappedValue.contentHash) + "|" + video.settings
            if let chosen = videoSources[key], chosen.path < path { continue }
            videoSources[key] = (path, video)
        }
        let sources = videoSources.mapValues(\.video)
        for index in special {
            guard case .planned(let hash, let decision) = photos[index] else { continue }
            let path = plan.photos[index].photo.relativePath
            var files: [String] = []
            if case .move(let from) = decision { files = Array(planner.sources(of: previous[from]!).joined()) }
            // (The photo is read in place, not copied.)
            if let info = plan.photos[index].photo.video {
                let wanted = plan.videoPath(photo: index)
                let (decision, settings) = videoDecision(
                    path: path, sourceHash: hash, settings: work.videoSettingsKey(for: info), wanted: wanted, previous: previous, sources: sources)
                videos[index] = VideoJob(decision: decision, path: wanted, settings: settings)
            } else if let motion = plan.photos[index].photo.motion, let motionHash = motionHash(motion, previous: previous[path]) {
                let wanted = plan.livePath(photo: index)
                let (decision, settings) = videoDecision(
                    path: path, sourceHash: motionHash, settings: work.liveSettingsKey(for: motion.video), wanted: wanted, previous: previous, sources: sources)
                videos[index] = VideoJob(decision: decision, path: wanted, sourceHash: motionHash, settings: settings)
            }
            if case .move = decision {
                toStage.append((index, files))
            } else if case .take? = videos[index]?.decision {
                toStage.append((index, []))
            }
        }
        // The photos kept, the catalog's photos to forget, and what it then holds.
        // (Read from `decided`: the staging turns only moves into makes.)
        @Sendable func keptPhotos() -> (kept: Set<String>, forgetting: [String], remaining: Set<String>) {
            var kept = Set<String>(minimumCapacity: decided.count)
            // The catalog's records of the photos not kept (few in a rebuild).
            var notKept: [String] = []
            for (index, photo) in decided.enumerated() {
                let path = plan.photos[index].photo.relativePath
                if case .planned(_, .keep) = photo {
                    kept.insert(path)
                } else if earlier.stored.photos.boxed(path) != nil {
                    notKept.append(path)
                }
            }
            // The records to forget: those of photos not kept, and of photos gone from the
            // folder. A kept photo has the catalog's record, so that when the photos with a
            // record are as many as the records, none is gone, and the catalog's every record
            // need not be asked about.
            let forgetting = kept.count + notKept.count == earlier.stored.photos.count
                ? notKept : earlier.stored.photos.keys.filter { !kept.contains($0) }
            // A photo is kept only when the catalog has its record: what the catalog holds once
            // the others are forgotten is `kept`.
            return (kept, forgetting, kept)
        }
        // The files the catalog does not list yet: the planned ones no earlier build made.
        // Asked of a large library's every planned file in runs on every core, one core first
        // taking the photos' part (as large).
        enum Part: Sendable { case photos, planned(Int) }
        enum Done: Sendable { case photos(kept: Set<String>, forgetting: [String], remaining: Set<String>), planned([String]) }
        let parts = [Part.photos] + scan.planned.indices.map(Part.planned)
        let done = parallelMap(parts, jobs: jobs) { part -> Done in
            switch part {
            case .planned(let run):
                return Done.planned(scan.planned[run].filter { !earlier.owned.contains($0) && !scan.refused.contains($0) })
            case .photos:
                let photos = keptPhotos()
                return Done.photos(kept: photos.kept, forgetting: photos.forgetting, remaining: photos.remaining)
            }
        }
        guard case .photos(let kept, let forgetting, let remaining) = done[0] else { preconditionFailure("the photos' part comes first") }
        var adding: [String] = []
        for case .planned(let files) in done.dropFirst() { adding += files }
        // Without a catalog, the files the site shows to be the tool's: what this build no
        // longer makes of them is deleted, as with a catalog's.
        adding += earlier.recovered
        adding = Array(Set(adding))
        let pending = CatalogState(files: earlier.stored.files + adding, pages: earlier.stored.pages, photoPaths: remaining)
        var output = Output(photos: photos, kept: kept, pending: pending)
        output.videos = videos
        output.toStage = toStage
        output.adding = adding
        output.forgetting = forgetting
        return output
    }

    /// A motion clip's content hash: the earlier record's when the clip's identity is
    /// unchanged, else the hash of its bytes; nil when it cannot be read (the photo is then
    /// published without its motion).
    private func motionHash(_ motion: MotionClip, previous: BuildManifest.PhotoRecord?) -> String? {
        if let video = previous?.video, let hash = video.sourceHash, video.sourceIdentity == motion.identity { return hash }
        guard let file = try? SourceFile.open(motion.sourcePath, scanned: motion.scannedFile) else { return nil }
        return PhotoWork.streamHash(file)
    }

    /// What happens to a video's web version, and the settings its record names: kept when the
    /// catalog says it was made from this content with these settings at this path and it is
    /// there; else taken (linked by ``StagingStage`` before any file is written, so that swapped
    /// names end like a clean build) from a record of the same content and settings; else made.
    /// Without ffmpeg, nothing can be made: the one at this path made from this content is kept
    /// whatever its settings (they stay the record's), and anything else is "made" (which
    /// fails: the item is skipped, or a Live Photo published still).
    private func videoDecision(
        path: String, sourceHash: String, settings key: ClipSettingsKey, wanted: String, previous: PhotoRecords,
        sources: [String: BuildManifest.VideoRecord]
    ) -> (VideoDecision, settings: String) {
        let settings = key.stored
        if let record = previous[path], let video = record.video, (video.sourceHash ?? record.contentHash) == sourceHash,
           video.settings == settings || work.video == nil, video.path == wanted, work.writer.exists(wanted) {
            return (.keep, video.settings)
        }
        if work.video != nil, let source = sources[sourceHash + "|" + settings], work.writer.exists(source.path) {
            return (.take(from: source.path), settings)
        }
        return (.make, settings)
    }
}
