import Catalog
import Foundation
import Gallery
import Imaging
import Support
import Video

/// The steps of a site's build, in the order ``SiteBuilder/build(progress:)`` lists them. Each
/// is a name and a body over the ``BuildContext``: it takes what the steps before it made and
/// hands its stage's work to the stage's type in `Pipeline/Stages/`.
extension BuildStep where Context == BuildContext {
    /// When the photo folder, the settings, the theme, the program and the output folder are
    /// as the last complete build left them, the site is what this build would make: the build
    /// ends with the last build's report (``BuildContext/upToDate``).
    ///
    /// The photo folder's walk keeps every folder's entries, which the scan then takes. The
    /// output folder is walked only when the inputs are as they were: otherwise the build runs
    /// whatever it holds.
    static var upToDateCheck: BuildStep {
        BuildStep.withOutcome("up-to-date check") { (context: inout BuildContext) throws(SiteError) -> Outcome in
            let (output, jobs, catalog) = (context.output, context.jobs, context.catalog)
            let stamped = BuildStamp.inputs(options: context.options, source: context.source, theme: context.theme.fingerprint)
            context.inputs = stamped?.stamp
            context.listings = stamped?.listings
            context.folderInputs = stamped?.folders ?? [:]
            let last = catalog.lastBuild()
            if let inputs = context.inputs, let last, last.stamp.inputs == inputs,
               last.stamp.output == BuildStamp.output(root: output, jobs: jobs)?.hex {
                context.report = last.replay(output: output, progress: context.progress)
                context.report.changedFolders = []
                context.upToDate = true
                return .endsBuild(stage: "up to date")
            }
            context.changedFolders = last.flatMap { SiteBuilder.changedFolders(now: context.folderInputs, then: $0.folders) }
            if let changed = context.changedFolders {
                let names = changed.prefix(5).map { $0.isEmpty ? "the photo folder itself" : $0 }.joined(separator: ", ")
                context.progress(.log("folders changed since the last build: \(changed.count) of \(context.folderInputs.count)"
                    + (changed.isEmpty ? "" : " (\(names)\(changed.count > 5 ? ", …" : ""))")))
            }
            // (Taken before this build writes to the catalog.)
            context.readAhead = context.catalogReadAhead?.take(path: catalog.path)
            // (Forgotten by the staging step, the first that writes: a check decides only.)
            context.lastBuildRecorded = last != nil
            // The tool's files changed since the end of the last build (a truncated image, an
            // edited page) are found by a walk compared with what that build recorded; they are
            // made again.
            let reference = try SiteError.fromCatalog { () throws(CatalogError) in try catalog.outputState() }
            let walked = reference.flatMap { OutputStamp(root: output, jobs: jobs, keepFiles: true, reference: $0) }
            context.changed = walked?.changedFiles ?? []
            context.outputAtStart = walked?.folders
            if let reference, let folders = walked?.folders, context.changedFolders != nil {
                context.unchangedOutputFolders = Set(folders.compactMap { path, folder in reference[path]?.sums == folder.sums ? path : nil })
            }
            context.reportDamage()
            return .done
        }
    }

