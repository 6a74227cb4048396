import Foundation
import Gallery
import GalleryConfig
import Imaging
import Synchronization
import Video
import Waterfall
import Support

/// What happened during a build, for progress output.
public enum BuildEvent: Sendable {
    /// The source folder was scanned.
    case scanned(photos: Int, albums: Int)
    /// A shard of a sharded build (``ShardBuilder``) found its photos: `photos` of the folder's `of`.
    case shard(index: Int, count: Int, photos: Int, of: Int)
    /// A file was skipped, with the reason.
    case skipped(ScanProblem)
    /// One more photo is done: its images were made, or reused from an earlier build.
    /// `units` of `totalUnits` is the work done so far, each item weighed by what it costs (a
    /// video by its duration: ``ProgressWeight``); both 0 when the build does not weigh them.
    case photoDone(done: Int, total: Int, path: String, reused: Bool, units: Double = 0, totalUnits: Double = 0)
    /// A file an earlier build made and this one no longer makes was deleted.
    case removed(path: String)
    /// Something the user should know that does not stop the build.
    case warning(String)
    /// A stage of the build is done, after `seconds`, in which the process used
    /// `processorSeconds` of processor time (for `--verbose`).
    case stage(String, seconds: Double, processorSeconds: Double = 0)
    /// What a tool the build ran said (ffmpeg's messages; for `--verbose`).
    case log(String)
}

/// The outcome of a build.
public struct BuildReport: Sendable {
    /// Albums published (the root included).
    public var albums: Int
    /// Photos published (videos included).
    public var photos: Int
    /// Of those, videos.
    public var videos: Int = 0
    /// Photos whose images were made by this build.
    public var photosMade: Int
    /// Photos whose images an earlier build made and this one reused.
    public var photosReused: Int
    /// Of those, photos whose images a shard made into the store (``SiteOptions/storeDirectory``).
    public var photosFromStore = 0
    /// Image files written.
    public var imagesWritten: Int
    /// HTML pages written (pages whose content did not change are not rewritten).
    public var pagesWritten: Int
    /// HTML pages of the site.
    public var pages: Int
    /// Files of an earlier build that were deleted because this build no longer makes them.
    public var filesRemoved: Int
    /// Files that were not published, and why.
    public var skipped: [ScanProblem]
    /// The output folder, absolute.
    public var outputDirectory: String
    /// Whether the site was found up to date (``BuildStamp``): nothing was scanned, made or written.
    public var upToDate = false
}

/// Builds the static site, as a pipeline of named stages, each a type with its inputs and
/// outputs: ``ScanStage`` (the photo folder, and where everything goes), ``ImagePlanStage``
/// (what happens to each photo's images, decided before any file is written),
/// ``ImageStage``, ``OriginalsStage``, ``PageStage``, ``SitemapStage``, ``FeedStage``, ``SearchStage`` and ``SweepStage``.
///
/// Builds are incremental: the ``Catalog`` says what earlier builds made from what, so only
/// photos that changed are decoded again, and files the site no longer needs are deleted (only
/// files a build made, never the user's own). One build of an output folder runs at a time.
public struct SiteBuilder: Sendable {
    /// The build's options.
    public var options: SiteOptions
    /// What the catalog holds, read after the last build while nothing was built (by `cascade
    /// serve`, between changes): taken when the catalog has not changed since, and begun again
    /// after this build.
    public var catalogReadAhead: CatalogReadAhead?

    /// Creates a builder.
    public init(options: SiteOptions, catalogReadAhead: CatalogReadAhead? = nil) {
        self.options = options
        self.catalogReadAhead = catalogReadAhead
    }

