import Foundation
import Gallery
import Imaging
import Support

/// What one shard of a sharded build did.
public struct ShardReport: Sendable {
    /// The shard.
    public var shard: ShardSpec
    /// Photos of the whole photo folder.
    public var photos: Int
    /// Photos of this shard (by content hash).
    public var photosInShard: Int
    /// Photos of the shard whose images this run made into the store.
    public var photosMade: Int
    /// Photos of the shard whose images the store already held (an earlier or concurrent run).
    public var photosAlreadyStored: Int
    /// XMP sidecars this run read (the others' fields were those an earlier run left in the
    /// store, the file unchanged since).
    public var sidecarsRead = 0
    /// XMP sidecars the scan took (read, or kept in the store).
    public var sidecars = 0
    /// Files of the shard that were not usable photos, and why (files the scan skipped are
    /// reported by every shard).
    public var skipped: [ScanProblem]
    /// The store, absolute.
    public var store: String
}

/// One shard of a build split over machines: the image stage, for exactly the photos whose
/// content hash falls in the shard (``ShardSpec``), into a content-addressed store shared by
/// every shard (``RenditionStore``). No output folder, catalog or lock: shards need no
/// coordination and can run in any order, twice, at once, or again after a crash. The final
/// build (``SiteBuilder`` with ``SiteOptions/storeDirectory``) then places the images into the
/// site and makes the pages.
public struct ShardBuilder: Sendable {
    /// The build's options: the same as the final build's (its output folder is not used).
    public var options: SiteOptions
    /// The shard to make.
    public var shard: ShardSpec
    /// The store's folder.
    public var store: String

    /// Creates a shard's builder.
    public init(options: SiteOptions, shard: ShardSpec, store: String) {
        self.options = options
        self.shard = shard
        self.store = store
    }

    /// Makes the shard's images into the store. A photo that cannot be read is skipped and
    /// reported; only problems with the whole shard (options, folders, writing) throw. A
    /// cancelled shard stops between two steps (``SiteError/cancelled``).
    public func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) async throws(SiteError) -> ShardReport {
        // (The progress closure is called only while the shard runs: it does not escape it.)
        try await withoutActuallyEscaping(progress) { (progress) async throws(SiteError) -> ShardReport in
            try await build(progress)
        }
    }

    private func build(_ progress: @escaping @Sendable (BuildEvent) -> Void) async throws(SiteError) -> ShardReport {
        try options.validate()
        var runner = StepRunner<ShardContext>(progress: progress)
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: options.sourceDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .source("the photo folder \(options.sourceDirectory) does not exist or is not a folder")
        }
        let source = OutputSafety.realPath(options.sourceDirectory)
        let store = try Self.openStore(self.store, source: source, output: nil)
        var context = ShardContext(
            options: options, shard: shard, store: store, source: source,
            jobs: options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount, progress: progress)
        // The site's runner over the shard's own steps: a shard has no output folder, catalog or
        // pages, and reads only its own photos.
        _ = try await runner.run([.scanShard, .hashShard, .makeShardImages], on: &context)
        return context.report
    }

    /// What a shard by path takes as the header of another shard's photo, which it does not
    /// read (and then drops).
    static let notRead = ImageInfo(
        format: .jpeg, pixelWidth: 1, pixelHeight: 1, orientation: .up, displayWidth: 1, displayHeight: 1, metadata: PhotoMetadata())

    /// Opens (making it if needed) the store at `folder` for a build of `source` (absolute,
    /// real) into `output`: refused when it overlaps the photo folder (which is never written
    /// to) or lies inside the output folder (it would be published).
    static func openStore(_ folder: String, source: String, output: String?) throws(SiteError) -> RenditionStore {
        let root = OutputSafety.realPath(folder)
        if root == source || root.hasPrefix(source + "/") || source.hasPrefix(root + "/") || root == "/" {
            throw .store(path: folder, reason: "it overlaps the photo folder \(source), which is never written to; choose a store outside it")
        }
        if let output, root == output || root.hasPrefix(output + "/") || output.hasPrefix(root + "/") {
            throw .store(path: folder, reason: "it overlaps the output folder \(output); keep the store beside the site, not in it")
        }
        if let status = FileStatus(path: root), status.kind != .directory {
            throw .store(path: folder, reason: "it exists and is not a folder")
        }
        return try RenditionStore(root: root, create: true)
    }

    /// What the store at `folder` holds (`cascade store info`).
    public static func summary(store folder: String) throws(SiteError) -> StoreSummary {
        try RenditionStore(root: OutputSafety.realPath(folder), create: false).summary()
    }

    /// Removes from the store at `folder` every photo's images that none of the sites `keep`
    /// uses (as their last builds with this store recorded), and what killed writers left
    /// (`cascade store gc`). A site without a record is an error, and then nothing is removed.
    /// With `verify`, the kept entries' files are hashed too, and the damaged ones removed.
    public static func collectGarbage(store folder: String, keep: [String], verify: Bool = false) throws(SiteError) -> StoreCollection {
        let store = try RenditionStore(root: OutputSafety.realPath(folder), create: false)
        return try store.collectGarbage(keep: keep.map(OutputSafety.realPath), verify: verify)
    }
}