    /// Reads what earlier builds made (``EarlierBuild``; unless it was read ahead), while the
    /// photo folder is walked (nothing read) on another core: the walk needs nothing of it,
    /// and would otherwise run on one core after it.
    static var readCatalog: BuildStep {
        BuildStep("catalog read") { (context: inout BuildContext) throws(SiteError) in
            let (source, output, progress) = (context.source, context.output, context.progress)
            // (The photo folder's files, as the stamp's walk found them, tell the catalog where
            // to cut its records into ranges.)
            let likelyPaths = context.listings.map { listings in
                let sample = listings.sampleFiles(relativeTo: source, count: 256)
                return (sample: sample.paths, count: sample.files)
            }
            let scanStage = ScanStage(options: context.options, jobs: context.jobs)
            let listings = context.listings
            context.walking = BackgroundWork { Result { () throws(SiteError) in try scanStage.walk(source: source, listings: listings) } }
            // The sidecars' fields the catalog keeps, read beside the photos' records (the scan
            // takes them).
            let catalog = context.catalog
            context.sidecars = BackgroundWork { catalog.sidecars() }
            var earlier = try EarlierBuild(
                catalog: context.catalog, output: output, likelyPaths: likelyPaths, readAhead: context.readAhead.take(),
                changed: context.changed, jobs: context.jobs, themeAssets: Set(context.theme.assets.keys)
            ) {
                progress(.warning($0))
            }
            let damaged = earlier.damaged
            for path in damaged.sorted().prefix(10) {
                progress(.warning("\(path): changed since the build that made it; it is made again"))
            }
            if damaged.count > 10 { progress(.warning("\(damaged.count - 10) more files of the site changed since the build that made them; they are made again")) }
            // A sharded build's store: the shards' records spare reading every photo again.
            let store = try context.options.storeDirectory.map { folder throws(SiteError) in
                try ShardBuilder.openStore(folder, source: source, output: output)
            }
            if let store {
                let scans = ShardScan(store: store, source: source)
                earlier.scanned = scans.load()
                context.storeSidecars = scans.loadSidecars()
            }
            context.store = store
            (context.earlierPages, context.listing) = (earlier.stored.pages, earlier.listing)
            context.earlier = earlier
            context.reportDamage()
        }
    }

    /// Scans the photo folder as the walk found it and plans where everything goes (``ScanStage``).
    static var scan: BuildStep {
        BuildStep(ScanStage.name, releasing: { $0.listings.take() }) { (context: inout BuildContext) throws(SiteError) in
            let (progress, recorder) = (context.progress, context.recorder)
            // What the scan reports is kept for the build's summary in the catalog (``LastBuild``).
            @Sendable func scanProgress(_ event: BuildEvent) {
                recorder.record(event)
                progress(event)
            }
            let scanStage = ScanStage(options: context.options, jobs: context.jobs)
            // Whether the earlier build's album folders hold files not the tool's, asked while the
            // walk goes on (when the catalog was read ahead, the walk would otherwise run alone).
            let foreignInAlbums = scanStage.foreignFiles(inAlbumsOf: context.earlier)
            let walked = try context.walking.take()!.wait().get()
            context.earlier.sidecars = context.sidecars.take()!.wait()
            // The final build of a sharded build: the shards read the sidecars the catalog does
            // not know as they are now, and kept their fields in the store.
            for (path, stored) in context.storeSidecars where context.earlier.sidecars[path]?.identity != stored.identity {
                context.earlier.sidecars[path] = ScannedSidecar(relativePath: path, identity: stored.identity, fields: stored.fields, isNew: false)
                context.sidecarsFromStore.insert(path)
            }
            context.storeSidecars = [:]
            let scan = try scanStage.run(walked: consume walked, output: context.output, earlier: context.earlier,
                                         foreignInAlbums: foreignInAlbums, themeAssets: Array(context.theme.assets.keys),
                                         changes: (context.changedFolders, context.unchangedOutputFolders), progress: scanProgress)
            if context.changedFolders != nil {
                let settled = scan.settled
                progress(.log("settled: \(settled.count) photo\(settled.count == 1 ? "" : "s") as the last build left them, "
                    + "in \(settled.albums) of \(settled.ofAlbums) albums"))
            }
            progress(.scanned(photos: scan.plan.photos.count, albums: scan.plan.albums.count))
            for problem in scan.problems {
                scanProgress(problem.isWarning ? .warning("\(problem.path): \(problem.reason)") : .skipped(problem))
            }
            recorder.stop()
            context.earlier.sidecars = [:]
            context.scan = scan
        }
    }