    /// Builds the site. A photo that cannot be read is skipped and reported; only problems
    /// with the whole build (options, folders, theme, writing) throw. `progress` is called
    /// from one task at a time.
    public func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) async throws(SiteError) -> BuildReport {
        try options.validate()
        var clock = StageClock()
        func finished(_ name: String) { progress(clock.lap(name)) }
        let (source, output) = try OutputSafety.resolve(source: options.sourceDirectory, output: options.outputDirectory)
        let theme = try Theme(overrides: options.templatesDirectory, language: options.language,
                              values: ["site": options.title])
        for warning in theme.strings.warnings { progress(.warning(warning)) }
        let jobs = options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount

        let catalogPath = options.catalogPath ?? Catalog.defaultPath(output: output)
        // (Asked before anything is written, the output folder made or locked; asked again as
        // the catalog is opened, under the lock.)
        _ = try Catalog.check(path: catalogPath, source: source, output: output, isDefaultPath: options.catalogPath == nil, locked: false)
        let lock = try BuildLock(output: output, wait: options.waitForLock) { progress(.warning($0)) }
        defer { withExtendedLifetime(lock) {} }
        let catalog = try Catalog(path: catalogPath, source: source, output: output, isDefaultPath: options.catalogPath == nil) {
            progress(.warning($0))
        }
        // Damage found in the catalog after it was opened sets it aside (the build goes on
        // without it): reported once the step that found it is done.
        func reportDamage() { for warning in catalog.takeWarnings() { progress(.warning(warning)) } }

        // When the photo folder, the settings, the theme, the program and the output folder are
        // as the last complete build left them, the site is what this build would make.
        // The photo folder's walk keeps every folder's entries, which the scan then takes. One
        // walk after the other, each on every core (a walk nested in another's parallel loop
        // would run on one).
        // The output folder is walked only when the inputs are as they were: otherwise the
        // build runs whatever it holds.
        let stamped = BuildStamp.inputs(options: options, source: source, theme: theme.fingerprint)
        let inputs = stamped?.stamp
        let last = catalog.lastBuild()
        if let inputs, let last, last.stamp.inputs == inputs,
           last.stamp.output == BuildStamp.output(root: output, jobs: jobs)?.hex {
            let report = last.replay(output: output, progress: progress)
            finished("up to date")
            catalogReadAhead?.begin(path: catalogPath, keepingCurrent: true)
            return report
        }
        // (Taken before this build writes to the catalog.)
        let readAhead = catalogReadAhead?.take(path: catalogPath)
        if last != nil { try catalog.forgetLastBuild() }
        // The tool's files changed since the end of the last build (a truncated image, an
        // edited page) are found by a walk compared with what that build recorded; they are
        // made again.
        let changed = catalog.outputState().flatMap { OutputStamp(root: output, jobs: jobs, reference: $0)?.changedFiles } ?? []
        reportDamage()
        finished("up-to-date check")

        // What earlier builds made is needed up to the image stage: it is read, and let go of,
        // in `makeImages`, so that a large library's records are not held while pages are made.
        let recorder = ScanEventRecorder()
        let (scan, imagePlan, images, writer, earlierPages, listing) = try await makeImages(
            source: source, output: output, listings: stamped?.listings, catalog: catalog, readAhead: readAhead, changed: changed,
            jobs: jobs, themeAssets: Array(theme.assets.keys),
            finished: finished, progress: progress, recorder: recorder)

        var published = images.published
        let originals = try OriginalsStage(options: options, writer: writer)
            .run(plan: images.plan, published: &published, kept: imagePlan.kept, progress: progress)
        // The photos' files (images, originals, videos), gathered into a set of their own on
        // another core while the pages are made.
        async let photoFiles = Self.photoFiles(images.published, originals: originals)
        let tags = TagKind.allCases.map { TagIndex(plan: images.plan, sort: options.sort, kind: $0, enabled: options.enables($0)) }
        let renderer = PageRenderer(plan: images.plan, published: published, options: options, theme: theme, jobs: jobs, indexes: tags)
        let pages = try PageStage(renderer: renderer, writer: writer, listing: listing, jobs: jobs).run(previousKeys: earlierPages)
        var sitePages: Set<String> = []
        // (The sitemap lists pages, and no photo's file is one.)
        if let sitemap = try SitemapStage(baseURL: options.baseURL, writer: writer).run(plan: images.plan, files: pages.files) {
            sitePages.insert(sitemap)
        }
        if let feed = try FeedStage(options: options, writer: writer).run(renderer: renderer) {
            sitePages.insert(feed)
        }
        finished(PageStage.name)
        // The search index, last: Pagefind reads the pages as written.
        // (Only photo pages carry `data-pagefind-body`; a site without one, every photo in a
        // hidden album, gets no index: Pagefind would index every page.)
        if let indexer = options.searchIndexer, let folder = images.plan.searchFolder,
           images.plan.albums.contains(where: { !$0.hidden && !$0.photos.isEmpty }) {
            sitePages.formUnion(try SearchStage(indexer: indexer, folder: folder, writer: writer, catalog: catalog).run(
                earlierFiles: imagePlan.pending.files,
                pagesChanged: !pages.changedKeys.isEmpty || !pages.removedKeys.isEmpty,
                pages: pages.files, progress: progress))
            finished(SearchStage.name)
        }
        let made = MadeFiles(pages: pages.files, others: await photoFiles.union(sitePages))

        // The output folder's stamp for the next build is taken while the catalog is saved.
        let (filesRemoved, outputStamp) = try SweepStage(writer: writer, catalog: catalog, jobs: jobs).run(
            made: made, refused: scan.refused, published: published, changedRecords: images.changedRecords,
            // (The page keys' changes are against the earlier build's, the catalog's.)
            pageKeys: pages.keys, pageChanges: (pages.changedKeys, pages.removedKeys),
            pending: imagePlan.pending, progress: progress,
            whileSaving: { BuildStamp.output(root: output, jobs: jobs, keepFiles: true) })
        reportDamage()
        finished(SweepStage.name)

        let albums = images.plan.reachableAlbums
        let (photoCount, videoCount) = Self.count(albums, of: images.plan)
        var report = BuildReport(
            albums: albums.count,
            photos: photoCount,
            photosMade: images.photosMade, photosReused: images.photosReused, photosFromStore: images.photosFromStore,
            imagesWritten: images.imagesWritten, pagesWritten: pages.written, pages: pages.pages,
            filesRemoved: filesRemoved, skipped: (scan.problems.filter { !$0.isWarning } + images.problems).sorted { $0.path < $1.path },
            outputDirectory: output)
        report.videos = videoCount
        // What the next build compares the site's files with.
        if let outputStamp { try catalog.recordOutputState(outputStamp) }
        // The stamp of a complete build, unless a photo failed here (it is tried again next time:
        // a video's encoder may have been stopped for taking too long on a busy machine).
        if let inputs, images.problems.isEmpty, let outputStamp {
            try catalog.recordLastBuild(LastBuild(
                stamp: BuildStamp(inputs: inputs, output: outputStamp.hex),
                scannedPhotos: scan.plan.photos.count, scannedAlbums: scan.plan.albums.count,
                albums: report.albums, photos: report.photos, videos: report.videos, pages: report.pages,
                events: recorder.events))
        }
        reportDamage()

        // What the build held (a large library's sets of files, records and pages) is freed on
        // another thread: the caller need not wait a tenth of a second for it. (With a read
        // ahead, by the thread that then reads the catalog.)
        // (Moved into the box at once: a copy left here could be the last, freed on this thread.)
        let held = HeldForRelease((consume scan, consume imagePlan, consume images, consume published, consume made, consume pages,
                                   consume renderer, consume listing, consume earlierPages, consume tags))
        if let catalogReadAhead {
            catalogReadAhead.begin(path: catalogPath) { held.release() }
        } else {
            held.releaseInBackground()
        }
        return report
    }

    /// The photos and the videos of `albums` in `plan`, counted in one loop (a closure per
    /// album over the stage's output copied its plan for each of a large library's photos, on
    /// one core at the end of the build).
    private static func count(_ albums: [Int], of plan: borrowing SitePlan) -> (photos: Int, videos: Int) {
        var (photos, videos) = (0, 0)
        for album in albums {
            for photo in plan.albums[album].photos {
                photos += 1
                if plan.photos[photo].photo.isVideo { videos += 1 }
            }
        }
        return (photos, videos)
    }

    /// The stages up to the images: reads what earlier builds made (unless it was read ahead:
    /// `readAhead`), scans, plans and makes the images (the scan takes the folders' entries in
    /// `listings` instead of reading them again).
    /// Returns what the later stages need of it: the stages' outputs, the writer (which
    /// leaves the user's files of the output folder alone), the earlier build's page
    /// fingerprints and what the output folder held, but not its photos' records.
    private func makeImages(
        source: String, output: String, listings: FolderListings?, catalog: Catalog,
        readAhead: (manifest: BuildManifest, files: Set<String>)?, changed: [String], jobs: Int, themeAssets: [String],
        finished: (String) -> Void,
        progress: @Sendable (BuildEvent) -> Void, recorder: ScanEventRecorder
    ) async throws(SiteError) -> (ScanStage.Output, ImagePlanStage.Output, ImageStage.Output, SiteWriter, [String: String], OutputListing) {
        // (The photo folder's files, as the stamp's walk found them, tell the catalog where to
        // cut its records into ranges.)
        let likelyPaths = listings.map { listings in
            let sample = listings.sampleFiles(relativeTo: source, count: 256)
            return (sample: sample.paths, count: sample.files)
        }
        // The photo folder is walked (nothing read) while the catalog is read: the walk needs
        // nothing of it, and would otherwise run on one core after it.
        let scanStage = ScanStage(options: options, jobs: jobs)
        let walking = BackgroundWork { Result { () throws(SiteError) in try scanStage.walk(source: source, listings: listings) } }
        // (Optional, so that it can be taken and freed on another thread at the end.)
        var earlier: EarlierBuild! = try EarlierBuild(
            catalog: catalog, output: output, likelyPaths: likelyPaths, readAhead: readAhead, changed: changed, jobs: jobs,
            themeAssets: Set(themeAssets)
        ) {
            progress(.warning($0))
        }
        let damaged = earlier.damaged
        for path in damaged.sorted().prefix(10) {
            progress(.warning("\(path): changed since the build that made it; it is made again"))
        }
        if damaged.count > 10 { progress(.warning("\(damaged.count - 10) more files of the site changed since the build that made them; they are made again")) }
        SiteWriter(root: output).removeTemporaryFiles()
        // A sharded build's store: the shards' records spare reading every photo again.
        let store = try options.storeDirectory.map { folder throws(SiteError) in try ShardBuilder.openStore(folder, source: source, output: output) }
        if let store { earlier.scanned = ShardScan(store: store, source: source).load() }
        for warning in catalog.takeWarnings() { progress(.warning(warning)) }
        finished("catalog read")

        // What the scan reports is kept for the build's summary in the catalog (``LastBuild``).
        @Sendable func scanProgress(_ event: BuildEvent) {
            recorder.record(event)
            progress(event)
        }
        // Whether the earlier build's album folders hold files not the tool's, asked while the
        // walk goes on (when the catalog was read ahead, the walk would otherwise run alone).
        let foreignInAlbums = scanStage.foreignFiles(inAlbumsOf: earlier)
        let scan = try scanStage.run(walked: walking.wait().get(), output: output, earlier: earlier, foreignInAlbums: foreignInAlbums,
                                     themeAssets: themeAssets, progress: scanProgress)
        progress(.scanned(photos: scan.plan.photos.count, albums: scan.plan.albums.count))
        for problem in scan.problems {
            scanProgress(problem.isWarning ? .warning("\(problem.path): \(problem.reason)") : .skipped(problem))
        }
        recorder.stop()
        finished(ScanStage.name)

        var work = PhotoWork(
            widths: options.allImageWidths, formats: options.allImageFormats, limits: options.limits,
            settings: options.allImageFormats.map(options.imageSettingsKey(for:)), keepGPS: options.keepGPS, colour: options.colour,
            writer: SiteWriter(root: output, refused: scan.refused, damaged: damaged),
            video: options.videoTools.map { tools in
                var settings = options.video
                settings.threads = max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, jobs))
                return VideoEncoder(tools: tools, settings: settings)
            })
        work.store = store
        let imagePlan = try ImagePlanStage(work: work, jobs: jobs).run(scan: scan, earlier: earlier, catalog: catalog)
        for warning in catalog.takeWarnings() { progress(.warning(warning)) }
        finished(ImagePlanStage.name)

        let images = try await ImageStage(work: work, jobs: jobs).run(
            scan: scan, images: imagePlan, previous: earlier.stored.photos, progress: progress)
        PixelMemory.releaseKept()  // the pictures' memory kept for the next photo: none is left
        if let store = work.store {
            let recipe = work.recipe
            try store.recordSite(output: output, keys: images.published.compactMap { photo in
                photo.map { recipe.storeKey(hash: $0.images.contentHash, size: $0.photo.fileSize) }
            })
        }
        finished(ImageStage.name)
        let (pages, listing) = (earlier.stored.pages, earlier.listing)
        // The earlier build's sets of files and what is left of its records are freed on
        // another thread (a tenth of a second of a large library's rebuild, on one core).
        releaseInBackground(earlier.take())
        return (scan, imagePlan, images, work.writer, pages, listing)
    }

    /// Every file of the published photos: their images in every format, their videos (and
    /// motion clips), and the `originals` published for download.
    private static func photoFiles(_ published: [PublishedPhoto?], originals: Set<String>) -> Set<String> {
        var files = Set<String>(minimumCapacity: 4 * published.count + originals.count)
        for case let photo? in published { photo.images.forEachPath { files.insert($0) } }
        files.formUnion(originals)
        return files
    }

    /// A page's bytes: its UTF-8 without control characters other than tab and line ends (a NUL
    /// in a title or caption is not allowed in HTML, and the others are invisible).
    static func pageData(_ contents: String) -> Data {
        var bytes = Array(contents.utf8)
        bytes.removeAll { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
        return Data(bytes)
    }
}

/// Lets go of `value` on another thread: it is held by a box the thread empties, so its last
/// reference is dropped there whichever of the two threads gets there first.
private func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
    HeldForRelease(consume value).releaseInBackground()
}

/// A value on its way to be freed on another thread: the box is all the caller keeps.
final class HeldForRelease<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>
    init(_ value: consuming Value) { self.value = Mutex(value) }
    /// Frees the value (on the thread that calls this).
    func release() { value.withLock { $0 = nil } }
    /// Frees the value on another thread.
    func releaseInBackground() { DispatchQueue.global(qos: .utility).async { self.release() } }
}