/// What a shard's steps share (``ShardBuilder/build(progress:)``, ``BuildStep``).
struct ShardContext {
    let options: SiteOptions
    let shard: ShardSpec
    let store: RenditionStore
    /// The photo folder: absolute, real.
    let source: String
    let jobs: Int
    let progress: @Sendable (BuildEvent) -> Void
    /// What earlier runs of the shards recorded.
    let records: ShardScan
    /// Of `records`, the photos by source path.
    var known: [String: ScannedPhoto] = [:]
    var scan: ScanResult!
    var plan: SitePlan!
    /// The shard's photos with their content hashes.
    var mine: [(photo: GalleryPhoto, hash: String)] = []
    var report: ShardReport!

    init(options: SiteOptions, shard: ShardSpec, store: RenditionStore, source: String, jobs: Int,
         progress: @escaping @Sendable (BuildEvent) -> Void) {
        self.options = options
        self.shard = shard
        self.store = store
        self.source = source
        self.jobs = jobs
        self.progress = progress
        records = ShardScan(store: store, source: source)
    }
}

/// The steps of a shard.
extension BuildStep where Context == ShardContext {
    /// Scans the photo folder. What earlier runs of the shards recorded spares probing an
    /// unchanged photo again (a shard run again after photos were added reads only those) and
    /// reading an unchanged sidecar again (its rating leaves a rejected photo out); a shard by
    /// path does not read another shard's photos at all.
    static var scanShard: BuildStep {
        BuildStep(ScanStage.name) { (context: inout ShardContext) throws(SiteError) in
            let (options, shard, jobs) = (context.options, context.shard, context.jobs)
            let known = context.records.load()
            let knownSidecars = context.records.loadSidecars()
            let scan: ScanResult
            do throws(GalleryError) {
                scan = try GalleryScanner(options: ScanOptions(sort: options.sort, limits: options.limits, concurrency: jobs))
                    .scan(sourceDirectory: context.source, title: options.title, known: { path, identity in
                        // By path, another shard's photo is not read at all.
                        if shard.assignment == .path, !shard.contains(path: path) { return ShardBuilder.notRead }
                        guard let record = known[path], record.matches(identity), record.probeVersion == ImageProbe.version else { return nil }
                        return record.info
                    }, knownSidecar: { path, identity in
                        guard let stored = knownSidecars[path], stored.identity == identity else { return nil }
                        return stored.fields
                    })
            } catch {
                throw .source(error.description)
            }
            for problem in scan.problems { context.progress(.skipped(problem)) }
            context.known = known
            context.plan = SitePlan(root: scan.root, jobs: jobs)
            context.scan = scan
        }
    }

