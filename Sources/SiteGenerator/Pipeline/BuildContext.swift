import Foundation
import Catalog
import Gallery
import Support

/// What a build's steps share (``BuildStep``, ``SiteBuilder/build(progress:)``): what the build
/// was given, opened before its first step, and what each step made for the steps after it.
/// A value made by a step is nil until then (and again once a step let go of it); a step that
/// reads it comes after the one that makes it, in the list in ``SiteBuilder/build(progress:)``.
struct BuildContext {
    // What the build was given.
    let options: SiteOptions
    /// The photo folder and the output folder: absolute, real.
    let source: String
    let output: String
    let theme: Theme
    let jobs: Int
    let catalog: Catalog
    let progress: @Sendable (BuildEvent) -> Void
    /// What the scan reports, kept for the build's summary in the catalog (``LastBuild``).
    let recorder = ScanEventRecorder()
    /// The catalog's content read ahead (``CatalogReadAhead``), taken by the up-to-date check
    /// when the site is not up to date.
    let catalogReadAhead: CatalogReadAhead?
    /// When the build began, in seconds since 1970 (the clock files' times are in).
    let began = Date().timeIntervalSince1970

    // The up-to-date check.
    /// The fingerprint of the build's inputs (``BuildStamp/inputs(options:source:theme:)``);
    /// nil when the photo folder could not be fingerprinted.
    var inputs: String?
    /// The photo folder's entries the fingerprint's walk found: the scan takes them.
    var listings: FolderListings?
    /// Each photo folder's input fingerprint (``BuildStamp/inputs(options:source:theme:)``), by
    /// its path relative to the photo folder: recorded with the build's summary.
    var folderInputs: [String: String] = [:]
    /// The folders whose inputs changed since the last complete build (``BuildReport/changedFolders``).
    var changedFolders: [String]?
    /// The output folder's folders (relative, as ``OutputStamp/folders`` names them) whose
    /// entries and files are as the end of the last build recorded them.
    var unchangedOutputFolders: Set<String> = []
    /// Whether the site was found up to date: the report is the last build's, nothing else was done.
    var upToDate = false
    /// Whether the catalog holds the last complete build's summary, which the first step that
    /// writes (staging) forgets (``Catalog/forgetLastBuild()``).
    var lastBuildRecorded = false
    var readAhead: (manifest: BuildManifest, files: Set<String>)?
    /// The tool's files changed since the last build (they are made again).
    var changed: [String] = []
    /// The output folder's records (files kept) as the walk that found ``changed`` saw them at
    /// the start: the end of the build updates them (``OutputStamp/atEnd(root:jobs:start:touched:)``).
    var outputAtStart: [String: OutputStamp.Folder]?

    // The catalog read.
    /// The photo folder's walk, under way while the catalog is read.
    var walking: BackgroundWork<Result<WalkedFolder, SiteError>>!
    /// The sidecars' fields the catalog keeps (``Catalog/sidecars()``), being read.
    var sidecars: BackgroundWork<[String: ScannedSidecar]>!
    var earlier: EarlierBuild!
    /// What of the earlier build the pages need once the earlier records are let go of: its
    /// pages' fingerprints and what the output folder held.
    var earlierPages: [String: String]!
    var listing: OutputListing!
    /// A sharded build's store (``SiteOptions/storeDirectory``).
    var store: RenditionStore?
    /// The sidecars' fields the shards kept in the store, by path (``ShardScan/loadSidecars()``).
    var storeSidecars: [String: StoredSidecar] = [:]
    /// The sidecars whose fields the scan was given from the store: the catalog keeps them too.
    var sidecarsFromStore: Set<String> = []

    // Scan, image plan, images, originals.
    var scan: ScanStage.Output!
    var work: PhotoWork!
    var imagePlan: ImagePlanStage.Output!
    var images: ImageStage.Output!
    /// The photos as published: the image step's, with their originals (``OriginalsStage``).
    var published: [PublishedPhoto?]!
    /// The photos' files (images, originals, videos), gathered on another core while the pages
    /// are made.
    var photoFiles: BackgroundWork<Set<String>>!

    // Pages, sitemap, feed, search index.
    var tags: [TagIndex]!
    var renderer: PageRenderer!
    var pages: PageStage.Output!
    /// The sitemap, the feed and the search index's files.
    var sitePages: Set<String> = []

    // The sweep and the record of the build.
    var made: MadeFiles!
    var filesRemoved = 0
    /// The output folder as the build left it, for the next build's up-to-date check.
    var outputStamp: OutputStamp?
    var report: BuildReport!

    init(options: SiteOptions, source: String, output: String, theme: Theme, jobs: Int, catalog: Catalog,
         catalogReadAhead: CatalogReadAhead?, progress: @escaping @Sendable (BuildEvent) -> Void) {
        self.options = options
        self.source = source
        self.output = output
        self.theme = theme
        self.jobs = jobs
        self.catalog = catalog
        self.catalogReadAhead = catalogReadAhead
        self.progress = progress
    }

    /// The catalog's damage found since the last call, reported (the catalog is then set aside
    /// and the build goes on without it).
    func reportDamage() {
        for warning in catalog.takeWarnings() { progress(.warning(warning)) }
    }

    /// Takes out what the steps made (a large library's sets of files, records and pages), to
    /// be freed on another thread: the context keeps none of it.
    mutating func takeMade() -> [any Sendable] {
        // (Each taken, not copied: a copy left here could be the last, freed on this thread.)
        let values: [(any Sendable)?] = [
            listings.take(), readAhead.take(), earlier.take(), earlierPages.take(), listing.take(), scan.take(),
            work.take(), imagePlan.take(), images.take(), published.take(), tags.take(), renderer.take(), pages.take(),
            made.take(),
        ]
        return values.compactMap { $0 }
    }
}
