import Foundation
import GalleryConfig
import Imaging
import Synchronization
import Video
import Support

/// How a scan reads the photo folder.
public struct ScanOptions: Sendable, Hashable {
    /// The order of photos and sub-albums in every album whose `index.md` does not choose one.
    public var sort: AlbumSortOrder
    /// The pixel limit applied to every photo's header.
    public var limits: DecodeLimits
    /// How many files are probed at once (at least 1).
    public var concurrency: Int
    /// `ffmpeg` and `ffprobe`, found on the `PATH` by default; without them videos are left out
    /// (``ScanResult/videosWithoutTools``).
    public var videoTools: MediaTools? = MediaTools.locate()
    /// Videos longer than this many seconds are skipped (`video_max_duration`).
    public var videoMaxDuration: Double = VideoSettings().maxDuration
    /// How every album whose `index.md` does not choose splits its photos into sections.
    public var group: PhotoGrouping = .none
    /// How every album whose `index.md` does not choose is laid out.
    public var layout: AlbumLayout = .columns
    /// The fewest stars a photo needs to be published (`min_rating`; 0: every photo). A
    /// rejected photo (rating -1) is never published.
    public var minRating: Int = 0

    /// Creates options; by default photos are sorted by date, with the default pixel limit, one
    /// file per core at once.
    public init(
        sort: AlbumSortOrder = .date, limits: DecodeLimits = .default,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.sort = sort
        self.limits = limits
        self.concurrency = max(1, concurrency)
    }

    /// The options a site configuration asks for (`sort`, `max_megapixels`).
    public init(configuration: SiteConfiguration, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(sort: configuration.sort, limits: DecodeLimits(maxPixels: configuration.maxPixels), concurrency: concurrency)
        videoMaxDuration = Double(configuration.videoMaxDuration) * 60
        group = configuration.group
        layout = configuration.layout
        minRating = configuration.minRating
    }
}

/// Walks a photo folder and turns it into albums and photos.
///
/// Folders become albums (nested), hidden files and system clutter are ignored, every other
/// file is sniffed and probed from its header (nothing is decoded here), and a file that is not
/// a usable photo is reported as a ``ScanProblem``. Symbolic links are followed only while they
/// stay inside the source folder, and a folder reached twice (a link cycle) is read once.
///
/// Each album may hold an `index.md` (front matter: `title`, `date`, `cover`, `sort`, `hidden`;
/// a Markdown body: the description) and each photo a caption file: `NAME.EXT.txt` or
/// `NAME.EXT.md` (`IMG_1.jpg.txt`) first, then `STEM.txt` or `STEM.md` (`IMG_1.txt`), else the
/// EXIF image description or IPTC caption. Problems in these files are ``ScanProblem``s with a line; the scan goes on.
/// The photo folder is only read.
public struct GalleryScanner: Sendable {
    /// How the folder is read.
    public var options: ScanOptions

    /// The pixel limit applied to every photo's header.
    public var limits: DecodeLimits {
        get { options.limits }
        set { options.limits = newValue }
    }
    /// How many files are probed at once.
    public var concurrency: Int {
        get { options.concurrency }
        set { options.concurrency = max(1, newValue) }
    }

