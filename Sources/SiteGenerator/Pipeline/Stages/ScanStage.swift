import Catalog
import Gallery
import Imaging
import Video
import Support

/// The first stage: scans the photo folder (an unchanged file's header is not read again when
/// the catalog knows it) and plans where every album and photo goes, and which files the build
/// may write. A file of the output folder the tool did not make is never written over: a photo
/// whose page or images would take such a name gets another slug, and a page of the site's own
/// (an album's `index.html`, say) that is the user's is left out, each with a warning.
struct ScanStage {
    static let name = "scan"

    /// What the rest of the build goes by.
    struct Output: Sendable {
        /// Where every album and photo goes.
        var plan: SitePlan
        /// Files that were not published, and why.
        var problems: [ScanProblem]
        /// Every file this build may make (site-relative), in runs (a large library's every
        /// file is not joined into one list on one core: each run is asked about on its own).
        var planned: [[String]]
        /// Files this build would make that are the user's: left as they are.
        var refused: Set<String>
        /// The plan's tags, people and places (``TagIndex``, in ``TagKind/allCases``' order),
        /// their photos in the site's sort order: the pages' too, unless a photo is skipped.
        var tags: [TagIndex]
        /// The XMP sidecars whose fields the photos took (``ScanResult/sidecars``).
        var sidecars: [ScannedSidecar] = []
        /// The photos that stay as the last complete build left them (their files are not in
        /// ``planned``: they are all the tool's).
        var settled = SettledPhotos.none
    }

    var options: SiteOptions
    var jobs: Int

    /// The scanner this build's options make.
    private var scanner: GalleryScanner {
        var scanOptions = ScanOptions(sort: options.sort, limits: options.limits, concurrency: jobs)
        scanOptions.group = options.group
        scanOptions.layout = options.layout
        scanOptions.minRating = options.minRating
        scanOptions.videoTools = options.videoTools
        scanOptions.videoMaxDuration = options.video.maxDuration
        return GalleryScanner(options: scanOptions)
    }

    /// Walks the photo folder `source` (taking folders' entries from `listings`), reading no
    /// file: what ``run(walked:output:earlier:progress:)`` goes on from. It needs nothing of
    /// the earlier build, so a build walks while it reads its catalog.
    func walk(source: String, listings: FolderListings? = nil) throws(SiteError) -> WalkedFolder {
        do {
            return try scanner.walk(sourceDirectory: source, listings: listings)
        } catch {
            throw .source(error.description)
        }
    }

