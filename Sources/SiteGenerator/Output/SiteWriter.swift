import Catalog
import Foundation
import Gallery
import Imaging
import Synchronization
import Video
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        Support.realPath(path)
    }
}

/// Writes files below the output folder, each atomically: written under a temporary name in
/// the output folder's `.cascade-tmp/` and renamed into place, so an interrupted build never
/// leaves a half-written file under a published name. Files are not synced one by one: the
/// build syncs the file system once (``syncFileSystem()``) before its catalog records them.
/// Whatever a killed build left in `.cascade-tmp/` is removed by the next one
/// (``removeTemporaryFiles()``); nothing there is part of the site.
struct SiteWriter: Sendable {
    /// The folder, inside the output folder, that holds files being written.
    static let temporaryFolder = ".cascade-tmp"

    /// The output folder, absolute.
    let root: String
    /// Site-relative paths that are not the tool's and are never written over.
    let refused: Set<String>
    /// Folders found to be inside the output folder during this build (resolving links is slow).
    private let insideFolders = FolderSet()
    /// Site-relative folders this build wrote into or deleted from (``touchedFolders``).
    private let touched = FolderSet()
    /// Numbers temporary files within this process.
    private static let counter = Atomic<Int>(0)

    /// Site-relative paths of the tool's files that were changed since the build that made
    /// them (``OutputStamp/changedFiles``): taken as missing, so that they are made again.
    let damaged: Set<String>

    init(root: String, refused: Set<String> = [], damaged: Set<String> = []) {
        self.root = root
        self.refused = refused
        self.damaged = damaged
    }

    /// A new temporary path (absolute) in the temporary folder, which is made if needed. (An
    /// interrupted build removes the folder, and never makes it again: ``Interruption``.)
    func temporaryPath() throws(SiteError) -> String {
        let folder = root + "/" + Self.temporaryFolder
        let failure = Interruption.makeTemporaryFolder(folder)
        if failure != 0 {
            throw .write(path: folder, reason: String(cString: strerror(failure)))
        }
        return folder + "/\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
    }

