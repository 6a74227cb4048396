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
    /// reported; only problems with the whole shard (options, folders, writing) throw.
    public func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) async throws(SiteError) -> ShardReport {
        try options.validate()
        var clock = StageClock()
        func finished(_ name: String) { progress(clock.lap(name)) }
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: options.sourceDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .source("the photo folder \(options.sourceDirectory) does not exist or is not a folder")
        }
        let source = OutputSafety.realPath(options.sourceDirectory)
        let store = try Self.openStore(self.store, source: source, output: nil)
        let jobs = options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount

        // What earlier runs of the shards recorded: unchanged photos are neither probed nor
        // hashed again (a shard run again after photos were added reads only those).
        let records = ShardScan(store: store, source: source)
        let known = records.load()
        let scan: ScanResult
        do {
            scan = try GalleryScanner(options: ScanOptions(sort: options.sort, limits: options.limits, concurrency: jobs))
                .scan(sourceDirectory: source, title: options.title) { [shard] path, identity in
                    // By path, another shard's photo is not read at all.
                    if shard.assignment == .path, !shard.contains(path: path) { return Self.notRead }
                    guard let record = known[path], record.matches(identity), record.probeVersion == ImageProbe.version else { return nil }
                    return record.info
                }
        } catch {
            throw .source(error.description)
        }
        for problem in scan.problems { progress(.skipped(problem)) }
        let plan = SitePlan(root: scan.root, jobs: jobs)
        finished(ScanStage.name)

        let recipe = ImageRecipe(options: options)
        let shard = self.shard
        let candidates = plan.photos.map(\.photo).filter { shard.assignment == .content || shard.contains(path: $0.relativePath) }
        let hashes = parallelMap(candidates, jobs: jobs) { photo -> Result<String, ImagingError> in
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
        progress(.shard(index: shard.index, count: shard.count, photos: mine.count, of: plan.photos.count))
        finished("hash")

        var report = ShardReport(
            shard: shard, photos: plan.photos.count, photosInShard: mine.count, photosMade: 0, photosAlreadyStored: 0,
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
            for _ in 0..<min(jobs, mine.count) { startNext() }
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
        try records.save(scanned, shard: shard)
        finished(ImageStage.name)
        report.skipped = (scan.problems + report.skipped).sorted { $0.path < $1.path }
        return report
    }

    /// What a shard by path takes as the header of another shard's photo, which it does not
    /// read (and then drops).
    private static let notRead = ImageInfo(
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