    /// Decides what happens to each photo's images (``ImagePlanStage``); writes nothing.
    static var planImages: BuildStep {
        // (The list of every file the build may make, and the earlier builds' files, are what the
        // scan and the plan ask which files are new or the user's: a large library's hundreds of
        // thousands of paths each, not held through the images and pages.)
        BuildStep(ImagePlanStage.name, releasing: { context in
            defer { context.scan.planned = [] }
            return (context.scan.planned, context.earlier.takeFileLists())
        }) { (context: inout BuildContext) throws(SiteError) in
            let options = context.options
            let jobs = context.jobs
            var work = PhotoWork(
                widths: options.allImageWidths, formats: options.allImageFormats, limits: options.limits,
                settings: options.allImageFormats.map(options.imageSettingsKey(for:)), keepGPS: options.keepGPS, colour: options.colour,
                writer: SiteWriter(root: context.output, refused: context.scan.refused, damaged: context.earlier.damaged),
                video: options.videoTools.map { tools in
                    var settings = options.video
                    settings.threads = max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, jobs))
                    return VideoEncoder(tools: tools, settings: settings)
                })
            work.store = context.store
            context.work = work
            context.imagePlan = ImagePlanStage(work: work, jobs: jobs).run(scan: context.scan, earlier: context.earlier)
        }
    }

    /// Stages the plan's moves and tells the catalog what the build is about to write
    /// (``StagingStage``), before any file is written. (Timed with the images.)
    static var stageImages: BuildStep {
        BuildStep(StagingStage.name, timing: .withNext) { (context: inout BuildContext) throws(SiteError) in
            // The first write: from here until the sweep records this build, the catalog holds no
            // summary that says the site is complete, so a build stopped half way is never
            // taken for up to date. (A build stopped before this step changed nothing.)
            if context.lastBuildRecorded {
                try SiteError.fromCatalog { () throws(CatalogError) in try context.catalog.forgetLastBuild() }
                context.lastBuildRecorded = false
            }
            // The first write to the output folder: what an interrupted build left in the build's
            // temporary folder goes first.
            let writer = context.work.writer
            writer.removeTemporaryFiles()
            try StagingStage(writer: writer, catalog: context.catalog).run(plan: &context.imagePlan!)
            context.reportDamage()
        }
    }

    /// Carries out the image plan (``ImageStage``); then the earlier build's records are let go of.
    static var makeImages: BuildStep {
        // The earlier build's sets of files and what is left of its records are freed on
        // another thread (a tenth of a second of a large library's rebuild, on one core).
        BuildStep(ImageStage.name, releasing: { $0.earlier.take() }) { (context: inout BuildContext) async throws(SiteError) in
            let work = context.work!
            let images = try await ImageStage(work: work, jobs: context.jobs).run(
                scan: context.scan, images: context.imagePlan, previous: context.earlier.stored.photos, progress: context.progress)
            PixelMemory.releaseKept()  // the pictures' memory kept for the next photo: none is left
            if let store = work.store {
                let recipe = work.recipe
                try store.recordSite(output: context.output, keys: images.published.compactMap { photo in
                    photo.map { recipe.storeKey(hash: $0.images.contentHash, size: $0.photo.fileSize) }
                })
            }
            context.images = images
        }
    }

    /// Publishes the originals for download (``OriginalsStage``), and starts gathering the
    /// photos' files on another core.
    static var originals: BuildStep {
        BuildStep(OriginalsStage.name) { (context: inout BuildContext) throws(SiteError) in
            let images = context.images!
            var published = images.published
            let originals = try OriginalsStage(options: context.options, writer: context.work.writer)
                .run(plan: images.plan, published: &published, kept: context.imagePlan.kept, progress: context.progress)
            context.published = published
            // (Of the image step's photos: what the originals added to them is `originals`.)
            context.photoFiles = BackgroundWork { SiteBuilder.photoFiles(images.published, originals: originals) }
        }
    }

    /// Renders and writes the pages (``PageStage``).
    static var pages: BuildStep {
        // (The output folder's listing, as the build began, is asked no more after the pages.)
        BuildStep(PageStage.name, releasing: { $0.listing.take() }) { (context: inout BuildContext) throws(SiteError) in
            let options = context.options
            let plan = context.images.plan
            // (The scan's, unless the image step skipped a photo: the indexes hold photos' numbers.)
            let tags = plan.photos.count == context.scan.plan.photos.count ? context.scan.tags
                : TagIndex.all(plan: plan, sort: options.sort, enabled: options.enabledTagKinds, jobs: context.jobs)
            let renderer = PageRenderer(plan: plan, published: context.published, options: options, theme: context.theme,
                                        jobs: context.jobs, indexes: tags)
            context.tags = tags
            context.renderer = renderer
            context.pages = try PageStage(renderer: renderer, writer: context.work.writer, listing: context.listing, jobs: context.jobs)
                .run(previousKeys: context.earlierPages)
        }
    }

    /// Writes the sitemap (``SitemapStage``). (It lists pages, and no photo's file is one.)
    static var sitemap: BuildStep {
        BuildStep(SitemapStage.name) { (context: inout BuildContext) throws(SiteError) in
            let stage = SitemapStage(baseURL: context.options.baseURL, writer: context.work.writer, catalog: context.catalog,
                                     limits: context.options.sitemapLimits)
            for file in try stage.run(plan: context.images.plan, files: context.pages.files) {
                context.sitePages.insert(file)
            }
        }
    }

    /// Writes the feed (``FeedStage``).
    static var feed: BuildStep {
        BuildStep(FeedStage.name) { (context: inout BuildContext) throws(SiteError) in
            if let feed = try FeedStage(options: context.options, writer: context.work.writer).run(renderer: context.renderer) {
                context.sitePages.insert(feed)
            }
        }
    }

    /// The search index (``SearchStage``), last of the site's files. (A site whose every photo
    /// is in a hidden album gets none: it would be empty.) Kept as it is, it has no line of its own.
    static var searchIndex: BuildStep {
        BuildStep.withOutcome(SearchStage.name) { (context: inout BuildContext) throws(SiteError) -> Outcome in
            let plan = context.images.plan
            guard context.options.search, let folder = plan.searchFolder,
                  plan.albums.contains(where: { !$0.hidden && !$0.photos.isEmpty })
            else { return .skipped }
            let (pages, renderer, language, jobs) = (context.pages!, context.renderer!, context.options.language, context.jobs)
            let catalog = context.catalog
            let (files, made) = try SearchStage(folder: folder, writer: context.work.writer, catalog: catalog).run(
                earlierFiles: context.imagePlan.pending.files,
                pagesChanged: !pages.changedKeys.isEmpty || !pages.removedKeys.isEmpty,
                makeIndex: { (earlier) throws(SiteError) -> SearchStage.Index in
                    // Each album's photos as the catalog kept them under its input key (the pages'
                    // key of its frame data), when it has them: only changed albums' are made.
                    let keys = { (album: Int) in pages.keys[plan.albums[album].directory + "frames.json"] }
                    let current = Set(plan.albums.indices.compactMap(keys))
                    try SiteError.fromCatalog { () throws(CatalogError) in try catalog.forgetSearchDocuments(keeping: current) }
                    let keep = { (runs: [SearchDocumentRun]) throws(SiteError) in
                        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.saveSearchDocuments(runs) }
                    }
                    func whole() throws(SiteError) -> SearchStage.Index {
                        var builder = SearchIndexBuilder(language: language)
                        let (titles, albums) = try renderer.addSearchDocuments(
                            to: &builder, jobs: jobs, keys: keys, cached: catalog.searchDocuments(album:), made: keep)
                        return SearchStage.Index(files: builder.files(albums: titles), albums: albums)
                    }
                    let (writer, progress) = (context.work.writer, context.progress)
                    guard let earlier, let update = try renderer.searchIndexUpdate(
                        earlier: earlier.albums, earlierFiles: earlier.files, contents: { writer.contents(folder + "/" + $0) },
                        jobs: jobs, keys: keys, cached: catalog.searchDocuments(album:), made: keep)
                    else {
                        progress(.log("search index: made whole"))
                        return try whole()
                    }
                    progress(.log("search index: updated in place, \(update.files.count) of \(update.files.count + update.kept.count) files made again"))
                    let index = SearchStage.Index(files: update.files, kept: update.kept, albums: update.albums)
                    // (With the test hook on, the update must be the whole index, byte for byte.)
                    if context.options.verifyAlbumKeys {
                        let made = try whole()
                        var updated = Dictionary(uniqueKeysWithValues: update.files.map { ($0.path, $0.bytes) })
                        for path in update.kept { updated[path] = writer.contents(folder + "/" + path) }
                        if updated != Dictionary(uniqueKeysWithValues: made.files.map { ($0.path, $0.bytes) }) || made.albums != update.albums {
                            fatalError("search index: the index updated in place differs from the whole index (verifyAlbumKeys)")
                        }
                    }
                    return index
                })
            context.sitePages.formUnion(files)
            return made ? .done : .skipped
        }
    }

    /// Deletes what the site no longer needs and saves the catalog (``SweepStage``); the output
    /// folder's stamp for the next build is taken while the catalog is saved.
    static var sweep: BuildStep {
        BuildStep(SweepStage.name) { (context: inout BuildContext) throws(SiteError) in
            let made = MadeFiles(pages: context.pages.files, others: context.photoFiles.take()!.wait().union(context.sitePages))
            context.made = made
            let (output, jobs, writer, start) = (context.output, context.jobs, context.work.writer, context.outputAtStart.take())
            let pages = context.pages!
            let record = BuildRecord(
                files: made, pages: pages.keys,
                // (The page keys' changes are against the earlier build's, the catalog's.)
                pageChanges: (pages.changedKeys, pages.removedKeys),
                photoPaths: SiteBuilder.sourcePaths(context.published), changedPhotos: context.images.changedRecords)
            (context.filesRemoved, context.outputStamp) = try SweepStage(writer: context.work.writer, catalog: context.catalog, jobs: jobs).run(
                record: record, refused: context.scan.refused, pending: context.imagePlan.pending, progress: context.progress,
                whileSaving: { OutputStamp.atEnd(root: output, jobs: jobs, start: start, touched: writer.touchedFolders) })
            context.reportDamage()
        }
    }

    /// The build's report, and its record in the catalog: what the next build compares the
    /// site's files with, and the stamp of a complete build, unless a photo failed here (it is
    /// tried again next time: a video's encoder may have been stopped for taking too long on a
    /// busy machine). (Not timed: it is the end of the sweep's work.)
    static var recordBuild: BuildStep {
        BuildStep("record the build", timing: .withNext) { (context: inout BuildContext) throws(SiteError) in
            let (scan, images, pages) = (context.scan!, context.images!, context.pages!)
            let albums = images.plan.reachableAlbums
            let (photoCount, videoCount) = SiteBuilder.count(albums, of: images.plan)
            var report = BuildReport(
                albums: albums.count,
                photos: photoCount,
                photosMade: images.photosMade, photosReused: images.photosReused, photosFromStore: images.photosFromStore,
                imagesWritten: images.imagesWritten, pagesWritten: pages.written, pages: pages.pages,
                filesRemoved: context.filesRemoved,
                skipped: (scan.problems.filter { !$0.isWarning } + images.problems).sorted { $0.path < $1.path },
                outputDirectory: context.output)
            report.videos = videoCount
            report.sidecarsRead = scan.sidecars.count { $0.isNew }
            report.changedFolders = context.changedFolders
            // The sidecars' fields, for the next scan: those read from their files (or by the
            // shards) are kept, but for files changed just before the build (changed again
            // within the same step of the clock, one would keep its identity).
            let (sidecars, fromStore) = (scan.sidecars, context.sidecarsFromStore)
            let settled = context.began - context.options.sidecarSettling
            try SiteError.fromCatalog { () throws(CatalogError) in
                try context.catalog.recordSidecars(
                    sidecars.filter {
                        ($0.isNew || fromStore.contains($0.relativePath))
                            && $0.identity.changeTime < settled && $0.identity.modificationTime < settled
                    },
                    keeping: Set(sidecars.map(\.relativePath)))
            }
            if let outputStamp = context.outputStamp { try SiteError.fromCatalog { () throws(CatalogError) in try context.catalog.recordOutputState(hex: outputStamp.hex, folders: outputStamp.folders) } }
            if let inputs = context.inputs, images.problems.isEmpty, let outputStamp = context.outputStamp {
                let summary = LastBuild(
                    stamp: BuildStamp(inputs: inputs, output: outputStamp.hex),
                    scannedPhotos: scan.plan.photos.count, scannedAlbums: scan.plan.albums.count,
                    albums: report.albums, photos: report.photos, videos: report.videos, pages: report.pages,
                    events: context.recorder.events, folders: context.folderInputs)
                try SiteError.fromCatalog { () throws(CatalogError) in try context.catalog.recordLastBuild(summary) }
            }
            context.reportDamage()
            context.report = report
        }
    }
}