    /// Scans the photo folder as `walked` found it (an unchanged file's header is taken from
    /// `earlier`'s records) and plans where everything goes. `foreignInAlbums` is
    /// ``foreignFiles(inAlbumsOf:)`` of `earlier`, worked out beforehand (it needs nothing of the
    /// walk, so it runs while the walk goes on).
    /// `themeAssets` are the theme's assets, relative to their folder.
    func run(
        walked: consuming WalkedFolder, output: String, earlier: EarlierBuild, foreignInAlbums: [String: Bool], themeAssets: [String] = [],
        changes: (folders: [String]?, unchangedOutput: Set<String>) = (nil, []), progress: @Sendable (BuildEvent) -> Void
    ) throws(SiteError) -> Output {
        let records = earlier.stored.photos
        // What ffprobe said about each video and motion clip, by the source's path: gathered
        // from the records when the scan first meets a file the records do not know by its own
        // path (a new file, or a motion clip).
        let knownProbes = Lazy { () -> [String: (FileIdentity, VideoInfo)] in
            var probes: [String: (FileIdentity, VideoInfo)] = [:]
            for (path, box) in records.boxes {
                guard let video = box.wrappedValue.video, let probe = video.probe else { continue }
                let record = box.wrappedValue
                if let clip = video.sourcePath, let identity = video.sourceIdentity {
                    probes[clip] = (identity, probe)
                } else if let inode = record.inode, let changeTime = record.changeTime {
                    probes[path] = (FileIdentity(size: record.size, modificationTime: record.modificationTime,
                                                 changeTime: changeTime, inode: inode), probe)
                }
            }
            return probes
        }
        let haveTools = scanner.options.videoTools != nil
        // (The walk is handed on, not kept: the scan lets go of its files and folders once each
        // has its photo, most of a large library's memory at this point of the build.)
        let scan = scanner.scan(walked: consume walked, title: options.title, known: { [earlier] path, identity in
            earlier.knownInfo(path, identity)
        }, knownVideo: { path, identity in
            // A file with a record of its own is a video by that record or no video it knows
            // (a clip's probe is in its Live Photo's record, under the photo's path): its
            // probe is the record's, with no index of every record's probes made (the changed
            // photos of a rebuild are asked about).
            // A probe of an earlier VideoProbe version is made again (it read less: the zone of
            // the recording date), unless the tools are missing: then it is better than nothing.
            func current(_ probe: VideoInfo) -> Bool { probe.probeVersion == VideoProbe.version || !haveTools }
            if let box = records.boxed(path) {
                guard let video = box.wrappedValue.video else { return nil }
                if video.sourcePath == nil, let probe = video.probe, box.wrappedValue.matches(identity) { return current(probe) ? probe : nil }
            }
            guard let (recorded, probe) = knownProbes.value[path], recorded == identity, current(probe) else { return nil }
            return probe
        }, knownSidecar: { [earlier, verify = options.verifyAlbumKeys] path, identity in
            // (With the test hook on, every sidecar is read, and checked against the catalog's below.)
            guard !verify, let known = earlier.sidecars[path], known.identity == identity else { return nil }
            return known.fields
        })
        if options.verifyAlbumKeys {
            for sidecar in scan.sidecars {
                guard let known = earlier.sidecars[sidecar.relativePath], known.identity == sidecar.identity else { continue }
                if known.fields != sidecar.fields {
                    fatalError("\(sidecar.relativePath): the catalog's fields of the sidecar are not those read from it (verifyAlbumKeys)")
                }
            }
        }
        // Whether each album folder holds a file that is not the tool's, asked once per album:
        // the albums of the last build (the folders of its photo pages) on every core first.
        var foreignInAlbum = foreignInAlbums
        let listing = earlier.listing
        // What of the user's is in the way of a folder the site makes: a file (or a link) where
        // the folder, or one of its own folders, must go.
        @Sendable func inTheWay(ofFolder folder: String, subfolders: [String]) -> String? {
            guard let kind = listing.kind(of: folder) else { return nil }
            guard kind == .directory else { return folder }
            return subfolders.lazy.map { folder + "/" + $0 }.first { listing.kind(of: $0).map { $0 != .directory } ?? false }
        }
        // The theme's assets go where none of their places is the user's: `assets`, else `assets-2`, ….
        var assetsFolder = "assets"
        for number in 2... {
            let subfolders = Set(themeAssets.compactMap { asset in asset.contains("/") ? String(asset[..<asset.lastIndex(of: "/")!]) : nil })
            guard let blocker = inTheWay(ofFolder: assetsFolder, subfolders: subfolders.sorted())
                ?? themeAssets.sorted().lazy.map({ assetsFolder + "/" + $0 }).first(where: earlier.isForeign)
            else { break }
            let next = "assets-\(number)"
            progress(.warning("\(blocker) in the output folder is not Cascade's and stays as it is; the theme's assets are published in \(next)/ instead"))
            assetsFolder = next
        }
        // The feed and the sitemap, the same way: `feed.xml`, else `feed-2.xml`, …. (The
        // sitemap's name, with those of the parts it may be cut into: `sitemap-part-1.xml`, ….)
        var siteFiles = ["feed": "feed.xml", "sitemap": "sitemap.xml"]
        let rootNames = options.baseURL == nil ? [] : listing.names(in: "").sorted()
        for stem in ["feed", "sitemap"] where options.baseURL != nil {
            for number in 2... {
                guard let name = siteFiles[stem] else { break }
                let blocker = earlier.isForeign(name) ? name
                    : stem == "sitemap" ? rootNames.first { SitemapStage.isPart($0, of: name) && earlier.isForeign($0) } : nil
                guard let blocker else { break }
                let next = "\(stem)-\(number).xml"
                progress(.warning("\(blocker) in the output folder is not Cascade's and stays as it is; the site's \(stem) is published as \(next) instead"))
                siteFiles[stem] = next
            }
        }
        // The search index, the same way: `search/` unless a file of the user's is in it or it
        // is not a folder, else `search-2/`, ….
        var searchFolder: String?
        if options.search {
            // The first thing in `folder` (or `folder` itself) that is not the tool's.
            func usersFile(in folder: String) -> String? {
                guard let kind = listing.kind(of: folder) else { return nil }
                guard kind == .directory else { return folder }
                for name in listing.names(in: folder).sorted() {
                    let path = folder + "/" + name
                    if listing.kind(of: path) == .directory {
                        if let found = usersFile(in: path) { return found }
                    } else if earlier.isForeign(path) {
                        return path
                    }
                }
                return nil
            }
            var folder = "search"
            for number in 2... {
                guard let blocker = usersFile(in: folder) else { break }
                let next = "search-\(number)"
                progress(.warning("\(blocker) in the output folder is not Cascade's and stays as it is; the search index is published in \(next)/ instead"))
                folder = next
            }
            searchFolder = folder
        }
        let plan = SitePlan(root: scan.root, jobs: jobs, assetsFolder: assetsFolder, feedPath: siteFiles["feed"]!,
                            sitemapPath: siteFiles["sitemap"]!, searchFolder: searchFolder, holdsForeignFile: { directory in
            let foreign = foreignInAlbum[directory] ?? earlier.hasForeignFile(inAlbum: directory)
            foreignInAlbum[directory] = foreign
            return foreign
        }, taken: { directory, slug, photo in
            photoFiles(directory: directory, slug: slug, photo: photo).first(where: earlier.isForeign)
        }, folderTaken: { directory in
            inTheWay(ofFolder: String(directory.dropLast()), subfolders: ["thumbs", "frames", "pages", "originals", "videos"])
        })
        for collision in plan.collisions {
            progress(.warning("\(collision.photo): \(collision.file) in the output folder is not Cascade's and stays as it is; the photo is published as \(collision.slug) instead"))
        }
        for collision in plan.folderCollisions {
            progress(.warning("\(collision.album): \(collision.path) in the output folder is not Cascade's and stays as it is; the album is published in \(collision.directory) instead"))
        }
        // A photo's files are asked about only in albums that hold a file not the tool's
        // (every album's answer is known by now: the plan asked for each album with photos).
        let tags = TagIndex.all(plan: plan, sort: options.sort, enabled: options.enabledTagKinds, jobs: jobs)
        let settled = SettledPhotos(plan: plan, changedFolders: changes.folders, unchangedOutput: changes.unchangedOutput,
                                    previous: records, mainFormat: options.allImageFormats[0], jobs: jobs)
        let (planned, refused) = plannedFiles(plan, tags: tags, settled: settled, albumHoldsForeignFile: { [foreignInAlbum] in foreignInAlbum[$0] ?? true },
                                              isForeign: earlier.isForeign, isOwned: earlier.owned.contains)
        if !scan.videosWithoutTools.isEmpty {
            let count = scan.videosWithoutTools.count
            progress(.warning("\(count) video\(count == 1 ? " was" : "s were") skipped: ffmpeg and ffprobe are not on the PATH (\(MediaTools.installHint))"))
        }
        if scan.rejected + scan.belowMinimumRating > 0 {
            var reasons: [String] = []
            if scan.rejected > 0 { reasons.append("\(scan.rejected) rejected") }
            if scan.belowMinimumRating > 0 { reasons.append("\(scan.belowMinimumRating) below min_rating \(options.minRating)") }
            let count = scan.rejected + scan.belowMinimumRating
            progress(.warning("\(count) item\(count == 1 ? " was" : "s were") left out by rating: \(reasons.joined(separator: ", "))"))
        }
        for path in refused.sorted() {
            progress(.warning("\(path) in the output folder is not Cascade's and stays as it is; remove or rename it to publish the site's own \(path)"))
        }
        var output = Output(plan: plan, problems: scan.problems, planned: planned, refused: refused, tags: tags)
        output.sidecars = scan.sidecars
        output.settled = settled
        return output
    }

