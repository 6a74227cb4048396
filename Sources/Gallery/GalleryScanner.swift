import Dispatch
import Foundation
import Imaging
import Synchronization

/// Walks a photo folder and turns it into albums and photos.
///
/// Folders become albums (nested), hidden files and system clutter are ignored, every other
/// file is sniffed and probed from its header (nothing is decoded here), and a file that is not
/// a usable photo is reported as a ``ScanProblem``. Symbolic links are followed only while they
/// stay inside the source folder, and a folder reached twice (a link cycle) is read once.
public struct GalleryScanner: Sendable {
    /// The pixel limit applied to every photo's header.
    public var limits: DecodeLimits
    /// How many files are probed at once.
    public var concurrency: Int

    /// Creates a scanner.
    public init(limits: DecodeLimits = .default, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.limits = limits
        self.concurrency = max(1, concurrency)
    }

    /// Scans `sourceDirectory`; `title` names the root album.
    public func scan(sourceDirectory: String, title: String) throws(GalleryError) -> ScanResult {
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
        let probed = probeAll(walk.candidates)
        var problems = walk.problems
        var photosByFolder: [String: [GalleryPhoto]] = [:]
        for (candidate, outcome) in zip(walk.candidates, probed) {
            switch outcome {
            case .success(let info):
                photosByFolder[candidate.folder, default: []].append(
                    GalleryPhoto(
                        sourcePath: candidate.path, relativePath: candidate.relativePath,
                        fileName: candidate.name, fileSize: candidate.size,
                        modificationTime: candidate.modificationTime, info: info))
            case .failure(let error):
                problems.append(ScanProblem(path: candidate.relativePath, reason: error.description))
            }
        }
        let album = assemble(tree, name: title, photosByFolder: photosByFolder)
            ?? GalleryAlbum(name: title, relativePath: "", albums: [], photos: [])
        problems.sort { $0.path < $1.path }
        return ScanResult(root: album, problems: problems)
    }

    private func probeAll(_ candidates: [Candidate]) -> [Result<ImageInfo, ImagingError>] {
        let results = Mutex([Result<ImageInfo, ImagingError>?](repeating: nil, count: candidates.count))
        let next = Atomic<Int>(0)
        let limits = self.limits
        DispatchQueue.concurrentPerform(iterations: min(concurrency, max(candidates.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < candidates.count else { return }
                let outcome = Result<ImageInfo, ImagingError> { () throws(ImagingError) -> ImageInfo in
                    let info = try ImageProbe.probe(fileAtPath: candidates[index].path)
                    try limits.check(info)
                    return info
                }
                results.withLock { $0[index] = outcome }
            }
        }
        return results.withLock { $0.map { $0! } }
    }

    private func assemble(_ folder: Folder, name: String, photosByFolder: [String: [GalleryPhoto]]) -> GalleryAlbum? {
        let albums = folder.subfolders.compactMap { assemble($0, name: $0.name, photosByFolder: photosByFolder) }
        let photos = (photosByFolder[folder.relativePath] ?? []).sorted { naturalOrder($0.fileName, $1.fileName) }
        guard !albums.isEmpty || !photos.isEmpty || folder.relativePath.isEmpty else { return nil }
        return GalleryAlbum(name: name, relativePath: folder.relativePath, albums: albums, photos: photos)
    }

    static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }
}

/// Name order as people expect it: case-insensitive, numbers by value (`IMG_2` before `IMG_10`).
func naturalOrder(_ a: String, _ b: String) -> Bool {
    switch a.compare(b, options: [.numeric, .caseInsensitive]) {
    case .orderedAscending: return true
    case .orderedDescending: return false
    case .orderedSame: return a < b
    }
}

/// A file that may be a photo, found by the walk and probed afterwards.
struct Candidate: Sendable {
    var path: String
    var relativePath: String
    var folder: String
    var name: String
    var size: Int
    var modificationTime: Double
}

/// A folder found by the walk.
struct Folder {
    var name: String
    var relativePath: String
    var subfolders: [Folder]
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
        for entry in names.sorted(by: naturalOrder) {
            let lower = entry.lowercased()
            if entry.hasPrefix(".") || Self.ignoredNames.contains(lower) { continue }
            let child = url.appendingPathComponent(entry)
            let childRelative = relativePath.isEmpty ? entry : relativePath + "/" + entry
            guard let attributes = try? fileManager.attributesOfItem(atPath: child.path) else {
                problems.append(ScanProblem(path: childRelative, reason: "cannot read the file's attributes"))
                continue
            }
            var type = attributes[.type] as? FileAttributeType
            var target = child
            if type == .typeSymbolicLink {
                target = child.resolvingSymlinksInPath()
                guard target.path == rootPath || target.path.hasPrefix(rootPath + "/") else {
                    problems.append(ScanProblem(path: childRelative,
                                                reason: "a link to a place outside the photo folder; not published"))
                    continue
                }
                guard let resolved = try? fileManager.attributesOfItem(atPath: target.path) else {
                    problems.append(ScanProblem(path: childRelative, reason: "a broken link"))
                    continue
                }
                type = resolved[.type] as? FileAttributeType
            }
            if type == .typeDirectory {
                if visited.contains(target.path) { continue }  // a link cycle, or a folder linked twice
                result.subfolders.append(folder(at: target, relativePath: childRelative))
                continue
            }
            guard type == .typeRegular else { continue }
            let ext = (entry as NSString).pathExtension.lowercased()
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
            let attributesOfTarget = (try? fileManager.attributesOfItem(atPath: target.path)) ?? attributes
            candidates.append(Candidate(
                path: target.path, relativePath: childRelative, folder: relativePath, name: entry,
                size: (attributesOfTarget[.size] as? NSNumber)?.intValue ?? 0,
                modificationTime: (attributesOfTarget[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0))
        }
        return result
    }
}