    /// The content hash of each photo that may be the shard's (an unchanged photo's is the
    /// records'), and so the shard's photos.
    static var hashShard: BuildStep {
        BuildStep("hash") { (context: inout ShardContext) throws(SiteError) in
            let (shard, known, plan) = (context.shard, context.known, context.plan!)
            let candidates = plan.photos.map(\.photo).filter { shard.assignment == .content || shard.contains(path: $0.relativePath) }
            let hashes = parallelMap(candidates, jobs: context.jobs) { photo -> Result<String, ImagingError> in
                if let record = known[photo.relativePath], record.matches(photo.identity) { return .success(record.contentHash) }
                do throws(SourceFileError) {
                    let data = try SourceFile.open(photo.sourcePath, scanned: photo.scannedFile).readAll()
                    return .success(data.withUnsafeBytes { contentHash(raw: $0) })
                } catch {
                    return .failure(.io(path: photo.relativePath, reason: error.description))
                }
            }
            // A photo that cannot be read has no hash: it is reported by the final build.
            let mine = candidates.indices.compactMap { index -> (photo: GalleryPhoto, hash: String)? in
                guard case .success(let hash) = hashes[index], shard.assignment == .path || shard.contains(contentHash: hash) else { return nil }
                return (candidates[index], hash)
            }
            context.progress(.shard(index: shard.index, count: shard.count, photos: mine.count, of: plan.photos.count))
            context.mine = mine
        }
    }

    /// Makes the shard's photos' images into the store, `jobs` at a time, and records the
    /// shard's photos for the final build and the next runs.
    static var makeShardImages: BuildStep {
        BuildStep(ImageStage.name) { (context: inout ShardContext) async throws(SiteError) in
            let (shard, store, mine, progress) = (context.shard, context.store, context.mine, context.progress)
            let recipe = ImageRecipe(options: context.options)
            var report = ShardReport(
                shard: shard, photos: context.plan.photos.count, photosInShard: mine.count, photosMade: 0, photosAlreadyStored: 0,
                skipped: [], store: store.root)
            var failure: SiteError?
            await withTaskGroup(of: (Int, Result<(key: String, images: StoredImages, made: Bool, damage: String?), PhotoFailure>).self) { group in
                var next = 0
                var done = 0
                func startNext() {
                    guard next < mine.count else { return }
                    let index = next
                    next += 1
                    let (photo, hash) = mine[index]
                    let widths = Renditions.targetWidths(requested: recipe.widths, fullWidth: photo.info.displayWidth)
                    group.addTask { (index, recipe.stored(photo, hash: hash, widths: widths, in: store)) }
                }
                for _ in 0..<min(context.jobs, mine.count) { startNext() }
                while let (index, outcome) = await group.next() {
                    let path = mine[index].photo.relativePath
                    var reused = false
                    switch outcome {
                    case .success(let entry):
                        if entry.made { report.photosMade += 1 } else { report.photosAlreadyStored += 1 }
                        reused = !entry.made
                        if let damage = entry.damage { progress(.warning("\(path): \(damage)")) }
                        for warning in entry.images.warnings where entry.made { progress(.warning("\(path): \(warning)")) }
                    case .failure(.image(let error)):
                        let problem = ScanProblem(path: path, reason: error.description)
                        report.skipped.append(problem)
                        progress(.skipped(problem))
                    case .failure(.video(let error)):
                        // Shards make photos' images only (videos are made by the site's own build).
                        let problem = ScanProblem(path: path, reason: error.description)
                        report.skipped.append(problem)
                        progress(.skipped(problem))
                    case .failure(.write(let error)):
                        failure = failure ?? error
                        group.cancelAll()
                        continue
                    }
                    done += 1
                    progress(.photoDone(done: done, total: mine.count, path: path, reused: reused))
                    if failure == nil { startNext() }
                }
            }
            if let failure { throw failure }
            // The shard's photos, for the final build and the next runs.
            var scanned: [String: ScannedPhoto] = [:]
            for (photo, hash) in mine {
                scanned[photo.relativePath] = ScannedPhoto(identity: photo.identity, contentHash: hash, info: photo.info, probeVersion: ImageProbe.version)
            }
            try context.records.save(scanned, sidecars: context.scan.sidecars, shard: shard)
            report.sidecarsRead = context.scan.sidecars.count { $0.isNew }
            report.sidecars = context.scan.sidecars.count
            report.skipped = (context.scan.problems + report.skipped).sorted { $0.path < $1.path }
            context.report = report
        }
    }
}
