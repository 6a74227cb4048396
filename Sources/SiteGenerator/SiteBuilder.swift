import Dispatch
import Foundation
import Synchronization
import Gallery
import GalleryConfig
import Imaging
import Waterfall

/// What happened during a build, for progress output.
public enum BuildEvent: Sendable {
    /// The source folder was scanned.
    case scanned(photos: Int, albums: Int)
    /// A file was skipped, with the reason.
    case skipped(ScanProblem)
    /// One more photo is done: its images were made, or reused from an earlier build.
    case photoDone(done: Int, total: Int, path: String, reused: Bool)
    /// A file an earlier build made and this one no longer makes was deleted.
    case removed(path: String)
    /// Something the user should know that does not stop the build.
    case warning(String)
    /// A stage of the build is done, after `seconds` (for `--verbose`).
    case stage(String, seconds: Double)
}

/// The outcome of a build.
public struct BuildReport: Sendable {
    /// Albums published (the root included).
    public var albums: Int
    /// Photos published.
    public var photos: Int
    /// Photos whose images were made by this build.
    public var photosMade: Int
    /// Photos whose images an earlier build made and this one reused.
    public var photosReused: Int
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
}

/// Builds the static site: scan, make the images, lay out every album, write the pages.
///
/// Builds are incremental: the output folder's manifest (``BuildManifest``) says what an
/// earlier build made from what, so only photos that changed are decoded again, and files
/// the site no longer needs are deleted (only files a build made, never the user's own).
public struct SiteBuilder: Sendable {
    /// The build's options.
    public var options: SiteOptions

    /// Creates a builder.
    public init(options: SiteOptions) {
        self.options = options
    }

