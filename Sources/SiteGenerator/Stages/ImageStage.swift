import Gallery
import Imaging

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
        var imagesWritten = 0
        var photosMade = 0
        var photosReused = 0
    }

    var work: PhotoWork
    var jobs: Int

    func run(
        scan: ScanStage.Output, images: ImagePlanStage.Output, previous: [String: BuildManifest.PhotoRecord],
        progress: @Sendable (BuildEvent) -> Void
    ) async throws(SiteError) -> Output {
        var plan = scan.plan
        let results = try await process(plan: plan, images: images, previous: previous, progress: progress)
        var output = Output(plan: plan, published: [], problems: [])
        for (index, outcome) in results.enumerated() {
            switch outcome {
            case .success(let result):
                output.imagesWritten += result.imagesWritten
                if result.reused { output.photosReused += 1 } else { output.photosMade += 1 }
                output.published.append(PublishedPhoto(planned: plan.photos[index], images: result.record))
            case .failure(let error):
                let problem = ScanProblem(path: plan.photos[index].photo.relativePath, reason: error.description)
                output.problems.append(problem)
                progress(.skipped(problem))
                output.published.append(nil)
            }
        }
        plan.keepPhotos { output.published[$0] != nil }
        output.plan = plan
        return output
    }

    private func process(
        plan: SitePlan, images: ImagePlanStage.Output, previous: [String: BuildManifest.PhotoRecord],
        progress: @Sendable (BuildEvent) -> Void
    ) async throws(SiteError) -> [Result<PhotoResult, ImagingError>] {
        let count = plan.photos.count
        var results = [Result<PhotoResult, ImagingError>?](repeating: nil, count: count)
        var firstFailure: SiteError?
        let work = self.work
        let staged = images.staged
        await withTaskGroup(of: (Int, Result<PhotoResult, PhotoFailure>).self) { group in
            var next = 0
            var done = 0
            func startNext() {
                guard next < count else { return }
                let index = next
                next += 1
                let photo = plan.photos[index].photo
                let paths = plan.imagePaths(photo: index, widths: work.widths, formats: work.formats)
                let photoPlan = images.photos[index]
                group.addTask {
                    switch photoPlan {
                    case .unreadable(let error): return (index, .failure(.image(error)))
                    case .planned(let hash, let decision):
                        return (index, work.apply(decision, to: photo, hash: hash, paths: paths, previous: previous, staged: staged))
                    }
                }
            }
            for _ in 0..<min(jobs, count) { startNext() }
            while let (index, outcome) = await group.next() {
                switch outcome {
                case .success(let result):
                    results[index] = .success(result)
                    for warning in result.warnings { progress(.warning("\(plan.photos[index].photo.relativePath): \(warning)")) }
                case .failure(.image(let error)):
                    results[index] = .failure(error)
                case .failure(.write(let error)):
                    firstFailure = firstFailure ?? error
                    group.cancelAll()
                    continue
                }
                done += 1
                let reused = (try? results[index]?.get().reused) ?? false
                progress(.photoDone(done: done, total: count, path: plan.photos[index].photo.relativePath, reused: reused))
                if firstFailure == nil { startNext() }
            }
        }
        if let firstFailure { throw firstFailure }
        return results.map { $0! }
    }
}
