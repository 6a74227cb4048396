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

        let previous = BuildManifest.load(outputDirectory: output) { progress(.warning($0)) }
        stage("manifest read")
        let scan: ScanResult
        do {
            let earlier = previous.photos
            scan = try GalleryScanner(options: ScanOptions(sort: options.sort, limits: options.limits, concurrency: jobs))
                .scan(sourceDirectory: source, title: options.title) { path, size, time in
                    guard let record = earlier[path], record.size == size, record.modificationTime == time else { return nil }
                    return record.probeVersion == ImageProbe.version ? record.info : nil
                }
        } catch {
            throw .source(error.description)
        }
        var plan = SitePlan(root: scan.root)
        stage("scan")
        progress(.scanned(photos: plan.photos.count, albums: plan.albums.count))
        var skipped = scan.problems
        for problem in scan.problems { progress(.skipped(problem)) }

        let writer = SiteWriter(root: output)
        // Before anything is written, the manifest also lists what this build may make, so
        // that files of a build that is interrupted are still known to be the tool's.
        var pending = previous
        let previousFiles = Set(previous.files)
        pending.files = Array(previousFiles.union(plannedFiles(plan).filter { previousFiles.contains($0) || !writer.exists($0) })).sorted()
        if pending != previous { try writer.write(pending.encoded(), to: BuildManifest.fileName) }

        stage("pending files")
        let processed = try await processPhotos(plan: plan, previous: previous, writer: writer, jobs: jobs, progress: progress)
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
            pages.originals = try publishOriginals(plan: plan, kept: images, writer: writer, made: &made, progress: progress)
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
                if let contents = file.contents { wrote = try writer.writeIfChanged(Data(contents.utf8), to: file.path) }
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
                        if let contents = page.contents, try writer.writeIfChanged(Data(contents.utf8), to: page.path) {
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
        // What an earlier build made and this one did not is stale.
        var filesRemoved = 0
        for path in Set(pending.files).subtracting(made).sorted() where writer.removeMadeFile(path) {
            filesRemoved += 1
            progress(.removed(path: path))
        }
        manifest.files = made.sorted()
        try writer.write(manifest.encoded(), to: BuildManifest.fileName)
        stage("clean-up and manifest")

        skipped.sort { $0.path < $1.path }
        return BuildReport(
            albums: albums.count,
            photos: albums.reduce(0) { $0 + plan.albums[$1].photos.count },
            photosMade: photosMade, photosReused: photosReused,
            imagesWritten: imagesWritten, pagesWritten: pagesWritten, pages: pageCount,
            filesRemoved: filesRemoved, skipped: skipped, outputDirectory: output)
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
        plan: SitePlan, kept images: [PhotoImages?], writer: SiteWriter, made: inout Set<String>,
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
                if writer.fileSize(path) != photo.fileSize {
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

    /// Makes (or reuses) each photo's images, `jobs` photos at a time.
    private func processPhotos(
        plan: SitePlan, previous: BuildManifest, writer: SiteWriter, jobs: Int, progress: @Sendable (BuildEvent) -> Void
    ) async throws(SiteError) -> [Result<PhotoResult, ImagingError>] {
        let count = plan.photos.count
        let work = PhotoWork(
            widths: options.allImageWidths, formats: options.allImageFormats, limits: options.limits,
            settings: options.allImageFormats.map(options.imageSettingsKey(for:)), keepGPS: options.keepGPS, writer: writer,
            previousByHash: Dictionary(previous.photos.values.map { ($0.contentHash, $0) }, uniquingKeysWith: { first, _ in first }))
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
                let record = previous.photos[photo.relativePath]
                group.addTask { (index, work.process(photo, paths: paths, previous: record)) }
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

/// The images of one photo, and how they came to be.
struct PhotoResult: Sendable {
    /// The photo's images, as the manifest records them.
    var record: BuildManifest.PhotoRecord
    var reused: Bool
    var imagesWritten: Int
}

enum PhotoFailure: Error {
    /// The photo cannot be used: it is skipped.
    case image(ImagingError)
    /// The site cannot be written: the build stops.
    case write(SiteError)
}

/// What every photo's work shares.
struct PhotoWork: Sendable {
    var widths: [Int]
    /// The formats every image is made in: the main one (`<img>`) first.
    var formats: [EncodeFormat]
    var limits: DecodeLimits
    /// Per format (in the order of `formats`), what its images depend on besides the photo.
    var settings: [String]
    /// Whether JPEG images keep the photo's GPS position.
    var keepGPS: Bool
    var writer: SiteWriter
    /// Records of the previous build by content hash: a renamed or moved photo's images are
    /// copied, not made again.
    var previousByHash: [String: BuildManifest.PhotoRecord]

    /// Makes one photo's images at `paths` (width → site-relative path per format, in the
    /// order of `formats`), or reuses those an earlier build made (`previous`) when the photo
    /// is unchanged: all of them when every format's settings are the same, else those of the
    /// formats whose settings are (the others are made from one decode).
    func process(_ photo: GalleryPhoto, paths: [Int: [String]], previous: BuildManifest.PhotoRecord?) -> Result<PhotoResult, PhotoFailure> {
        let widthsMade = paths.keys.sorted()
        // Per format, its planned files by ascending width.
        let wanted = formats.indices.map { format in widthsMade.map { paths[$0]![format] } }
        /// The formats whose planned files `record` lists, made with the same settings, and
        /// which are still there.
        func reusable(_ record: BuildManifest.PhotoRecord) -> Set<Int> {
            guard record.renditions.map(\.width) == widthsMade else { return [] }
            let files = record.filesBySettings
            return Set(formats.indices.filter { files[settings[$0]] == wanted[$0] && wanted[$0].allSatisfy(writer.exists) })
        }
        func reused(_ record: BuildManifest.PhotoRecord, hash: String) -> PhotoResult {
            PhotoResult(record: self.record(of: photo, hash: hash, made: record, paths: paths), reused: true, imagesWritten: 0)
        }
        // Unchanged by size and time: nothing is read.
        var kept: Set<Int> = []
        if let previous, previous.size == photo.fileSize, previous.modificationTime == photo.modificationTime {
            kept = reusable(previous)
            if kept.count == formats.count { return .success(reused(previous, hash: previous.contentHash)) }
        }
        guard let data = FileManager.default.contents(atPath: photo.sourcePath) else {
            return .failure(.image(.io(path: photo.relativePath, reason: "cannot be read")))
        }
        let bytes = [UInt8](data)
        let hash = contentHash(bytes)
        // Touched but not changed: the same content.
        if let previous, previous.contentHash == hash {
            kept = reusable(previous)
            if kept.count == formats.count { return .success(reused(previous, hash: hash)) }
        } else {
            kept = []
        }
        // Renamed or moved: the same content made with the same settings elsewhere in the site.
        if kept.isEmpty, let earlier = previousByHash[hash], earlier.renditions.map(\.width) == widthsMade {
            let files = earlier.filesBySettings
            let sources = settings.map { files[$0] }
            if sources.allSatisfy({ $0 != nil && $0!.allSatisfy(writer.exists) }) {
                // Should an earlier image not be readable after all, the images are made anew.
                var copied = true
                for (from, to) in zip(sources.flatMap { $0! }, wanted.flatMap { $0 }) where from != to {
                    guard let data = FileManager.default.contents(atPath: writer.root + "/" + from) else { copied = false; break }
                    do throws(SiteError) { try writer.write(data, to: to) } catch { return .failure(.write(error)) }
                }
                if copied {
                    let record = self.record(of: photo, hash: hash, made: earlier, paths: paths)
                    return .success(PhotoResult(record: record, reused: true, imagesWritten: wanted.joined().count))
                }
            }
        }

        // The formats whose images are not kept are made, from one decode.
        let missing = formats.indices.filter { !kept.contains($0) }
        let set: RenditionSet
        do throws(ImagingError) {
            set = try Renditions.make(from: bytes, widths: widths, formats: missing.map { formats[$0] }, limits: limits)
        } catch {
            return .failure(.image(error))
        }
        guard set.renditions.map(\.width) == widthsMade else {
            return .failure(.image(.processingFailed("made images \(set.renditions.map(\.width)) px wide, not the planned \(widthsMade)")))
        }
        // The GPS position goes back into JPEG images only when the site keeps it.
        let gps = keepGPS && photo.info.format == .jpeg ? GPSMetadata.block(fromJPEG: bytes) : nil
        var written = 0
        for (position, rendition) in set.renditions.enumerated() {
            for (encoding, format) in missing.enumerated() {
                var encoded = rendition.encodings[encoding]
                if let gps, case .jpeg = formats[format] { encoded = GPSMetadata.inserting(gps, into: encoded) }
                do throws(SiteError) { try writer.write(Data(encoded), to: wanted[format][position]) } catch { return .failure(.write(error)) }
                written += 1
            }
        }
        let record = self.record(
            of: photo, hash: hash, width: set.info.displayWidth, height: set.info.displayHeight, color: set.averageColor.hex,
            sizes: set.renditions.map { ($0.width, $0.height) }, paths: paths)
        return .success(PhotoResult(record: record, reused: missing.isEmpty, imagesWritten: written))
    }

    /// The record of a photo whose images an earlier build made (`made`: its size, colour and
    /// image sizes), now at `paths`.
    private func record(of photo: GalleryPhoto, hash: String, made: BuildManifest.PhotoRecord, paths: [Int: [String]]) -> BuildManifest.PhotoRecord {
        record(of: photo, hash: hash, width: made.width, height: made.height, color: made.color,
               sizes: made.renditions.map { ($0.width, $0.height) }, paths: paths)
    }

    /// The manifest record of a photo whose images of `sizes` (ascending widths) are at `paths`.
    private func record(
        of photo: GalleryPhoto, hash: String, width: Int, height: Int, color: String,
        sizes: [(width: Int, height: Int)], paths: [Int: [String]]
    ) -> BuildManifest.PhotoRecord {
        let renditions = sizes.map { BuildManifest.RenditionRecord(width: $0.width, height: $0.height, path: paths[$0.width]![0]) }
        let sources = formats.indices.dropFirst().map { index in
            BuildManifest.SourceRecord(type: formats[index].mimeType, settings: settings[index], paths: sizes.map { paths[$0.width]![index] })
        }
        return BuildManifest.PhotoRecord(
            size: photo.fileSize, modificationTime: photo.modificationTime, contentHash: hash, settings: settings[0],
            width: width, height: height, color: color, renditions: renditions,
            sources: sources.isEmpty ? nil : sources, info: photo.info, probeVersion: ImageProbe.version)
    }
}

/// The images written for one photo: its manifest record (display size, colour, renditions).
typealias PhotoImages = BuildManifest.PhotoRecord
