import Dispatch
import Foundation
import GalleryConfig
import Imaging
import Ink
import Synchronization

/// How a scan reads the photo folder.
public struct ScanOptions: Sendable, Hashable {
    /// The order of photos and sub-albums in every album whose `index.md` does not choose one.
    public var sort: AlbumSortOrder
    /// The pixel limit applied to every photo's header.
    public var limits: DecodeLimits
    /// How many files are probed at once (at least 1).
    public var concurrency: Int
    /// How every album whose `index.md` does not choose splits its photos into sections.
    public var group: PhotoGrouping = .none
    /// How every album whose `index.md` does not choose is laid out.
    public var layout: AlbumLayout = .columns

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
        group = configuration.group
        layout = configuration.layout
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
    /// (size, times, inode): then its header is not read again (the pixel limit still applies).
    public func scan(
        sourceDirectory: String, title: String,
        known: @Sendable (_ relativePath: String, _ identity: FileIdentity) -> ImageInfo? = { _, _ in nil }
    ) throws(GalleryError) -> ScanResult {
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

        var walk = Walk(rootPath: root.path)
        let tree = walk.folder(at: root, relativePath: "")
        let probed = probeAll(walk.candidates, known: known)
        var problems = walk.problems
        var photosByFolder: [String: [GalleryPhoto]] = [:]
        for (candidate, outcome) in zip(walk.candidates, probed) {
            switch outcome {
            case .success(let info):
                var photo = GalleryPhoto(
                    sourcePath: candidate.path, relativePath: candidate.relativePath,
                    fileName: candidate.name, fileSize: candidate.identity.size,
                    modificationTime: candidate.identity.modificationTime, info: info)
                photo.changeTime = candidate.identity.changeTime
                photo.inode = candidate.identity.inode
                photosByFolder[candidate.folder, default: []].append(photo)
            case .failure(let error):
                problems.append(ScanProblem(path: candidate.relativePath, reason: error.description))
            }
        }
        let album = assemble(tree, name: title, photosByFolder: photosByFolder, problems: &problems)
            ?? GalleryAlbum(name: title, relativePath: "", albums: [], photos: [], sort: options.sort)
        problems.sort { ($0.path, $0.line ?? 0) < ($1.path, $1.line ?? 0) }
        return ScanResult(root: album, problems: problems)
    }

