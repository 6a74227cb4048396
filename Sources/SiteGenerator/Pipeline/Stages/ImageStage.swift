import Catalog
import Gallery
import Imaging
import Support

/// The third stage: carries out each photo's image plan, `jobs` photos at a time: keeps the
/// images, moves the staged ones into place, or makes them from one decode. A photo that cannot
/// be decoded is skipped and reported; a file that cannot be written stops the build.
struct ImageStage {
    static let name = "images"

    struct Output: Sendable {
        /// The plan without the photos that were skipped (and albums left empty by them).
        var plan: SitePlan
        /// Per photo of the plan, as published; nil for a photo that was skipped.
        var published: [PublishedPhoto?]
        /// The photos skipped here, and why.
        var problems: [ScanProblem]
        /// The records that differ from the catalog's, by source path.
        var changedRecords: [(String, BuildManifest.PhotoRecord)] = []
        var imagesWritten = 0
        var photosMade = 0
        var photosReused = 0
        /// Photos whose images were taken from the store, made there by a shard.
        var photosFromStore = 0
    }

    var work: PhotoWork
    var jobs: Int

    /// Carries out `images` for the photos of `scan`. `previous` holds the catalog's records,
    /// which this build goes by.
    func run(
        scan: ScanStage.Output, images: ImagePlanStage.Output, previous: PhotoRecords, progress: @Sendable (BuildEvent) -> Void
    ) async throws(SiteError) -> Output {
        var plan = scan.plan
        var output = Output(plan: plan, published: [PublishedPhoto?](repeating: nil, count: plan.photos.count), problems: [])
        var failures: [(index: Int, reason: String)] = []
        // What a photo's images come to: it is published, and its record is a change to the
        // catalog's or not. Worked out on the core that made or kept the images.
        let pendingPhotos = images.pending.photoPaths
        // The catalog keeps the records of the photos kept as they were (the others it forgot).
        // (`Boxed`'s == is the box's identity when the record is shared: no second compare.)
        @Sendable func isChange(_ path: String, _ record: Boxed<BuildManifest.PhotoRecord>) -> Bool {
            !pendingPhotos.contains(path) || previous.boxed(path) != record
        }
        let publish: @Sendable (Int, PhotoResult) -> Accepted = { [plan] index, result in
            let path = plan.photos[index].photo.relativePath
            // A record that is what the catalog holds is shared with it, not copied (most of a
            // large library's rebuild).
            let record = previous.boxed(path).flatMap { $0.wrappedValue == result.record ? $0 : nil }
                ?? Boxed(wrappedValue: result.record)
            return Accepted(published: PublishedPhoto(planned: plan.photos[index], sharing: record), changed: isChange(path, record),
                            reused: result.reused, fromStore: result.fromStore, imagesWritten: result.imagesWritten)
        }
        // A photo whose earlier record stays as it is (``PhotoWork/unchangedRecord(of:hash:previous:)``):
        // the record is the catalog's own and the photo is kept (so among the pending photos):
        // no change to look up.
        let publishUnchanged: @Sendable (Int, Boxed<BuildManifest.PhotoRecord>) -> Accepted = { [plan] index, record in
            Accepted(published: PublishedPhoto(planned: plan.photos[index], sharing: record),
                     changed: false, reused: true, fromStore: false, imagesWritten: 0)
        }
        try await process(plan: plan, images: images, previous: previous, publish: publish, publishUnchanged: publishUnchanged,
                          progress: progress) { index, outcome in
            switch outcome {
            case .success(let accepted):
                output.imagesWritten += accepted.imagesWritten
                if accepted.reused { output.photosReused += 1 } else { output.photosMade += 1 }
                if accepted.fromStore { output.photosFromStore += 1 }
                output.published[index] = accepted.published
                if accepted.changed { output.changedRecords.append((plan.photos[index].photo.relativePath, accepted.published.images)) }
            case .failure(let error):
                failures.append((index, error.text))
            }
        }
        for failure in failures.sorted(by: { $0.index < $1.index }) {
            let problem = ScanProblem(path: plan.photos[failure.index].photo.relativePath, reason: failure.reason)
            output.problems.append(problem)
            progress(.skipped(problem))
        }
        plan.keepPhotos { output.published[$0] != nil }
        output.plan = plan
        return output
    }

    /// A photo's images made or kept, as it is published (``run``'s `publish`), with what the
    /// build's report counts of it. (Not its ``PhotoResult``: a kept photo's record is shared
    /// in its ``PublishedPhoto``, and a copy of it per photo was a reference count per field.)
    private struct Accepted: Sendable {
        var published: PublishedPhoto
        /// Whether its record differs from the catalog's.
        var changed: Bool
        var reused: Bool
        var fromStore: Bool
        var imagesWritten: Int
    }