    /// Builds the site. A photo that cannot be read is skipped and reported; only problems
    /// with the whole build (options, folders, theme, writing) throw. `progress` is called
    /// from one task at a time.
    public func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) async throws(SiteError) -> BuildReport {
        try options.validate()
        var clock = Date()
        func stage(_ name: String) {
            let now = Date()
            progress(.stage(name, seconds: now.timeIntervalSince(clock)))
            clock = now
        }
        let (source, output) = try OutputSafety.resolve(source: options.sourceDirectory, output: options.outputDirectory)
        let theme = try Theme(overrides: options.templatesDirectory)
        let jobs = options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount

        let lock = try BuildLock(output: output, wait: options.waitForLock) { progress(.warning($0)) }
        defer { withExtendedLifetime(lock) {} }
        let catalog = try Catalog(path: options.catalogPath ?? Catalog.defaultPath(output: output)) { progress(.warning($0)) }
        // What the catalog holds, and what this build goes by: the same, but for a site an
        // earlier release built, whose manifest in the output folder is read once.
        let stored = try catalog.snapshot()
        var previous = stored
        var legacyManifest = false
        if stored == BuildManifest(),
            let legacy = BuildManifest.legacy(outputDirectory: output, warning: { progress(.warning($0)) })
        {
            previous = legacy
            legacyManifest = true
        }
        SiteWriter(root: output).removeTemporaryFiles()
        stage("catalog read")
        let scan: ScanResult
        do {
            let earlier = previous.photos
            scan = try GalleryScanner(options: ScanOptions(sort: options.sort, limits: options.limits, concurrency: jobs))
                .scan(sourceDirectory: source, title: options.title) { path, identity in
                    guard let record = earlier[path], record.matches(identity) else { return nil }
                    return record.probeVersion == ImageProbe.version ? record.info : nil
                }
        } catch {
            throw .source(error.description)
        }
        // Files of the output folder the tool did not make are never written over: a photo
        // whose page or images would take such a name gets another slug.
        let owned = Set(previous.files)
        // Without a catalog, the files of an earlier build are recognised by their pages.
        let recovered = stored == BuildManifest() && !legacyManifest ? RecoveredFiles(root: output) : nil
        let foreign: (String) -> Bool = { path in
            !owned.contains(path) && FileStatus(path: output + "/" + path) != nil && !(recovered?.isCascades(path) ?? false)
        }
        var plan = SitePlan(root: scan.root) { directory, slug, photo in
            self.photoFiles(directory: directory, slug: slug, photo: photo).first(where: foreign)
        }
        for collision in plan.collisions {
            progress(.warning("\(collision.photo): \(collision.file) in the output folder is not Cascade's and stays as it is; the photo is published as \(collision.slug) instead"))
        }
        stage("scan")
        progress(.scanned(photos: plan.photos.count, albums: plan.albums.count))
        var skipped = scan.problems
        for problem in scan.problems { progress(.skipped(problem)) }

        let planned = plannedFiles(plan)
        let refused = Set(planned.filter(foreign))
        for path in refused.sorted() {
            progress(.warning("\(path) in the output folder is not Cascade's and stays as it is; remove or rename it to publish the site's own \(path)"))
        }
        let writer = SiteWriter(root: output, refused: refused)

        // What happens to each photo's images is decided before any file is written, and the
        // files that moves take are staged, so that any permutation of names is safe.
        let work = PhotoWork(
            widths: options.allImageWidths, formats: options.allImageFormats, limits: options.limits,
            settings: options.allImageFormats.map(options.imageSettingsKey(for:)), keepGPS: options.keepGPS, writer: writer)
        let earlierPhotos = previous.photos
        let hashes = parallelMap(plan.photos.map(\.photo), jobs: jobs) { photo in
            work.contentHash(of: photo, previous: earlierPhotos[photo.relativePath])
        }
        let planner = ReusePlanner(previous: previous.photos, settings: work.settings, exists: writer.exists)
        var decisions: [ImageDecision?] = []
        var staged: [String: String] = [:]
        for (index, hash) in hashes.enumerated() {
            guard case .success(let hash) = hash else {
                decisions.append(nil)
                continue
            }
            let paths = plan.imagePaths(photo: index, widths: work.widths, formats: work.formats)
            let widthsMade = paths.keys.sorted()
            let wanted = work.formats.indices.map { format in widthsMade.map { paths[$0]![format] } }
            var decision = planner.decide(path: plan.photos[index].photo.relativePath, hash: hash, widths: widthsMade, wanted: wanted)
            if case .move(let from) = decision {
                for file in planner.sources(of: previous.photos[from]!).joined() where staged[file] == nil {
                    let path = try writer.temporaryPath()
                    guard writer.stage(file, at: path) else {
                        decision = .make
                        break
                    }
                    staged[file] = path
                }
            }
            decisions.append(decision)
        }
        // From here on the files this build may write are the tool's, and records of photos
        // whose files may be replaced are forgotten: an interrupted build leaves a catalog that
        // makes those again rather than trust them.
        var kept = Set<String>()
        for (index, decision) in decisions.enumerated() {
            if case .keep = decision { kept.insert(plan.photos[index].photo.relativePath) }
        }
        let storedFiles = Set(stored.files)
        let adding = previous.files.filter { !storedFiles.contains($0) } + planned.filter { !owned.contains($0) && !refused.contains($0) }
        let forgetting = stored.photos.keys.filter { !kept.contains($0) }
        try catalog.prepare(addingFiles: adding, forgettingPhotos: forgetting)
        var pending = stored
        pending.files = Array(storedFiles.union(adding))
        for path in forgetting { pending.photos[path] = nil }
        stage("plan")

        let processed = try await processPhotos(
            plan: plan, work: work, hashes: hashes, decisions: decisions, previous: previous.photos, staged: staged,
            jobs: jobs, progress: progress)
        stage("images")
        var imagesWritten = 0
        var photosMade = 0
        var photosReused = 0
        var manifest = BuildManifest()
        for (index, outcome) in processed.enumerated() {
            switch outcome {
            case .success(let result):
                imagesWritten += result.imagesWritten
                if result.reused { photosReused += 1 } else { photosMade += 1 }
                manifest.photos[plan.photos[index].photo.relativePath] = result.record
            case .failure(let error):
                let problem = ScanProblem(path: plan.photos[index].photo.relativePath, reason: error.description)
                skipped.append(problem)
                progress(.skipped(problem))
            }
        }
        plan.keepPhotos { index in
            if case .success = processed[index] { return true }
            return false
        }
        let images = processed.map { try? $0.get().record }

        var made = Set<String>()
        for case .success(let result) in processed { made.formUnion(result.record.allPaths) }
        var pages = PageRenderer(plan: plan, images: images, options: options, theme: theme)
        if options.downloadOriginals {
            pages.originals = try publishOriginals(plan: plan, kept: images, unchanged: kept, writer: writer, made: &made, progress: progress)
        }
        var pagesWritten = 0
        var pageCount = 0
        let albums = plan.reachableAlbums
        // A page made from the same variables and theme as before is not rendered again.
        let previousPages = previous.pages
        let unchanged: @Sendable (String, String) -> Bool = { path, key in
            previousPages[path] == key && writer.exists(path)
        }
        for album in albums {
            let albumFiles = try pages.albumFiles(album: album, unchanged: unchanged)
            for file in albumFiles {
                var wrote = false
                if let contents = file.contents { wrote = try writer.writeIfChanged(Self.pageData(contents), to: file.path) }
                made.insert(file.path)
                if let key = file.key { manifest.pages[file.path] = key }
                if file.path.hasSuffix(".html") {
                    pageCount += 1
                    if wrote { pagesWritten += 1 }
                }
            }
            // The photos' pages are independent of each other: render and write them on every core.
            let count = plan.albums[album].photos.count
            let outcome = Mutex((pages: [String: String](), written: 0, failure: SiteError?.none))
            let renderer = pages
            DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { worker in
                var done: [String: String] = [:]
                var written = 0
                var position = worker
                do throws(SiteError) {
                    while position < count {
                        let page = try renderer.photoPageFile(album: album, position: position, unchanged: unchanged)
                        if let contents = page.contents, try writer.writeIfChanged(Self.pageData(contents), to: page.path) {
                            written += 1
                        }
                        done[page.path] = page.key
                        position += jobs
                    }
                } catch {
                    outcome.withLock { $0.failure = $0.failure ?? error }
                }
                outcome.withLock {
                    $0.pages.merge(done) { first, _ in first }
                    $0.written += written
                }
            }
            let result = outcome.withLock { $0 }
            if let failure = result.failure { throw failure }
            made.formUnion(result.pages.keys)
            manifest.pages.merge(result.pages) { first, _ in first }
            pageCount += result.pages.count
            pagesWritten += result.written
        }
        for (path, data) in theme.assets {
            try writer.writeIfChanged(data, to: "assets/" + path)
            made.insert("assets/" + path)
        }

        if let base = options.baseURL {
            let hidden = plan.albums.filter(\.hidden).map(\.directory)
            let urls = made.filter { path in path.hasSuffix(".html") && !hidden.contains { path.hasPrefix($0) } }.sorted().map { path in
                base + URLPath.encode(path: path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path)
            }
            try writer.writeIfChanged(Data(Self.sitemap(urls).utf8), to: "sitemap.xml")
            made.insert("sitemap.xml")
        }

        stage("pages")
        // What an earlier build made and this one did not is stale. A file this build was
        // refused (the user's own) is never the tool's.
        made.subtract(refused)
        var filesRemoved = 0
        for path in Set(pending.files).subtracting(made).sorted() where writer.removeMadeFile(path) {
            filesRemoved += 1
            progress(.removed(path: path))
        }
        if legacyManifest { _ = writer.removeMadeFile(BuildManifest.legacyFileName) }
        writer.removeTemporaryFiles()
        // Everything written is on disk before the catalog says so.
        writer.syncFileSystem()
        manifest.files = made.sorted()
        try catalog.save(manifest, replacing: pending)
        stage("clean-up and catalog")

        skipped.sort { $0.path < $1.path }
        return BuildReport(
            albums: albums.count,
            photos: albums.reduce(0) { $0 + plan.albums[$1].photos.count },
            photosMade: photosMade, photosReused: photosReused,
            imagesWritten: imagesWritten, pagesWritten: pagesWritten, pages: pageCount,
            filesRemoved: filesRemoved, skipped: skipped, outputDirectory: output)
    }

    /// A page's bytes: its UTF-8 without control characters other than tab and line ends (a NUL
    /// in a title or caption is not allowed in HTML, and the others are invisible).
    static func pageData(_ contents: String) -> Data {
        var bytes = Array(contents.utf8)
        bytes.removeAll { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
        return Data(bytes)
    }

    /// The sitemap (sitemaps.org) listing `urls`.
    static func sitemap(_ urls: [String]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for url in urls {
            let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            xml += "  <url><loc>\(escaped)</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }

    /// Copies each published photo's original file to `<album>/originals/<slug>.<ext>`, except
    /// originals that carry a GPS position while positions are stripped. Returns, per photo,
    /// the original's site path and size.
    private func publishOriginals(
        plan: SitePlan, kept images: [PhotoImages?], unchanged: Set<String>, writer: SiteWriter, made: inout Set<String>,
        progress: @Sendable (BuildEvent) -> Void
    ) throws(SiteError) -> [Int: (path: String, size: Int)] {
        var originals: [Int: (path: String, size: Int)] = [:]
        var withheld = 0
        for album in plan.reachableAlbums {
            for index in plan.albums[album].photos where images[index] != nil {
                let photo = plan.photos[index].photo
                if !options.keepGPS && photo.info.metadata.hasGPS {
                    withheld += 1
                    continue
                }
                let path = plan.originalPath(photo: index)
                // An original is copied again unless the photo is unchanged at the same name.
                if !unchanged.contains(photo.relativePath) || writer.fileSize(path) != photo.fileSize {
                    guard let data = FileManager.default.contents(atPath: photo.sourcePath) else { continue }
                    try writer.write(data, to: path)
                }
                made.insert(path)
                originals[index] = (path, photo.fileSize)
            }
        }
        if withheld > 0 {
            progress(.warning("\(withheld) original\(withheld == 1 ? "" : "s") with a GPS position \(withheld == 1 ? "is" : "are") not offered for download while GPS positions are stripped (strip_gps: false or --keep-gps publishes them)"))
        }
        return originals
    }

    /// The files of the photo `slug` in the album `directory`: its page, its images at every
    /// width and format this build may make, and its original.
    private func photoFiles(directory: String, slug: String, photo: GalleryPhoto) -> [String] {
        var files = [directory + slug + ".html"]
        for width in options.allImageWidths {
            for format in options.allImageFormats {
                files.append(SitePlan.imagePath(directory: directory, slug: slug, width: width, format: format))
            }
        }
        if options.downloadOriginals {
            files.append(SitePlan.originalPath(directory: directory, slug: slug, fileName: photo.fileName))
        }
        return files
    }

    /// The files this build may make: every photo's images (at the widths its size allows)
    /// and every page and frame file of every album.
    private func plannedFiles(_ plan: SitePlan) -> [String] {
        var files: [String] = []
        for index in plan.photos.indices {
            files += plan.imagePaths(photo: index, widths: options.allImageWidths, formats: options.allImageFormats).values.joined()
            files.append(plan.pagePath(photo: index))
            if options.downloadOriginals { files.append(plan.originalPath(photo: index)) }
        }
        if options.baseURL != nil { files.append("sitemap.xml") }
        for (index, album) in plan.albums.enumerated() {
            let pageCount = SitePlan.pageCount(photos: album.photos.count, perPage: options.tilesPerPage)
            files += (1...pageCount).map { plan.albumPagePath(album: index, page: $0) }
            files.append(album.directory + "frames.json")
            let chunks = (album.photos.count + options.framesChunkSize - 1) / options.framesChunkSize
            files += (0..<chunks).map { album.directory + SitePlan.framesChunkPath($0) }
        }
        return files
    }

    /// Carries out each photo's decision, `jobs` photos at a time.
    private func processPhotos(
        plan: SitePlan, work: PhotoWork, hashes: [Result<String, PhotoFailure>], decisions: [ImageDecision?],
        previous: [String: BuildManifest.PhotoRecord], staged: [String: String], jobs: Int,
        progress: @Sendable (BuildEvent) -> Void
    ) async throws(SiteError) -> [Result<PhotoResult, ImagingError>] {
        let count = plan.photos.count
        var results = [Result<PhotoResult, ImagingError>?](repeating: nil, count: count)
        var firstFailure: SiteError?
        await withTaskGroup(of: (Int, Result<PhotoResult, PhotoFailure>).self) { group in
            var next = 0
            var done = 0
            func startNext() {
                guard next < count else { return }
                let index = next
                next += 1
                let photo = plan.photos[index].photo
                let paths = plan.imagePaths(photo: index, widths: work.widths, formats: work.formats)
                let hash = hashes[index]
                let decision = decisions[index]
                group.addTask {
                    switch hash {
                    case .failure(let failure): return (index, .failure(failure))
                    case .success(let hash):
                        return (index, work.apply(decision!, to: photo, hash: hash, paths: paths, previous: previous, staged: staged))
                    }
                }
            }
            for _ in 0..<min(jobs, count) { startNext() }
            while let (index, outcome) = await group.next() {
                switch outcome {
                case .success(let result):
                    results[index] = .success(result)
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