    /// Removes the temporary folder and what an interrupted build left in it.
    func removeTemporaryFiles() {
        let folder = root + "/" + Self.temporaryFolder
        guard FileStatus(path: folder)?.kind == .directory else { return }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Flushes everything written to the output folder's file system to disk (`syncfs`), once
    /// per build, before the catalog records what was written.
    func syncFileSystem() {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        #if os(Linux)
            _ = linuxSyncFileSystem(descriptor)
        #else
            _ = fsync(descriptor)
        #endif
        close(descriptor)
    }

    /// Writes `data` to the site-relative `path` unless the file already holds exactly that;
    /// returns whether it wrote.
    @discardableResult
    func writeIfChanged(_ data: Data, to path: String) throws(SiteError) -> Bool {
        if refused.contains(path) { return false }
        if fileSize(path) == data.count, FileManager.default.contents(atPath: root + "/" + path) == data {
            return false
        }
        try write(data, to: path)
        return true
    }

    /// The site-relative folders (the root is "") this build wrote a file into or deleted one
    /// from: the end of the build lists only these again (``OutputStamp/init(root:updating:touched:)``).
    var touchedFolders: Set<String> { touched.all }

    /// Notes the folder of the site-relative file `path` as touched.
    private func touch(_ path: String) {
        touched.insert(path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "")
    }

    /// The bytes of the site-relative `path` when it is a regular file (not a link to one)
    /// inside the output folder, else nil.
    func contents(_ path: String) -> [UInt8]? {
        guard exists(path), let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
        return [UInt8](data)
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
        if !damaged.isEmpty, damaged.contains(path) { return nil }
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
        touch(path)
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
        let inside = Self.resolves(folder: path, inside: root)
        if inside { insideFolders.insert(path) }
        return inside
    }

    /// Whether the folder `path` (absolute), once every link on the way is followed, is `root`
    /// (absolute, without links) or inside it.
    static func resolves(folder path: String, inside root: String) -> Bool {
        let real = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath().path
        return real == root || real.hasPrefix(root + "/")
    }

    /// Writes `data` to the site-relative `path` (a temporary file renamed into place). A
    /// path in ``refused`` (a file that is not the tool's) is left as it is.
    func write(_ data: Data, to path: String) throws(SiteError) {
        try writeNew(path) { descriptor in data.withUnsafeBytes { writeAll(descriptor, $0) } }
    }

    /// Copies the opened source file `file` (a photo's or video's original) to the
    /// site-relative `path` (a temporary file renamed into place), a block at a time through
    /// its checked descriptor: a video of any size takes one block of memory, and the name is
    /// not opened again. A path in ``refused`` is left as it is.
    func copy(_ file: SourceFile, to path: String) throws(SiteError) {
        try writeNew(path) { descriptor in file.copy(to: descriptor) }
    }

    /// Makes the site-relative file `path` anew: a new temporary file, filled by `fill` (given
    /// its descriptor; returns 0 or an `errno`), closed and renamed into place, so that a
    /// reader never sees a part of it; removed again on any failure. A path in ``refused`` is
    /// left as it is.
    private func writeNew(_ path: String, _ fill: (Int32) -> Int32) throws(SiteError) {
        if refused.contains(path) { return }
        let full = try destination(path)
        let temporary = try temporaryPath()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .write(path: full, reason: String(cString: strerror(errno))) }
        var failure = fill(descriptor)
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, full) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .write(path: full, reason: String(cString: strerror(failure)))
        }
    }

    /// Puts the file at `source` (absolute: a file staged in the temporary folder) at the
    /// site-relative `path` as well, as a hard link where the file system allows, else a copy.
    func place(_ source: String, at path: String) throws(SiteError) {
        if refused.contains(path) { return }
        let full = try destination(path)
        let temporary = try temporaryPath()
        if link(source, temporary) == 0 {
            if rename(temporary, full) == 0 { return }
            let failure = errno
            unlink(temporary)
            throw .write(path: full, reason: String(cString: strerror(failure)))
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw .write(path: full, reason: "its staged image \(source) cannot be read")
        }
        try write(data, to: path)
    }

    /// Moves the file at `source` (absolute: a file made in the temporary folder) to the
    /// site-relative `path` (renamed into place). A path in ``refused`` is left as it is.
    func move(_ source: String, to path: String) throws(SiteError) {
        if refused.contains(path) { return }
        let full = try destination(path)
        if rename(source, full) != 0 {
            throw .write(path: full, reason: String(cString: strerror(errno)))
        }
    }

    /// Keeps a link to the site-relative file `path` at the absolute `staged` (in the temporary
    /// folder), so that it survives the file at `path` being replaced; a copy where the file
    /// system has no hard links. Returns false when `path` cannot be read.
    func stage(_ path: String, at staged: String) -> Bool {
        guard fileSize(path) != nil else { return false }
        if link(root + "/" + path, staged) == 0 { return true }
        guard let data = FileManager.default.contents(atPath: root + "/" + path) else { return false }
        return FileManager.default.createFile(atPath: staged, contents: data)
    }

    /// The absolute path of the site-relative `path`, its folder made and checked to be inside
    /// the output folder.
    private func destination(_ path: String) throws(SiteError) -> String {
        touch(path)
        let url = URL(fileURLWithPath: root).appendingPathComponent(path)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .write(path: url.path, reason: (error as NSError).localizedDescription)
        }
        guard isInside(folder: folder.path) else {
            throw .write(path: url.path, reason: "\(folder.path) is a link to a place outside the output folder; remove the link")
        }
        return url.path
    }
}

#if os(Linux)
    /// `syncfs(2)`, a GNU extension the Glibc module does not export.
    @_silgen_name("syncfs")
    private func linuxSyncFileSystem(_ descriptor: Int32) -> Int32
#endif

/// A set of paths shared by the tasks of one build.
final class FolderSet: Sendable {
    private let paths = Mutex(Set<String>())

    func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }
    func insert(_ path: String) { _ = paths.withLock { $0.insert(path) } }
    var all: Set<String> { paths.withLock { $0 } }
}
