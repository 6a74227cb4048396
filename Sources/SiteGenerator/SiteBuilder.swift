import Dispatch
import Foundation
import Gallery
import Imaging
import Synchronization
import Waterfall

/// What happened during a build, for progress output.
public enum BuildEvent: Sendable {
    /// The source folder was scanned.
    case scanned(photos: Int, albums: Int)
    /// A file was skipped, with the reason.
    case skipped(ScanProblem)
    /// One more photo's images were written.
    case photoProcessed(done: Int, total: Int)
}

/// The outcome of a build.
public struct BuildReport: Sendable {
    /// Albums published (the root included).
    public var albums: Int
    /// Photos published.
    public var photos: Int
    /// Image files written.
    public var imagesWritten: Int
    /// HTML pages written.
    public var pagesWritten: Int
    /// Files that were not published, and why.
    public var skipped: [ScanProblem]
    /// The output folder, absolute.
    public var outputDirectory: String
}

/// Builds the static site: scan, make the images, lay out every album, write the pages.
public struct SiteBuilder: Sendable {
    /// The build's options.
    public var options: SiteOptions

    /// Creates a builder.
    public init(options: SiteOptions) {
        self.options = options
    }

    /// Builds the site. A photo that cannot be read is skipped and reported; only problems
    /// with the whole build (options, folders, theme, writing) throw.
    public func build(progress: @Sendable (BuildEvent) -> Void = { _ in }) throws(SiteError) -> BuildReport {
        try options.validate()
        let (source, output) = try OutputSafety.resolve(source: options.sourceDirectory, output: options.outputDirectory)
        let theme = try Theme(overrides: options.templatesDirectory)
        let jobs = options.jobs > 0 ? options.jobs : ProcessInfo.processInfo.activeProcessorCount

        let scan: ScanResult
        do {
            scan = try GalleryScanner(limits: options.limits, concurrency: jobs)
                .scan(sourceDirectory: source, title: options.title)
        } catch {
            throw .source(error.description)
        }
        var plan = SitePlan(root: scan.root)
        progress(.scanned(photos: plan.photos.count, albums: plan.albums.count))
        var skipped = scan.problems
        for problem in scan.problems { progress(.skipped(problem)) }

        let writer = SiteWriter(root: output)
        let processed = try processPhotos(plan: plan, writer: writer, jobs: jobs, progress: progress)
        var imagesWritten = 0
        for (index, outcome) in processed.enumerated() {
            switch outcome {
            case .success(let images): imagesWritten += images.renditions.count
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
        let images = processed.map { try? $0.get() }

        let pages = PageRenderer(plan: plan, images: images, options: options, theme: theme)
        var pagesWritten = 0
        let albums = plan.reachableAlbums
        for album in albums {
            let rendered = try pages.albumFiles(album: album)
            for (path, contents) in rendered {
                try writer.write(Data(contents.utf8), to: path)
                if path.hasSuffix(".html") { pagesWritten += 1 }
            }
        }
        for (path, data) in theme.assets {
            try writer.write(data, to: "assets/" + path)
        }
        skipped.sort { $0.path < $1.path }
        return BuildReport(
            albums: albums.count,
            photos: albums.reduce(0) { $0 + plan.albums[$1].photos.count },
            imagesWritten: imagesWritten, pagesWritten: pagesWritten, skipped: skipped,
            outputDirectory: output)
    }

    /// Decodes each photo once and writes its images, `jobs` photos at a time.
    private func processPhotos(
        plan: SitePlan, writer: SiteWriter, jobs: Int, progress: @Sendable (BuildEvent) -> Void
    ) throws(SiteError) -> [Result<PhotoImages, ImagingError>] {
        let count = plan.photos.count
        let widths = Array(Set(options.tileWidths + options.photoWidths)).sorted()
        let format = options.imageFormat
        let limits = options.limits
        let results = Mutex([Result<PhotoImages, ImagingError>?](repeating: nil, count: count))
        let writeFailure = Mutex<SiteError?>(nil)
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
            while writeFailure.withLock({ $0 == nil }) {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let made = Result { () throws(ImagingError) -> RenditionSet in
                    try Renditions.make(from: try readFile(plan.photos[index].photo.sourcePath), widths: widths, format: format, limits: limits)
                }
                let outcome: Result<PhotoImages, ImagingError>
                switch made {
                case .failure(let error):
                    outcome = .failure(error)
                case .success(let set):
                    var written: [PhotoImages.Image] = []
                    for rendition in set.renditions {
                        let path = plan.imagePath(photo: index, width: rendition.width, format: format)
                        do throws(SiteError) {
                            try writer.write(Data(rendition.bytes), to: path)
                        } catch {
                            writeFailure.withLock { $0 = $0 ?? error }
                            return
                        }
                        written.append(.init(width: rendition.width, height: rendition.height, path: path))
                    }
                    outcome = .success(PhotoImages(
                        width: set.info.displayWidth, height: set.info.displayHeight,
                        color: set.averageColor.hex, renditions: written))
                }
                results.withLock { $0[index] = outcome }
                let finished = done.add(1, ordering: .relaxed).newValue
                progress(.photoProcessed(done: finished, total: count))
            }
        }
        if let failure = writeFailure.withLock({ $0 }) { throw failure }
        return results.withLock { $0.map { $0! } }
    }
}

/// The images written for one photo.
struct PhotoImages: Sendable {
    struct Image: Sendable {
        var width: Int
        var height: Int
        /// Site-relative path.
        var path: String
    }
    /// Display size of the photo (after orientation).
    var width: Int
    var height: Int
    /// Average colour, `#rrggbb`, shown while the image loads.
    var color: String
    /// Ascending widths.
    var renditions: [Image]
}

private func readFile(_ path: String) throws(ImagingError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw .io(path: path, reason: "cannot be read")
    }
    return [UInt8](data)
}
