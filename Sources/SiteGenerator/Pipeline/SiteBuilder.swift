import Catalog
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
    /// XMP sidecars this build read (the others' fields were those the catalog kept, or a
    /// sharded build's store, the file unchanged since).
    public var sidecarsRead = 0
    /// The folders of the photo folder whose inputs changed since the last complete build (their
    /// entries or files; every folder when a setting, the theme or the program changed), and
    /// those gone since, by their paths relative to it (`""` for the photo folder itself), in
    /// order; nil when that build did not record them or this one could not tell (a photo
    /// folder with a symbolic link, a sharded build's final build). Empty when the site was up
    /// to date.
    public var changedFolders: [String]?
    /// The output folder, absolute.
    public var outputDirectory: String
    /// Whether the site was found up to date (``BuildStamp``): nothing was scanned, made or written.
    public var upToDate = false
}

/// Builds the static site, as a list of named steps (``BuildStep``, in `SiteBuildSteps.swift`)
/// over one ``BuildContext``, run by a ``StepRunner``. Each step hands its work to a stage, a
/// type with its inputs and outputs: ``ScanStage`` (the photo folder, and where everything
/// goes), ``ImagePlanStage`` (what happens to each photo's images, decided before any file is
/// written), ``StagingStage``, ``ImageStage``, ``OriginalsStage``, ``PageStage``,
/// ``SitemapStage``, ``FeedStage``, ``SearchStage`` and ``SweepStage``.
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
    package var catalogReadAhead: CatalogReadAhead?

    /// Creates a builder.
    public init(options: SiteOptions) {
        self.options = options
    }

    /// Creates a builder that takes what `catalogReadAhead` read.
    package init(options: SiteOptions, catalogReadAhead: CatalogReadAhead?) {
        self.options = options
        self.catalogReadAhead = catalogReadAhead
    }

    /// Builds the site. A photo that cannot be read is skipped and reported; only problems
    /// with the whole build (options, folders, theme, writing) throw. `progress` is called
    /// from one task at a time. A cancelled build stops between two steps
    /// (``SiteError/cancelled``), as an interrupted one: the next build completes the site.
    public func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) async throws(SiteError) -> BuildReport {
        // (The progress closure is called only while the build runs: it does not escape it.)
        try await withoutActuallyEscaping(progress) { (progress) async throws(SiteError) -> BuildReport in
            try await build(progress)
        }
    }

    private func build(_ progress: @escaping @Sendable (BuildEvent) -> Void) async throws(SiteError) -> BuildReport {
        try options.validate()
        // (The first step's time counts from here, its checks and its lock included.)
        var runner = StepRunner<BuildContext>(progress: progress)
        let (source, output) = try OutputSafety.resolve(source: options.sourceDirectory, output: options.outputDirectory)
        let theme = try Theme(overrides: options.templatesDirectory, language: options.language,
                              values: ["site": options.title])
        for warning in theme.strings.warnings { progress(.warning(warning)) }
        let jobs = options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount

        let catalogPath = options.catalogPath ?? Catalog.defaultPath(output: output)
        // (Asked before anything is written, the output folder made or locked; asked again as
        // the catalog is opened, under the lock.)
        _ = try SiteError.fromCatalog { () throws(CatalogError) in
            try Catalog.check(path: catalogPath, source: source, output: output, isDefaultPath: options.catalogPath == nil, locked: false)
        }
        let lock = try BuildLock(output: output, wait: options.waitForLock) { progress(.warning($0)) }
        defer { withExtendedLifetime(lock) {} }
        // Damage found in the catalog after it was opened sets it aside (the build goes on
        // without it): reported once the step that found it is done.
        let catalog = try SiteError.fromCatalog { () throws(CatalogError) in
            try Catalog(path: catalogPath, source: source, output: output, isDefaultPath: options.catalogPath == nil) {
                progress(.warning($0))
            }
        }

        var context = BuildContext(options: options, source: source, output: output, theme: theme, jobs: jobs, catalog: catalog,
                                   catalogReadAhead: catalogReadAhead, progress: progress)
        // What earlier builds made is needed up to the images: it is let go of then, so that a
        // large library's records are not held while the pages are made.
        let endedEarly = try await runner.run([
            .upToDateCheck,
            .readCatalog,
            .scan,
            .planImages,
            .stageImages,
            .makeImages,
            .group(PageStage.name, [.originals, .pages, .sitemap, .feed]),
            .searchIndex,
            .sweep,
            .recordBuild,
        ], on: &context)
        let report = context.report!
        if endedEarly {
            catalogReadAhead?.begin(path: catalogPath, keepingCurrent: true)
            return report
        }

        // What the build held (a large library's sets of files, records and pages) is freed on
        // another thread: the caller need not wait a tenth of a second for it. (With a read
        // ahead, by the thread that then reads the catalog.)
        let held = HeldForRelease(context.takeMade())
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
    static func count(_ albums: [Int], of plan: borrowing SitePlan) -> (photos: Int, videos: Int) {
        var (photos, videos) = (0, 0)
        for album in albums {
            for photo in plan.albums[album].photos {
                photos += 1
                if plan.photos[photo].photo.isVideo { videos += 1 }
            }
        }
        return (photos, videos)
    }

    /// The folders whose input fingerprint in `now` differs from the one in `then` (the last
    /// complete build's), or that only one of them has, in order; nil when either has none
    /// (that build recorded none, or this one's photo folder could not be fingerprinted).
    static func changedFolders(now: [String: String], then: [String: String]) -> [String]? {
        guard !now.isEmpty, !then.isEmpty else { return nil }
        var changed = now.compactMap { path, fingerprint in then[path] == fingerprint ? nil : path }
        changed += then.keys.filter { now[$0] == nil }
        return changed.sorted()
    }

    /// Every file of the published photos: their images in every format, their videos (and
    /// motion clips), and the `originals` published for download.
    static func photoFiles(_ published: [PublishedPhoto?], originals: Set<String>) -> Set<String> {
        var files = Set<String>(minimumCapacity: 4 * published.count + originals.count)
        // (Each photo read in place: `for case let photo? in published` copied every one.)
        for index in published.indices { published[index]?.images.forEachPath { files.insert($0) } }
        files.formUnion(originals)
        return files
    }

    /// The source paths of the published photos, in order (each photo read in place, not copied).
    static func sourcePaths(_ published: [PublishedPhoto?]) -> [String] {
        var paths: [String] = []
        paths.reserveCapacity(published.count)
        for index in published.indices {
            if let path = published[index]?.planned.photo.relativePath { paths.append(path) }
        }
        return paths
    }

    /// A page's bytes: its UTF-8 without control characters other than tab and line ends (a NUL
    /// in a title or caption is not allowed in HTML, and the others are invisible).
    static func pageData(_ contents: String) -> Data {
        var bytes = Array(contents.utf8)
        bytes.removeAll { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
        return Data(bytes)
    }
}