    private func probeAll(
        _ candidates: [Candidate], known: @Sendable (String, FileIdentity) -> ImageInfo?
    ) -> [Result<ImageInfo, ImagingError>] {
        let results = Mutex([Result<ImageInfo, ImagingError>?](repeating: nil, count: candidates.count))
        let next = Atomic<Int>(0)
        let limits = options.limits
        let concurrency = options.concurrency
        DispatchQueue.concurrentPerform(iterations: min(concurrency, max(candidates.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < candidates.count else { return }
                let candidate = candidates[index]
                let outcome = Result<ImageInfo, ImagingError> { () throws(ImagingError) -> ImageInfo in
                    let info: ImageInfo
                    if let earlier = known(candidate.relativePath, candidate.identity) {
                        info = earlier
                    } else {
                        info = try ImageProbe.probe(fileAtPath: candidate.path)
                    }
                    try limits.check(info)
                    return info
                }
                results.withLock { $0[index] = outcome }
            }
        }
        return results.withLock { $0.map { $0! } }
    }

    private func assemble(
        _ folder: Folder, name: String, photosByFolder: [String: [GalleryPhoto]], problems: inout [ScanProblem]
    ) -> GalleryAlbum? {
        var albums: [GalleryAlbum] = []
        for subfolder in folder.subfolders {
            if let album = assemble(subfolder, name: subfolder.name, photosByFolder: photosByFolder, problems: &problems) {
                albums.append(album)
            }
        }
        var photos = photosByFolder[folder.relativePath] ?? []
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
        let sort = frontMatter.sort ?? options.sort
        photos.sort(by: Self.order(sort, name: \.fileName, date: \.date))
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
        albums.sort(by: Self.order(sort, name: \.name, date: \.date))
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

    /// The caption files of a photo, most specific first: `IMG_1.jpg.txt`, `IMG_1.jpg.md`,
    /// `IMG_1.txt`, `IMG_1.md` (never the album's `index.md`); else the EXIF description or IPTC caption.
    private func attachCaption(to photo: inout GalleryPhoto, in folder: Folder, problems: inout [ScanProblem]) {
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

    /// Markdown rendered to HTML; `nil` for nothing visible.
    static func html(fromMarkdown markdown: String) -> String? {
        guard !markdown.trimmingWhitespace().isEmpty else { return nil }
        let parser = MarkdownParser(modifiers: [
            Modifier(target: .links) { html, markdown in escapingURL(in: html, markdown: markdown, opening: "<a href=\"", closing: "\">") },
            Modifier(target: .images) { html, markdown in escapingURL(in: html, markdown: markdown, opening: "<img src=\"", closing: "\"") },
        ])
        let html = parser.html(from: markdown).trimmingWhitespace()
        return html.isEmpty ? nil : html
    }

    /// Ink copies a link's or image's URL into its attribute as it is, so a `"` in it would end
    /// the attribute (`[x](https://e.com/"onmouseover="alert(1))`): the URL, taken from the
    /// Markdown, is put back HTML-escaped.
    private static func escapingURL(in html: String, markdown: Substring, opening: String, closing: String) -> String {
        guard let open = markdown.range(of: "]("), markdown.hasSuffix(")") else { return html }
        let url = String(markdown[open.upperBound..<markdown.index(before: markdown.endIndex)])
        let original = opening + url + closing
        guard html.hasPrefix(original) else { return html }
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "'", with: "&#39;")
        return opening + escaped + closing + html.dropFirst(original.count)
    }

    /// The text of a caption or `index.md` file, decoded as UTF-8 (invalid bytes replaced);
    /// `nil` with a problem when it cannot be read or is too large.
    static func readText(_ file: TextFile, problems: inout [ScanProblem]) -> String? {
        guard file.size <= maxTextFileSize else {
            problems.append(ScanProblem(path: file.relativePath,
                                        reason: "larger than \(maxTextFileSize / 1024) KB; not read as a caption or album description"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            problems.append(ScanProblem(path: file.relativePath, reason: "cannot read the file"))
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The order of photos or albums: by date (dated ones first, oldest first; ties and undated
    /// ones by name) or by name alone.
    static func order<T>(_ sort: AlbumSortOrder, name: KeyPath<T, String>, date: KeyPath<T, GalleryDate?>) -> (T, T) -> Bool {
        switch sort {
        case .name:
            return { naturalOrder($0[keyPath: name], $1[keyPath: name]) }
        case .date:
            return { a, b in
                switch (a[keyPath: date], b[keyPath: date]) {
                case let (x?, y?) where x != y: return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return naturalOrder(a[keyPath: name], b[keyPath: name])
                }
            }
        }
    }

    static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }
}

/// A file that may be a photo, found by the walk and probed afterwards.
struct Candidate: Sendable {
    var path: String
    var relativePath: String
    var folder: String
    var name: String
    var identity: FileIdentity
}

/// A `.txt` or `.md` file found by the walk: a caption or an album's `index.md`.
struct TextFile: Sendable {
    var path: String
    var relativePath: String
    var size: Int
}

/// A folder found by the walk.
struct Folder {
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

    init(rootPath: String) {
        self.rootPath = rootPath
    }

    /// Names a photo folder holds that are not photos and not worth a message.
    static let ignoredNames: Set<String> = [
        "thumbs.db", "desktop.ini", "ehthumbs.db", "icon\r", "@eadir", "__macosx", "$recycle.bin",
        "lost+found",
    ]
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
        let fileManager = FileManager.default
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: url.path)
        } catch {
            problems.append(ScanProblem(path: relativePath.isEmpty ? "." : relativePath,
                                        reason: "cannot read the folder: \(GalleryScanner.reason(error))"))
            return result
        }
        // Paths are joined as strings: a URL per entry is slow across thousands of photos.
        let folderPath = url.path
        // Byte order, for a walk that is the same every time: albums and photos are put in their
        // own order afterwards (`order`), so the walk need not pay for the natural sort.
        for entry in names.sorted() {
            let lower = entry.lowercased()
            if entry.hasPrefix(".") || Self.ignoredNames.contains(lower) { continue }
            let childPath = folderPath.hasSuffix("/") ? folderPath + entry : folderPath + "/" + entry
            let childRelative = relativePath.isEmpty ? entry : relativePath + "/" + entry
            guard let status = FileStatus(path: childPath) else {
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
                result.subfolders.append(folder(at: URL(fileURLWithPath: targetPath, isDirectory: true), relativePath: childRelative))
                continue
            }
            guard targetStatus.kind == .regular else { continue }
            let ext = (entry as NSString).pathExtension.lowercased()
            if ext == "txt" || ext == "md", result.textFiles[lower] == nil {
                result.textFiles[lower] = TextFile(path: targetPath, relativePath: childRelative, size: targetStatus.size)
            }
            if Self.sidecarExtensions.contains(ext) { continue }
            if Self.videoExtensions.contains(ext) {
                problems.append(ScanProblem(path: childRelative, reason: "videos are not supported"))
                continue
            }
            if Self.rawExtensions.contains(ext) {
                problems.append(ScanProblem(path: childRelative,
                                            reason: "camera RAW files are not supported; export a JPEG or HEIC"))
                continue
            }
            candidates.append(Candidate(
                path: targetPath, relativePath: childRelative, folder: relativePath, name: entry,
                identity: targetStatus.identity))
        }
        return result
    }
}