    /// Whether each album folder of the last build (a folder of one of its photo pages) holds a
    /// file that is not the tool's (``EarlierBuild/hasForeignFile(inAlbum:)``), asked on every core.
    func foreignFiles(inAlbumsOf earlier: EarlierBuild) -> [String: Bool] {
        // The pages' folders, from runs of the pages on every core.
        let pages = Array(earlier.stored.pages.keys)
        let folders = parallelMap(indexRuns(pages.count, length: 16_384), jobs: jobs) { run in
            var folders = Set<String>()
            for page in pages[run] {
                folders.insert(page.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(page[...$0]) } ?? "")
            }
            return folders
        }.reduce(into: Set<String>()) { $0.formUnion($1) }
        let list = Array(folders)
        return Dictionary(uniqueKeysWithValues: zip(list, parallelMap(list, jobs: jobs) { earlier.hasForeignFile(inAlbum: $0) }))
    }

    /// The files of the photo `slug` in the album `directory`: its page, its images at every
    /// width its size allows and in every format, its original when it is published
    /// (``SiteOptions/publishesOriginal(hasGPS:)``), and its video or motion clip.
    private func photoFiles(directory: String, slug: String, photo: GalleryPhoto) -> [String] {
        var files: [String] = []
        appendPhotoFiles(directory: directory, slug: slug, photo: photo, to: &files)
        return files
    }

    /// Appends ``photoFiles(directory:slug:photo:)`` to `files`.
    private func appendPhotoFiles(directory: String, slug: String, photo: GalleryPhoto, to files: inout [String]) {
        files.append(SitePlan.pagePath(directory: directory, slug: slug))
        for width in Renditions.targetWidths(requested: options.allImageWidths, fullWidth: photo.info.displayWidth) {
            for format in options.allImageFormats {
                files.append(SitePlan.imagePath(directory: directory, slug: slug, width: width, format: format))
            }
        }
        if options.publishesOriginal(hasGPS: photo.info.metadata.hasGPS) {
            files.append(SitePlan.originalPath(directory: directory, slug: slug, photo: photo))
        }
        if photo.isVideo { files.append(SitePlan.videoPath(directory: directory, slug: slug)) }
        if photo.motion != nil { files.append(SitePlan.livePath(directory: directory, slug: slug)) }
    }

    /// The files this build may make: every photo's images (at the widths its size allows)
    /// and every page and frame file of every album and of every entry of `tags`; and of them, those `isForeign` is true
    /// of, asked of a photo's files only when `albumHoldsForeignFile` is true of its album's
    /// folder (and of every other file). A settled photo's files are left out: they are all
    /// the tool's (`isOwned`, which debug builds check).
    private func plannedFiles(
        _ plan: SitePlan, tags: [TagIndex], settled: SettledPhotos, albumHoldsForeignFile: @Sendable (String) -> Bool,
        isForeign: @Sendable (String) -> Bool, isOwned: @Sendable (String) -> Bool
    ) -> (planned: [[String]], refused: Set<String>) {
        // The photos' files, in runs of photos on every core (in the photos' order).
        let runs = indexRuns(plan.photos.count, length: 2048)
        let photoFiles = parallelMap(runs, jobs: jobs) { [self] run in
            var files: [String] = []
            var refusedFiles: [String] = []
            for index in run {
                let planned = plan.photos[index]
                if settled[index] {
                    assert(self.photoFiles(directory: planned.directory, slug: planned.slug, photo: planned.photo).allSatisfy(isOwned),
                           "\(planned.photo.relativePath): a file of the settled photo is not the tool's")
                    continue
                }
                let first = files.count
                appendPhotoFiles(directory: planned.directory, slug: planned.slug, photo: planned.photo, to: &files)
                if albumHoldsForeignFile(planned.directory) { refusedFiles += files[first...].filter(isForeign) }
            }
            return (files, refusedFiles)
        }
        var others: [String] = []
        if options.baseURL != nil { others += [plan.sitemapPath, plan.feedPath] }
        for index in tags {
            others += index.files(tilesPerPage: options.tilesPerPage, framesChunkSize: options.framesChunkSize)
        }
        for index in plan.albums.indices {
            others += plan.albumFiles(album: index, tilesPerPage: options.tilesPerPage, framesChunkSize: options.framesChunkSize)
        }
        let refusedFiles = Set(photoFiles.map(\.1).joined()).union(others.filter(isForeign))
        return (photoFiles.map(\.0) + [others], refusedFiles)
    }
}