    /// Creates a scanner.
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
    }

    /// Creates a scanner that sorts by date (``ScanOptions/init(sort:limits:concurrency:)``).
    public init(limits: DecodeLimits, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(options: ScanOptions(limits: limits, concurrency: concurrency))
    }

    /// The largest caption or `index.md` file that is read; larger ones are reported and ignored.
    static let maxTextFileSize = 1 << 20

    /// Scans `sourceDirectory`; `title` names the root album.
    /// `known` may give what an earlier scan found in a file, by its relative path and identity
    /// (size, times, inode): then its header is not read again (the pixel limit still applies),
    /// and the file is a photo. For a file `known` has nothing on, `knownVideo` may give what
    /// ffprobe said about it as a video (not asked again).
    /// `listings` may give folders' entries already read (a folder not in it is read here).
    public func scan(
        sourceDirectory: String, title: String,
        known: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> ImageInfo? = { _, _ in nil },
        knownVideo: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> VideoInfo? = { _, _ in nil },
        knownSidecar: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> XMPMetadata? = { _, _ in nil },
        listings: FolderListings? = nil
    ) throws(GalleryError) -> ScanResult {
        scan(walked: try walk(sourceDirectory: sourceDirectory, listings: listings), title: title, known: known, knownVideo: knownVideo,
             knownSidecar: knownSidecar)
    }

    /// The first part of ``scan(sourceDirectory:title:known:knownVideo:knownSidecar:listings:)``: walks
    /// `sourceDirectory` (its folders' entries, from `listings` where they are given), reading
    /// no file. A build walks while it reads its catalog, which the walk does not need.
    public func walk(sourceDirectory: String, listings: FolderListings? = nil) throws(GalleryError) -> WalkedFolder {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: sourceDirectory, isDirectory: &isDirectory) else {
            throw .sourceMissing(sourceDirectory)
        }
        guard isDirectory.boolValue else { throw .sourceNotADirectory(sourceDirectory) }
        let root = URL(fileURLWithPath: sourceDirectory).standardizedFileURL.resolvingSymlinksInPath()
        do {
            _ = try fileManager.contentsOfDirectory(atPath: root.path)
        } catch {
            throw .sourceUnreadable(sourceDirectory, reason: Self.reason(error))
        }

        var walk = Walk(rootPath: root.path, concurrency: options.concurrency)
        walk.listings = listings
        // (Room for every entry at once: a large library's list of candidates was copied as it grew.)
        if let listings { walk.candidates.reserveCapacity(listings.entryCount) }
        let tree = walk.folder(at: root, relativePath: "")
        return WalkedFolder(tree: tree, candidates: walk.candidates, problems: walk.problems)
    }

    /// The rest of ``scan(sourceDirectory:title:known:knownVideo:knownSidecar:listings:)``, from the folder
    /// `walked`: reads each photo's header (unless `known` gives it), its sidecar (unless
    /// `knownSidecar` gives its fields) and caption, and puts the albums together. (The walk's
    /// files are let go of once each has its photo.)
    public func scan(
        walked: consuming WalkedFolder, title: String,
        known: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> ImageInfo? = { _, _ in nil },
        knownVideo: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> VideoInfo? = { _, _ in nil },
        knownSidecar: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> XMPMetadata? = { _, _ in nil }
    ) -> ScanResult {
        // Each candidate's header (or the catalog's), sidecar and photo, on every core.
        let (items, sidecarsTaken) = probeAll(walked.candidates, known: known, knownVideo: knownVideo, knownSidecar: knownSidecar)
        // Each sidecar once (a RAW file's sidecar applies to its photo only, but a sidecar
        // named after a stem could be found by two files).
        var sidecars: [ScannedSidecar] = []
        var sidecarPaths = Set<String>()
        for case let sidecar? in sidecarsTaken where sidecarPaths.insert(sidecar.relativePath).inserted { sidecars.append(sidecar) }
        var problems = walked.problems
        var photosByFolder: [String: [GalleryPhoto]] = [:]
        var videosWithoutTools: [String] = []
        // A folder's photos come in runs (the walk lists a folder's files together, but for its
        // sub-folders in between): each run joins its folder's list at once.
        var run: (folder: String, photos: [GalleryPhoto]) = ("", [])
        // (Each candidate read in place: a `zip` of the two lists copied every candidate and
        // item, on one core.)
        for index in items.indices {
            switch items[index] {
            case .item(let photo, let warnings):
                problems += warnings
                guard let photo else { break }
                if walked.candidates[index].folder != run.folder {
                    if !run.photos.isEmpty { photosByFolder[run.folder, default: []].append(contentsOf: run.photos) }
                    run = (walked.candidates[index].folder, [])
                }
                run.photos.append(photo)
            case .failure(let reason):
                problems.append(ScanProblem(path: walked.candidates[index].relativePath, reason: reason))
            case .videoWithoutTools:
                videosWithoutTools.append(walked.candidates[index].relativePath)
            }
        }
        if !run.photos.isEmpty { photosByFolder[run.folder, default: []].append(contentsOf: run.photos) }
        run.photos = []
        // The walk's files and the probes' results are let go of: a large library's largest values
        // here, and with them gone each photo has one reference, so that setting its caption
        // below does not copy it.
        let tree = walked.tree
        _ = consume walked
        _ = consume items
        var leftOut = RatingFilter(minRating: options.minRating)
        for folder in photosByFolder.keys {
            photosByFolder[folder] = leftOut.filter(Self.pairingLivePhotos(photosByFolder[folder]!))
        }
        let album = assemble(tree, name: title, photosByFolder: PhotosByFolder(consume photosByFolder), problems: &problems,
                             concurrency: options.concurrency)
            ?? GalleryAlbum(name: title, relativePath: "", albums: [], photos: [], sort: options.sort)
        problems.sort { ($0.path, $0.line ?? 0) < ($1.path, $1.line ?? 0) }
        var result = ScanResult(root: album, problems: problems)
        result.videosWithoutTools = videosWithoutTools
        result.rejected = leftOut.rejected
        result.belowMinimumRating = leftOut.belowMinimum
        result.sidecars = sidecars
        return result
    }

    /// The fields of the candidate's XMP sidecar, if it has one: `known`'s for a file of the
    /// identity the walk found, else read from the file; with the sidecar's record when its
    /// fields could be had.
    static func readSidecar(
        _ candidate: Candidate, known: (String, FileIdentity) -> XMPMetadata?
    ) -> (fields: Result<XMPMetadata, XMPError>, taken: ScannedSidecar?)? {
        guard let file = candidate.sidecar else { return nil }
        if let identity = file.identity, let fields = known(file.relativePath, identity) {
            return (.success(fields), ScannedSidecar(relativePath: file.relativePath, identity: identity, fields: fields, isNew: false))
        }
        let fields = Result { () throws(XMPError) -> XMPMetadata in
            guard file.size <= XMPReader.maximumSize else { throw .tooLarge(limit: XMPReader.maximumSize) }
            return try XMPReader.read(fileAtPath: file.path, scanned: file.scanned)
        }
        guard case .success(let read) = fields, let identity = file.identity else { return (fields, nil) }
        return (fields, ScannedSidecar(relativePath: file.relativePath, identity: identity, fields: read, isNew: true))
    }

    /// The items of one folder with each Live Photo made one item: a HEIC or JPEG photo and a
    /// MOV of the same stem (ignoring case) no longer than ``MotionClip/maximumDuration`` are
    /// the photo, with the MOV as its ``GalleryPhoto/motion``.
    static func pairingLivePhotos(_ items: [GalleryPhoto]) -> [GalleryPhoto] {
        var clips: [String: GalleryPhoto] = [:]
        for item in items {
            guard let video = item.video, pathExtension(item.fileName).lowercased() == "mov",
                  video.duration <= MotionClip.maximumDuration else { continue }
            clips[item.stem.lowercased()] = item
        }
        guard !clips.isEmpty else { return items }
        var paired = Set<String>()
        var result: [GalleryPhoto] = []
        for var item in items where item.video == nil {
            if item.info.format == .heif || item.info.format == .jpeg, let clip = clips[item.stem.lowercased()],
               !paired.contains(clip.relativePath) {
                paired.insert(clip.relativePath)
                item.motion = MotionClip(sourcePath: clip.sourcePath, relativePath: clip.relativePath,
                                         identity: clip.identity, video: clip.video!, scanned: clip.scannedFile)
            }
            result.append(item)
        }
        return result + items.filter { $0.video != nil && !paired.contains($0.relativePath) }
    }

    /// Leaves out the rejected items (rating -1), never published, and those below
    /// `min_rating`, photos and videos alike (a video's rating is its sidecar's), counting them.
    /// A Live Photo goes by its photo's rating: its clip is paired with it first.
    struct RatingFilter {
        var minRating: Int
        var rejected = 0
        var belowMinimum = 0

        mutating func filter(_ items: [GalleryPhoto]) -> [GalleryPhoto] {
            items.filter { item in
                let rating = item.rating
                if rating < 0 { rejected += 1 } else if rating < minRating { belowMinimum += 1 } else { return true }
                return false
            }
        }
    }

    /// What a candidate of the walk became.
    enum ScannedItem: Sendable {
        /// A photo or video, with what the user should know about it.
        case item(GalleryPhoto?, warnings: [ScanProblem])
        /// Not usable, and why.
        case failure(String)
        /// A video, while `ffmpeg` and `ffprobe` are not on the `PATH`.
        case videoWithoutTools
    }

    /// The photo of `candidate` whose header is `info` (and ffprobe's facts `video`, for a
    /// video), with its XMP sidecar's fields as `sidecar` read them.
    private func item(
        _ candidate: Candidate, info: ImageInfo, video: VideoInfo?, sidecar: Result<XMPMetadata, XMPError>?
    ) -> ScannedItem {
        var warnings: [ScanProblem] = []
        var photo = GalleryPhoto(
            sourcePath: candidate.path, relativePath: candidate.relativePath,
            fileName: candidate.name, fileSize: candidate.identity.size,
            modificationTime: candidate.identity.modificationTime, info: info)
        photo.changeTime = candidate.identity.changeTime
        photo.inode = candidate.identity.inode
        photo.scannedFile = candidate.scanned
        photo.video = video
        for problem in video?.fieldProblems ?? [] {
            warnings.append(ScanProblem(path: candidate.relativePath, reason: problem, isWarning: true))
        }
        if let problem = info.metadata.xmpProblem {
            warnings.append(ScanProblem(path: candidate.relativePath,
                                        reason: "its embedded XMP is not read: \(problem); the photo is published without it",
                                        isWarning: true))
        }
        for problem in info.metadata.fieldProblems ?? [] {
            warnings.append(ScanProblem(path: candidate.relativePath,
                                        reason: "\(problem); the photo is published without it", isWarning: true))
        }
        switch sidecar {
        case .success(let fields):
            photo.sidecar = fields
            for problem in fields.fieldProblems ?? [] {
                warnings.append(ScanProblem(path: candidate.sidecar?.relativePath ?? candidate.relativePath,
                                            reason: "\(problem); \(candidate.name) is published without it", isWarning: true))
            }
        case .failure(let error):
            warnings.append(ScanProblem(path: candidate.sidecar?.relativePath ?? candidate.relativePath,
                                        reason: "this XMP sidecar is not read: \(error); \(candidate.name) is published without it",
                                        isWarning: true))
        case nil: break
        }
        // (Rejected and low-rated items are left out once Live Photos are paired: ``RatingFilter``.)
        return .item(photo, warnings: warnings)
    }

    enum ProbeOutcome: Sendable {
        /// A photo, or a video (then `info` describes its poster: its size as shown, upright).
        case item(ImageInfo, VideoInfo?)
        /// Not usable, and why.
        case failure(String)
        /// A video, while `ffmpeg` and `ffprobe` are not on the `PATH`.
        case videoWithoutTools
    }

    /// What a file is by its first bytes, for the choice of reader.
    enum Sniffed: Equatable {
        /// A video container ffmpeg gets (pinned to its demuxer).
        case video
        /// Named like a video, but no container cascade reads: never handed to ffmpeg, whose
        /// own guess could take a DASH manifest or an `ffconcat` list for a video and publish
        /// the files it names.
        case videoNameOnly
        /// Anything else: the image reader decides.
        case other
    }

    /// Whether the file is a video, from its first bytes alone (its name never makes it one).
    static func sniff(_ file: SourceFile, name: String) -> Sniffed {
        let bytes = file.prefix(VideoSniffer.headerLength)
        if bytes.isEmpty { return .other }
        if VideoSniffer.isVideo(bytes) { return .video }
        let namedVideo = ImageFormat.sniff(bytes) == nil && Walk.videoExtensions.contains(pathExtension(name).lowercased())
        return namedVideo ? .videoNameOnly : .other
    }

    /// Probes a video with ffprobe: its poster's `ImageInfo` (its size as shown, its date, whether
    /// it has a location) and the video's own record.
    static func probeVideo(_ candidate: Candidate, tools: MediaTools, maxDuration: Double) -> ProbeOutcome {
        let video: VideoInfo
        do throws(VideoError) {
            video = try VideoProbe.probe(fileAtPath: candidate.path, scanned: candidate.scanned, tools: tools)
        } catch {
            return .failure(error.description)
        }
        return videoOutcome(video, maxDuration: maxDuration)
    }

    /// A probed video as an item (its poster's `ImageInfo`: its size as shown, its date, whether
    /// it has a location), unless it is too long.
    static func videoOutcome(_ video: VideoInfo, maxDuration: Double) -> ProbeOutcome {
        guard video.duration <= maxDuration else {
            return .failure(VideoError.tooLong(seconds: video.duration, limit: maxDuration).description)
        }
        let info = ImageInfo(
            format: .png, pixelWidth: video.displayWidth, pixelHeight: video.displayHeight, orientation: .up,
            displayWidth: video.displayWidth, displayHeight: video.displayHeight,
            metadata: PhotoMetadata(dateTaken: video.creationDate, hasGPS: video.hasLocation))
        return .item(info, video)
    }

    /// Each candidate's header (unless `known` has it) and XMP sidecar (unless `knownSidecar`
    /// has it: editing one changes the identity it is known by), read on every core, and the
    /// photo made of them; with the sidecars whose fields were taken.
    private func probeAll(
        _ candidates: [Candidate], known: @Sendable (String, FileIdentity) -> ImageInfo?,
        knownVideo: @Sendable (String, FileIdentity) -> VideoInfo?, knownSidecar: @Sendable (String, FileIdentity) -> XMPMetadata?
    ) -> (items: [ScannedItem], sidecars: [ScannedSidecar?]) {
        @Sendable func finish(
            _ index: Int, _ outcome: ProbeOutcome, _ sidecar: (fields: Result<XMPMetadata, XMPError>, taken: ScannedSidecar?)?
        ) -> (ScannedItem, ScannedSidecar?) {
            switch outcome {
            case .item(let info, let video): (item(candidates[index], info: info, video: video, sidecar: sidecar?.fields), sidecar?.taken)
            case .failure(let reason): (.failure(reason), nil)
            case .videoWithoutTools: (.videoWithoutTools, nil)
            }
        }
        @Sendable func readSidecar(_ candidate: Candidate) -> (fields: Result<XMPMetadata, XMPError>, taken: ScannedSidecar?)? {
            Self.readSidecar(candidate, known: knownSidecar)
        }
        let tools = options.videoTools
        let maxDuration = options.videoMaxDuration
        let limits = options.limits
        let scanned = parallelMap(Array(candidates.indices), jobs: options.concurrency) { index -> (ScannedItem, ScannedSidecar?) in
            let candidate = candidates[index]
            // What the catalog knows of the file (asked once: it is a lookup and a copy): the
            // header of a photo, never a video's.
            let earlier = known(candidate.relativePath, candidate.identity)
            // A video an earlier build published is kept without the tools too (its probe is
            // the catalog's): only videos never published need them.
            if earlier == nil, let video = knownVideo(candidate.relativePath, candidate.identity) {
                return finish(index, Self.videoOutcome(video, maxDuration: maxDuration), readSidecar(candidate))
            }
            // Opened as the walk found it (a file or folder swapped for a link since is refused),
            // and read through that descriptor: the header probe never opens the name again.
            var opened: SourceFile?
            if earlier == nil {
                let file: SourceFile
                do throws(SourceFileError) {
                    file = try SourceFile.open(candidate.path, scanned: candidate.scanned)
                } catch {
                    return finish(index, .failure(error.description), nil)
                }
                opened = file
                switch Self.sniff(file, name: candidate.name) {
                case .video:
                    let outcome = tools.map { Self.probeVideo(candidate, tools: $0, maxDuration: maxDuration) } ?? .videoWithoutTools
                    // A video's sidecar (`clip.mp4.xmp`, `clip.xmp`) is read as a photo's is.
                    guard case .item = outcome else { return finish(index, outcome, nil) }
                    return finish(index, outcome, readSidecar(candidate))
                case .videoNameOnly:
                    return finish(index, .failure(VideoError.notAContainer.description), nil)
                case .other:
                    break
                }
                // Checked before anything reads it whole (its hash, its decoding).
                if candidate.identity.size > SourceFile.maximumPhotoSize {
                    let error = SourceFileError.tooLarge(size: candidate.identity.size, limit: SourceFile.maximumPhotoSize)
                    return finish(index, .failure(error.description), nil)
                }
            }
            let result = Result<ImageInfo, ImagingError> { () throws(ImagingError) -> ImageInfo in
                let info: ImageInfo
                if let earlier {
                    info = earlier
                } else if let opened {
                    info = try ImageProbe.probe(opened, path: candidate.path)
                } else {
                    info = try ImageProbe.probe(fileAtPath: candidate.path)
                }
                try limits.check(info)
                return info
            }
            var sidecar: (fields: Result<XMPMetadata, XMPError>, taken: ScannedSidecar?)?
            if case .success = result { sidecar = readSidecar(candidate) }
            let outcome: ProbeOutcome = switch result {
            case .success(let info): .item(info, nil)
            case .failure(let error): .failure(error.description)
            }
            return finish(index, outcome, sidecar)
        }
        return (scanned.map(\.0), scanned.map(\.1))
    }

    /// The album of `folder` and of its sub-folders (nil when none of them has a photo, but
    /// for the root), with the problems found in their text files. With `concurrency` above 1,
    /// the sub-folders are assembled that many at a time (their problems in the same order).
    private func assemble(
        _ folder: Folder, name: String, photosByFolder: PhotosByFolder, problems: inout [ScanProblem],
        concurrency: Int = 1
    ) -> GalleryAlbum? {
        var albums: [GalleryAlbum] = []
        if concurrency > 1, folder.subfolders.count > 1 {
            let results = parallelMap(folder.subfolders, jobs: concurrency) { subfolder -> (GalleryAlbum?, [ScanProblem]) in
                var found: [ScanProblem] = []
                let album = assemble(subfolder, name: subfolder.name, photosByFolder: photosByFolder, problems: &found)
                return (album, found)
            }
            for (album, found) in results {
                problems += found
                if let album { albums.append(album) }
            }
        } else {
            for subfolder in folder.subfolders {
                if let album = assemble(subfolder, name: subfolder.name, photosByFolder: photosByFolder, problems: &problems) {
                    albums.append(album)
                }
            }
        }
        var photos = photosByFolder.take(folder.relativePath)
        guard !albums.isEmpty || !photos.isEmpty || folder.relativePath.isEmpty else { return nil }

        for index in photos.indices {
            attachCaption(to: &photos[index], in: folder, problems: &problems)
        }
        var frontMatter = AlbumFrontMatter()
        var descriptionHTML: String?
        if let indexFile = folder.textFiles["index.md"],
           let text = Self.readText(indexFile, problems: &problems) {
            let parsed = AlbumIndexFile(parsing: text, file: indexFile.relativePath)
            for problem in parsed.problems {
                problems.append(ScanProblem(path: indexFile.relativePath, reason: problem.messageWithoutFile, line: problem.line))
            }
            frontMatter = parsed.frontMatter
            descriptionHTML = Self.html(fromMarkdown: parsed.body)
        }
        var coverFileName: String?
        if let cover = frontMatter.cover, let indexFile = folder.textFiles["index.md"] {
            if let photo = photos.first(where: { $0.fileName == cover })
                ?? photos.first(where: { $0.fileName.lowercased() == cover.lowercased() }) {
                coverFileName = photo.fileName
            } else {
                let line = frontMatter.coverLine
                let prefix = line.map { "line \($0): " } ?? ""
                problems.append(ScanProblem(
                    path: indexFile.relativePath,
                    reason: prefix + "cover: \"\(cover)\" is not a photo in this album's folder; the album's first photo is its cover",
                    line: line))
            }
        }
        Self.assignLocalZones(&photos)
        let sort = frontMatter.sort ?? options.sort
        photos = Self.sorted(photos, sort, name: { $0.fileName }, date: { $0.date })
        if let indexFile = folder.textFiles["index.md"] {
            photos = Self.applyManualOrder(frontMatter.order, to: photos, indexFile: indexFile.relativePath, problems: &problems)
        }
        let layout = frontMatter.layout ?? options.layout
        var group = frontMatter.group ?? options.group
        if layout == .rows, group != .none {
            problems.append(ScanProblem(
                path: folder.textFiles["index.md"]?.relativePath ?? folder.relativePath,
                reason: "group: \(group.rawValue) cannot be combined with layout: rows yet; the album is shown in rows without sections"))
            group = .none
        }
        if group != .none {
            // Sections by date, oldest first, undated last; each section in the album's order.
            photos = photos.enumerated().sorted { a, b in
                switch (group.key(a.element.date), group.key(b.element.date)) {
                case let (x?, y?) where x != y: return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return a.offset < b.offset
                }
            }.map(\.element)
        }
        albums = Self.sorted(albums, sort, name: { $0.name }, date: { $0.date })
        let oldest = (photos.compactMap(\.date) + albums.compactMap(\.oldestPhotoDate)).min()
        var album = GalleryAlbum(
            name: name, relativePath: folder.relativePath, albums: albums, photos: photos,
            title: frontMatter.title?.trimmingWhitespace().nonEmpty ?? name, date: frontMatter.date ?? oldest,
            descriptionHTML: descriptionHTML, hidden: frontMatter.hidden, coverFileName: coverFileName, sort: sort)
        album.group = group
        album.layout = layout
        album.oldestPhotoDate = oldest
        return album
    }

    /// Gives each item whose date is written in UTC alone (a video's `creation_time`) the zone
    /// of the album's item nearest to it in time that has a zone of its own (an iPhone photo's
    /// EXIF OffsetTimeOriginal, a phone video's QuickTime creation date); the earlier of two as
    /// near. An album with no such item leaves the date in UTC. A floating date (a camera's,
    /// without a zone) is ordered in the zone of the item nearest to it in wall time that has
    /// one (``GalleryDate/assumingZone(_:)``; it is still shown as it is): the camera's and the
    /// phone's photos of one afternoon then interleave as their clocks showed.
    static func assignLocalZones(_ photos: inout [GalleryPhoto]) {
        // (Most albums have neither kind: no date is parsed again for them.)
        func floating(_ date: GalleryDate?) -> Bool { date.map { $0.offset == nil && $0.wallTime != nil } ?? false }
        guard photos.contains(where: { $0.mayBeUniversal || floating($0.date) }) else { return }
        // (A photo's date is its own until it has a zone given: parsed once, when it was made.)
        let dates = photos.map { $0.localZone == nil ? $0.date : $0.ownDate }
        let zoned = dates.compactMap { date -> (instant: Int, wall: Int, offset: Int)? in
            guard let date, !date.isUniversal, let instant = date.instant, let wall = date.wallTime, let offset = date.offset else { return nil }
            return (instant, wall, offset)
        }
        guard !zoned.isEmpty else { return }
        // The zoned items by instant and by wall time, each searched by halves: an album of a
        // phone's 20,000 photos beside a camera's asks 20,000 times.
        let byInstant = zoned.map { (key: $0.instant, instant: $0.instant, offset: $0.offset) }.sorted { ($0.key, $0.instant) < ($1.key, $1.instant) }
        let byWall = zoned.map { (key: $0.wall, instant: $0.instant, offset: $0.offset) }.sorted { ($0.key, $0.instant) < ($1.key, $1.instant) }
        for index in photos.indices {
            guard let date = dates[index] else { continue }
            if date.isUniversal, let instant = date.instant {
                photos[index].localZone = nearest(to: instant, in: byInstant)
            } else if floating(date), let wall = date.wallTime {
                photos[index].localZone = nearest(to: wall, in: byWall)
            }
        }
    }

    /// The offset of the item of `sorted` (ascending by key, then instant) whose key is nearest
    /// to `key`; of two as near, the one with the earlier instant.
    private static func nearest(to key: Int, in sorted: [(key: Int, instant: Int, offset: Int)]) -> Int {
        // The first item at or after `key`, and the last before it (the earliest of its key).
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].key < key { low = middle + 1 } else { high = middle }
        }
        var candidates: [(key: Int, instant: Int, offset: Int)] = []
        if low < sorted.count { candidates.append(sorted[low]) }
        if low > 0 {
            let before = sorted[low - 1].key
            var first = low - 1
            while first > 0, sorted[first - 1].key == before { first -= 1 }
            candidates.append(sorted[first])
        }
        return candidates.min { a, b in (abs(a.key - key), a.instant) < (abs(b.key - key), b.instant) }!.offset
    }

    /// The caption files of a photo, most specific first: `IMG_1.jpg.txt`, `IMG_1.jpg.md`,
    /// `IMG_1.txt`, `IMG_1.md` (never the album's `index.md`); else the EXIF description or IPTC caption.
    private func attachCaption(to photo: inout GalleryPhoto, in folder: Folder, problems: inout [ScanProblem]) {
        // A folder without text files (most of a large library's) has no caption files.
        guard !folder.textFiles.isEmpty else {
            photo.captionText = photo.exifDescription
            return
        }
        let name = photo.fileName.lowercased()
        let stem = photo.stem.lowercased()
        var candidates = [name + ".txt", name + ".md"]
        if stem != name { candidates += [stem + ".txt", stem + ".md"] }
        for candidate in candidates where candidate != "index.md" {
            guard let file = folder.textFiles[candidate], let text = Self.readText(file, problems: &problems) else { continue }
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            if candidate.hasSuffix(".md") {
                guard let html = Self.html(fromMarkdown: trimmed) else { continue }
                photo.captionHTML = html
            } else {
                photo.captionText = trimmed
            }
            return
        }
        photo.captionText = photo.exifDescription
    }

    /// Markdown rendered to safe HTML (see ``MarkdownRenderer``); `nil` for nothing visible.
    static func html(fromMarkdown markdown: String) -> String? {
        MarkdownRenderer.html(fromMarkdown: markdown)
    }

    /// The text of a caption or `index.md` file, decoded as UTF-8 (invalid bytes replaced);
    /// `nil` with a problem when it cannot be read or is too large.
    static func readText(_ file: TextFile, problems: inout [ScanProblem]) -> String? {
        guard file.size <= maxTextFileSize else {
            problems.append(ScanProblem(path: file.relativePath,
                                        reason: "larger than \(maxTextFileSize / 1024) KB; not read as a caption or album description"))
            return nil
        }
        // Opened as the walk found it (a file or folder swapped for a link since is refused),
        // and never read past the limit, whatever it has become.
        let data: Data
        do throws(SourceFileError) {
            data = try SourceFile.open(file.path, scanned: file.scanned).readAll(limit: maxTextFileSize)
        } catch {
            let reason = if case .tooLarge = error {
                "larger than \(maxTextFileSize / 1024) KB; not read as a caption or album description"
            } else {
                error.description
            }
            problems.append(ScanProblem(path: file.relativePath, reason: reason))
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The order of photos or albums: by date (dated ones first, oldest first or newest first;
    /// ties and undated ones by name) or by name alone, either way round.
    public static func order<T>(_ sort: AlbumSortOrder, name: KeyPath<T, String>, date: KeyPath<T, GalleryDate?>) -> (T, T) -> Bool {
        order(sort, name: { $0[keyPath: name] }, date: { $0[keyPath: date] })
    }

    /// The same order, with the name and date read by closures (a key path read in every
    /// comparison of a 1,000-photo album's sort was most of the sort).
    @inline(__always)
    static func order<T>(_ sort: AlbumSortOrder, name: @escaping (T) -> String, date: @escaping (T) -> GalleryDate?) -> (T, T) -> Bool {
        switch sort {
        case .name:
            return { naturalOrder(name($0), name($1)) }
        case .nameDescending:
            return { naturalOrder(name($1), name($0)) }
        case .date, .dateDescending:
            let newestFirst = sort == .dateDescending
            return { a, b in
                switch (date(a), date(b)) {
                case let (x?, y?) where x != y: return newestFirst ? y < x : x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return naturalOrder(name(a), name(b))
                }
            }
        }
    }

    /// `items` in `sort` order, each item's name and date read once (a photo's date is parsed
    /// from its metadata: reading it in every comparison was most of a rebuild's scan).
    public static func sorted<T>(_ items: [T], _ sort: AlbumSortOrder, name: KeyPath<T, String>, date: KeyPath<T, GalleryDate?>) -> [T] {
        sorted(items, sort, name: { $0[keyPath: name] }, date: { $0[keyPath: date] })
    }

    /// The same, with the name and date read by closures (a key path's generic projection, once
    /// per photo of a large library, was a tenth of its scan's sort).
    @inline(__always)
    static func sorted<T>(_ items: [T], _ sort: AlbumSortOrder, name: (T) -> String, date: (T) -> GalleryDate?) -> [T] {
        let keyed = items.indices.map { SortKeys(index: $0, name: name(items[$0]), date: date(items[$0])) }
        return keyed.sorted(by: order(sort, name: { $0.name }, date: { $0.date })).map { items[$0.index] }
    }

    /// `photos` with those named in `order` first, in that order (names matched exactly, else
    /// ignoring case), the others after them as they were; a listed name that is not a photo
    /// of the album is a problem of its `index.md`.
    static func applyManualOrder(
        _ order: [String], to photos: [GalleryPhoto], indexFile: String, problems: inout [ScanProblem]
    ) -> [GalleryPhoto] {
        guard !order.isEmpty else { return photos }
        var remaining = photos
        var ordered: [GalleryPhoto] = []
        for name in order {
            guard let index = remaining.firstIndex(where: { $0.fileName == name })
                ?? remaining.firstIndex(where: { $0.fileName.lowercased() == name.lowercased() })
            else {
                if !ordered.contains(where: { $0.fileName.lowercased() == name.lowercased() }) {
                    problems.append(ScanProblem(path: indexFile, reason: "order: \"\(name)\" is not a photo in this album's folder; it is left out of the order"))
                }
                continue
            }
            ordered.append(remaining.remove(at: index))
        }
        return ordered + remaining
    }

    static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }
}

/// The photo folder's files and folders as ``GalleryScanner/walk(sourceDirectory:listings:)``
/// found them, before any file is read.
public struct WalkedFolder: Sendable {
    let tree: Folder
    let candidates: [Candidate]
    let problems: [ScanProblem]
}

/// Each folder's photos, taken by the album made of the folder (``GalleryScanner/assemble``),
/// once: the album's list is then the only reference to its photos, and a photo's caption is set
/// in place instead of in a copy of the photo.
final class PhotosByFolder: Sendable {
    private let photos: Mutex<[String: [GalleryPhoto]]>

    init(_ photos: consuming [String: [GalleryPhoto]]) {
        self.photos = Mutex(photos)
    }

    /// The photos of the folder at `relativePath` (none the second time).
    func take(_ relativePath: String) -> [GalleryPhoto] {
        photos.withLock { $0.removeValue(forKey: relativePath) ?? [] }
    }
}

/// A file that may be a photo, found by the walk and probed afterwards.
struct Candidate: Sendable {
    var path: String
    var relativePath: String
    var folder: String
    var name: String
    var identity: FileIdentity
    /// Where the walk found it and the folder holding it (the folder's inode 0 when it could
    /// not be read again), which every later read checks.
    var scanned: ScannedFile
    /// The XMP sidecar that applies to it, if any.
    var sidecar: TextFile?
}

/// A `.txt` or `.md` file found by the walk: a caption or an album's `index.md`.
struct TextFile: Sendable {
    var path: String
    var relativePath: String
    var size: Int
    /// Where the walk found it, which the read checks (a file or folder swapped for a link
    /// since is not read).
    var scanned: ScannedFile? = nil
    /// The file as the walk found it (for a sidecar: what its fields are known by).
    var identity: FileIdentity? = nil
}

/// A folder found by the walk.
struct Folder: Sendable {
    var name: String
    var relativePath: String
    var subfolders: [Folder]
    /// The folder's `.txt` and `.md` files by lower-cased name (the first in name order wins).
    var textFiles: [String: TextFile] = [:]
}

/// The depth-first walk over the source tree.
struct Walk {
    let rootPath: String
    var candidates: [Candidate] = []
    var problems: [ScanProblem] = []
    private var visited: Set<String> = []
    /// Sub-folders' entries read ahead, by the folder's path (nil: it could not be read).
    private var prefetched: [String: [FolderEntry]?] = [:]
    /// Folders' entries read before the scan (by the build's stamp): those folders are not read again.
    var listings: FolderListings?

    /// How many folders are read at once.
    let concurrency: Int

    init(rootPath: String, concurrency: Int = 1) {
        self.rootPath = rootPath
        self.concurrency = concurrency
    }

    /// Names a photo folder holds that are not photos and not worth a message.
    static let ignoredNames: Set<String> = [
        "thumbs.db", "desktop.ini", "ehthumbs.db", "icon\r", "@eadir", "__macosx", "$recycle.bin",
        "lost+found",
    ]
    /// The longest of ``ignoredNames``, in bytes.
    static let longestIgnoredName = ignoredNames.map(\.utf8.count).max() ?? 0

    /// Whether the walk passes over the entry `name`: hidden files and the clutter above. (Only
    /// a name short enough to be one of those is lower-cased: this is asked of every entry.)
    static func isIgnored(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: ".") || name.utf8.count <= longestIgnoredName && ignoredNames.contains(name.lowercased())
    }

    /// Extensions of companion files (sidecars, edits, notes) that are silently left alone.
    static let sidecarExtensions: Set<String> = [
        "txt", "md", "markdown", "xmp", "aae", "json", "yaml", "yml", "thm", "ini", "db", "pp3", "dop",
        "xml", "lrv", "ctg", "pto", "log", "on1",
    ]
    static let videoExtensions: Set<String> = [
        "mov", "mp4", "m4v", "avi", "mkv", "3gp", "mts", "m2ts", "webm", "wmv", "mpg", "mpeg",
    ]
    static let rawExtensions: Set<String> = [
        "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "raf", "orf", "rw2", "srw", "pef",
        "x3f", "3fr", "iiq", "erf", "kdc", "mrw",
    ]

    mutating func folder(at url: URL, relativePath: String) -> Folder {
        let name = url.lastPathComponent
        visited.insert(url.path)
        var result = Folder(name: name, relativePath: relativePath, subfolders: [])
        let entries: [FolderEntry]?
        if let read = prefetched.removeValue(forKey: url.path) {
            entries = read
        } else if let listed = listings?.take(url.path) {
            entries = listed
        } else {
            entries = FolderEntries.read(url.path)
        }
        guard let entries else {
            // Foundation words the reason as before.
            var reason = "unknown error"
            do { _ = try FileManager.default.contentsOfDirectory(atPath: url.path) } catch { reason = GalleryScanner.reason(error) }
            problems.append(ScanProblem(path: relativePath.isEmpty ? "." : relativePath, reason: "cannot read the folder: \(reason)"))
            return result
        }
        // Paths are joined as strings: a URL per entry is slow across thousands of photos.
        let folderPath = url.path
        func pathInFolder(_ entry: String) -> String { folderPath.hasSuffix("/") ? folderPath + entry : folderPath + "/" + entry }
        // The sub-folders (not links to folders), read ahead a few at a time (``prefetch(_:)``).
        let subfolderPaths = entries.filter { $0.status?.kind == .directory && !Self.isIgnored($0.name) }
            .map { pathInFolder($0.name) }
        var readAhead = 0
        // XMP sidecars and camera RAW files of this folder, by lower-cased name: matched with
        // the photos once the whole folder is known.
        var sidecars: [String: TextFile] = [:]
        var raws: [(name: String, relativePath: String)] = []
        let firstCandidate = candidates.count
        // The folder's device and inode, for the check of its files' reads (``ScannedFile``):
        // taken once, when the folder has a file.
        var folderIdentity: (device: UInt64, inode: UInt64)??
        // Byte order, for a walk that is the same every time: albums and photos are put in their
        // own order afterwards (`order`), so the walk need not pay for the natural sort.
        for item in entries {
            let entry = item.name
            if Self.isIgnored(entry) { continue }
            let childPath = pathInFolder(entry)
            let childRelative = relativePath.isEmpty ? entry : relativePath + "/" + entry
            guard let status = item.status else {
                problems.append(ScanProblem(path: childRelative, reason: "cannot read the file's attributes"))
                continue
            }
            // What the entry is, or for a link what it leads to.
            var targetPath = childPath
            var targetStatus = status
            if status.kind == .symbolicLink {
                targetPath = URL(fileURLWithPath: childPath).resolvingSymlinksInPath().path
                guard targetPath == rootPath || targetPath.hasPrefix(rootPath + "/") else {
                    problems.append(ScanProblem(path: childRelative,
                                                reason: "a link to a place outside the photo folder; not published"))
                    continue
                }
                guard let resolved = FileStatus(path: targetPath), resolved.kind != .symbolicLink else {
                    problems.append(ScanProblem(path: childRelative, reason: "a broken link (it points to nothing)"))
                    continue
                }
                targetStatus = resolved
            }
            if targetStatus.kind == .directory {
                if visited.contains(targetPath) { continue }  // a link cycle, or a folder linked twice
                if listings == nil, readAhead < subfolderPaths.count, subfolderPaths[readAhead] == targetPath, prefetched[targetPath] == nil {
                    let window = subfolderPaths[readAhead...].prefix(2 * concurrency)
                    readAhead += window.count
                    prefetch(Array(window))
                }
                result.subfolders.append(folder(at: URL(fileURLWithPath: targetPath, isDirectory: true), relativePath: childRelative))
                continue
            }
            guard targetStatus.kind == .regular else { continue }
            let ext = pathExtension(entry).lowercased()
            // A link's target is in the folder its resolved path names, this one's file in this one.
            let holder: (device: UInt64, inode: UInt64)?
            if targetPath == childPath {
                if folderIdentity == nil { folderIdentity = .some(Self.folderIdentity(folderPath)) }
                holder = folderIdentity!
            } else {
                holder = Self.folderIdentity(String(targetPath[..<(targetPath.lastIndex(of: "/") ?? targetPath.startIndex)]))
            }
            let scanned = ScannedFile(device: targetStatus.device, inode: targetStatus.inode,
                                      folderDevice: holder?.device ?? 0, folderInode: holder?.inode ?? 0)
            // Captions and sidecars by lower-cased name, the first of each.
            switch ext {
            case "txt", "md":
                let lower = entry.lowercased()
                if result.textFiles[lower] == nil {
                    result.textFiles[lower] = TextFile(path: targetPath, relativePath: childRelative, size: targetStatus.size, scanned: scanned)
                }
            case "xmp":
                let lower = entry.lowercased()
                if sidecars[lower] == nil {
                    sidecars[lower] = TextFile(path: targetPath, relativePath: childRelative, size: targetStatus.size, scanned: scanned,
                                               identity: targetStatus.identity)
                }
            default:
                break
            }
            if Self.sidecarExtensions.contains(ext) { continue }
            if Self.rawExtensions.contains(ext) {
                raws.append((entry, childRelative))
                continue
            }
            candidates.append(Candidate(
                path: targetPath, relativePath: childRelative, folder: relativePath, name: entry,
                identity: targetStatus.identity, scanned: scanned))
        }
        pairSidecarsAndRAWs(from: firstCandidate, folder: relativePath, sidecars: sidecars, raws: raws)
        return result
    }

    /// The device and inode of the folder at `path` (`lstat`: a link is not a folder); nil when
    /// it is not a folder, or cannot be read.
    static func folderIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard lstat(path.isEmpty ? "/" : path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// Reads the entries of the sub-folders at `paths` on every core (the walk then goes through
    /// them one after another, as before): most of a large library's walk is `fstatat`. A few
    /// folders at a time, not all of a folder's sub-folders: a library of 100 albums of 1,000
    /// photos would otherwise hold all 100,000 entries at once.
    private mutating func prefetch(_ paths: [String]) {
        guard paths.count > 1, concurrency > 1 else { return }
        for (path, listing) in zip(paths, parallelMap(paths, jobs: concurrency, FolderEntries.read)) {
            prefetched[path] = .some(listing)
        }
    }

    /// A camera RAW file beside a photo of the same name (`IMG_1.CR3` and `IMG_1.JPG`) is that
    /// photo: ignored without a word, and its sidecar (`IMG_1.CR3.xmp`) applies to the photo
    /// when the photo has none of its own. A RAW file alone is reported. A photo's sidecar is
    /// `IMG_1.jpg.xmp`, else `IMG_1.xmp` (as Lightroom writes it for RAW files).
    private mutating func pairSidecarsAndRAWs(
        from firstCandidate: Int, folder: String, sidecars: [String: TextFile], raws: [(name: String, relativePath: String)]
    ) {
        // A folder without sidecars or RAW files (most of them) has nothing to pair.
        guard !sidecars.isEmpty || !raws.isEmpty else { return }
        func stem(_ name: String) -> String {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name.lowercased() }
            return name[..<dot].lowercased()
        }
        var photoStems: Set<String> = []
        for index in candidates.indices.dropFirst(firstCandidate) where candidates[index].folder == folder {
            let name = candidates[index].name.lowercased()
            let photoStem = stem(name)
            photoStems.insert(photoStem)
            let pairedRAWs = raws.filter { stem($0.name) == photoStem }.map { $0.name.lowercased() + ".xmp" }
            for candidate in [name + ".xmp", photoStem + ".xmp"] + pairedRAWs {
                if let file = sidecars[candidate] {
                    candidates[index].sidecar = file
                    break
                }
            }
        }
        for raw in raws where !photoStems.contains(stem(raw.name)) {
            problems.append(ScanProblem(path: raw.relativePath,
                                        reason: "camera RAW files are not supported; export a JPEG or HEIC"))
        }
    }
}

/// An item's place in a list and what it is sorted by, read once.
struct SortKeys {
    var index: Int
    var name: String
    var date: GalleryDate?
}