    private func process(
        plan: SitePlan, images: ImagePlanStage.Output, previous: PhotoRecords, publish: @escaping @Sendable (Int, PhotoResult) -> Accepted,
        publishUnchanged: @escaping @Sendable (Int, Boxed<BuildManifest.PhotoRecord>) -> Accepted,
        progress: @Sendable (BuildEvent) -> Void, accept: (Int, Result<Accepted, SkipReason>) -> Void
    ) async throws(SiteError) {
        let count = plan.photos.count
        var firstFailure: SiteError?
        let work = self.work
        let staged = images.staged
        var done = 0
        // The bar counts each item by its work: a video made by its duration.
        let weights = (0..<count).map { ProgressWeight.units(of: plan.photos[$0].photo, job: images.videos[$0], encoder: work.video) }
        let totalUnits = weights.reduce(0, +)
        var unitsDone = 0.0
        func reportDone(_ index: Int, reused: Bool) {
            done += 1
            unitsDone += weights[index]
            progress(.photoDone(done: done, total: count, path: plan.photos[index].photo.relativePath, reused: reused,
                                units: unitsDone, totalUnits: totalUnits))
        }
        // Photos whose images all stay as they are need no decoding and no file: their records
        // are made here, without a task each (most of a large library's rebuild).
        var waiting: [Int] = []
        var keeping: [(index: Int, hash: String, formats: Set<Int>)] = []
        for index in 0..<count {
            guard case .planned(let hash, .keep(let formats)) = images.photos[index], formats.count == work.formats.count,
                  images.videos[index].map({ $0.decision == .keep }) ?? true
            else {
                waiting.append(index)
                continue
            }
            keeping.append((index, hash, formats))
        }
        await withTaskGroup(of: (Int, Result<PhotoResult, PhotoFailure>).self) { group in
            var next = 0
            func startNext() {
                guard next < waiting.count else { return }
                let index = waiting[next]
                next += 1
                let photo = plan.photos[index].photo
                let paths = plan.imagePaths(photo: index, widths: work.widths, formats: work.formats)
                let photoPlan = images.photos[index]
                let videoJob = images.videos[index]
                group.addTask {
                    switch photoPlan {
                    case .unreadable(let error): return (index, .failure(.image(error)))
                    case .planned(let hash, let decision):
                        return (index, work.apply(decision, video: videoJob, to: photo, hash: hash,
                                                  paths: paths, previous: previous, staged: staged))
                    }
                }
            }
            for _ in 0..<min(jobs, waiting.count) { startNext() }
            while let (index, outcome) = await group.next() {
                var reused = false
                switch outcome {
                case .success(let result):
                    reused = result.reused
                    for warning in result.warnings { progress(.warning("\(plan.photos[index].photo.relativePath): \(warning)")) }
                    for log in result.log { progress(.log("ffmpeg on \(plan.photos[index].photo.relativePath):\n\(log)")) }
                    accept(index, .success(publish(index, result)))
                case .failure(.image(let error)):
                    accept(index, .failure(SkipReason(error.description)))
                case .failure(.video(let error)):
                    accept(index, .failure(SkipReason(error.description)))
                case .failure(.write(let error)):
                    firstFailure = firstFailure ?? error
                    group.cancelAll()
                    continue
                }
                reportDone(index, reused: reused)
                if firstFailure == nil { startNext() }
            }
        }
        if let firstFailure { throw firstFailure }
        // Then the photos kept, on every core, a batch at a time (not every photo's new record at
        // once): after those made, so that a photo changed in a large library (`cascade serve`
        // waits for it) has its images before the others' records are gone through.
        for run in indexRuns(keeping.count, length: 2_000) {
            let batch = Array(keeping[run])
            let results = parallelMap(batch, jobs: jobs) { kept -> Result<Accepted, PhotoFailure> in
                let photo = plan.photos[kept.index].photo
                // Most photos: the earlier record itself, neither paths nor a record worked out.
                // (Debug builds, the tests', check it is the record that would be made.)
                if images.videos[kept.index] == nil, let record = work.unchangedRecord(of: photo, hash: kept.hash, previous: previous) {
                    assert({
                        let paths = plan.imagePaths(photo: kept.index, widths: work.widths, formats: work.formats)
                        let made = work.apply(.keep(formats: kept.formats), to: photo, hash: kept.hash, paths: paths, previous: previous, staged: staged)
                        guard case .success(let result) = made else { return false }
                        return result.record == record.wrappedValue
                    }(), "the earlier record of \(photo.relativePath) is not the one its kept images make")
                    return .success(publishUnchanged(kept.index, record))
                }
                let paths = plan.imagePaths(photo: kept.index, widths: work.widths, formats: work.formats)
                let outcome = work.apply(.keep(formats: kept.formats), video: images.videos[kept.index], to: photo,
                                         hash: kept.hash, paths: paths, previous: previous, staged: staged)
                // How it is published, worked out here on every core rather than by `accept`.
                return outcome.map { publish(kept.index, $0) }
            }
            for (kept, outcome) in zip(batch, results) {
                switch outcome {
                case .success(let accepted): accept(kept.index, .success(accepted))
                case .failure(.image(let error)): accept(kept.index, .failure(SkipReason(error.description)))
                case .failure(.video(let error)): accept(kept.index, .failure(SkipReason(error.description)))
                case .failure(.write(let error)): throw error
                }
                reportDone(kept.index, reused: true)
            }
        }
    }
}

/// Why a photo or video was skipped, in words a user understands.
struct SkipReason: Error {
    var text: String
    init(_ text: String) { self.text = text }
}
