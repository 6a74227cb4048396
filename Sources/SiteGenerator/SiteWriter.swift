import Foundation
import Gallery
import Synchronization

/// Resolves the source and output folders and refuses any overlap between them, so the photo
/// folder is never written to.
enum OutputSafety {
    /// Absolute, symlink-free paths of the source and output folders.
    static func resolve(source: String, output: String) throws(SiteError) -> (source: String, output: String) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw .source("the photo folder \(source) does not exist")
        }
        guard isDirectory.boolValue else { throw .source("\(source) is not a folder") }
        let sourcePath = realPath(source)
        let outputPath = realPath(output)
        if fileManager.fileExists(atPath: outputPath, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .outputNotADirectory(output)
        }
        if outputPath == sourcePath || outputPath.hasPrefix(sourcePath + "/") || sourcePath.hasPrefix(outputPath + "/")
            || outputPath == "/"
        {
            throw .outputOverlapsSource(output: output, source: source)
        }
        return (sourcePath, outputPath)
    }

    /// The absolute path with every symbolic link resolved, also for a path whose last
    /// components do not exist yet.
    static func realPath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var existing = absolute
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing), existing != "/" {
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        var resolved = URL(fileURLWithPath: existing).resolvingSymlinksInPath().path
        for component in missing {
            resolved = (resolved as NSString).appendingPathComponent(component)
        }
        return resolved
    }
}

/// Writes files below the output folder, each atomically (a temporary file renamed into
/// place), so an interrupted build never leaves a half-written file behind.
struct SiteWriter: Sendable {
    /// The output folder, absolute.
    let root: String
    /// Folders found to be inside the output folder during this build (resolving links is slow).
    private let insideFolders = FolderSet()

    init(root: String) {
        self.root = root
    }

    /// Writes `data` to the site-relative `path` unless the file already holds exactly that;
    /// returns whether it wrote.
    @discardableResult
    func writeIfChanged(_ data: Data, to path: String) throws(SiteError) -> Bool {
        let full = URL(fileURLWithPath: root).appendingPathComponent(path).path
        if isInside(folder: URL(fileURLWithPath: full).deletingLastPathComponent().path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: full),
            attributes[.type] as? FileAttributeType == .typeRegular,
            (attributes[.size] as? NSNumber)?.intValue == data.count,
            FileManager.default.contents(atPath: full) == data
        {
            return false
        }
        try write(data, to: path)
        return true
    }

    /// Whether the site-relative `path` is a regular file (not a link to one).
    func exists(_ path: String) -> Bool {
        fileSize(path) != nil
    }

    /// The size of the site-relative `path` when it is a regular file (not a link to one)
    /// inside the output folder, else nil. A no-op rebuild asks this of every image and page,
    /// so it is one `lstat` (and, for each folder once, a check that it is inside the output
    /// folder).
    func fileSize(_ path: String) -> Int? {
        let full = root + "/" + path
        let folder = String(full[..<full.utf8.lastIndex(of: UInt8(ascii: "/"))!])
        guard isInside(folder: folder), let status = FileStatus(path: full), status.kind == .regular else { return nil }
        return status.size
    }

    /// Deletes the site-relative file `path` (a file this tool made: callers take it from the
    /// manifest) and then each of its folders that is left empty, up to the output folder.
    /// A path that is not a regular file (a folder, a link the user made) is left alone.
    func removeMadeFile(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return false }
        let fileManager = FileManager.default
        var url = URL(fileURLWithPath: root).appendingPathComponent(path)
        guard isInside(folder: url.deletingLastPathComponent().path), FileStatus(path: url.path)?.kind == .regular,
            (try? fileManager.removeItem(at: url)) != nil
        else { return false }
        url.deleteLastPathComponent()
        while url.path.count > root.count, url.path.hasPrefix(root + "/"),
            let contents = try? fileManager.contentsOfDirectory(atPath: url.path), contents.isEmpty
        {
            try? fileManager.removeItem(at: url)
            url.deleteLastPathComponent()
        }
        return true
    }

    /// Whether the folder at `path` (absolute) really is inside the output folder, once every
    /// symbolic link on the way is followed: a link the user left in the output folder (say
    /// `thumbs` pointing into the photo folder) must never lead a write or a deletion out of it.
    func isInside(folder path: String) -> Bool {
        if insideFolders.contains(path) { return true }
        let real = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath().path
        let inside = real == root || real.hasPrefix(root + "/")
        if inside { insideFolders.insert(path) }
        return inside
    }

    /// Writes `data` to the site-relative `path`.
    func write(_ data: Data, to path: String) throws(SiteError) {
        let url = URL(fileURLWithPath: root).appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard isInside(folder: url.deletingLastPathComponent().path) else {
                throw SiteError.write(
                    path: url.path,
                    reason: "\(url.deletingLastPathComponent().path) is a link to a place outside the output folder; remove the link")
            }
            try data.write(to: url, options: .atomic)
        } catch let error as SiteError {
            throw error
        } catch {
            throw .write(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}

/// A set of paths shared by the tasks of one build.
final class FolderSet: Sendable {
    private let paths = Mutex(Set<String>())

    func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }
    func insert(_ path: String) { _ = paths.withLock { $0.insert(path) } }
}
