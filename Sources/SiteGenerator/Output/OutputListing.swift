import Support
import Foundation
import Gallery
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the output folder held when the build began, read one folder at a time (`readdir`) the
/// first time a file of that folder is asked about: a rebuild of a large library asks whether
/// each of half a million files exists, and one `lstat` each took a second and a half.
///
/// Only for what the build decides before it writes anything (whose files are in the way, which
/// images are still there): it does not see the build's own writes.
final class OutputListing: Sendable {
    private let root: String
    /// Per site-relative folder ("" for the output folder): its entries' kinds by name, or nil
    /// when it cannot be read or is not inside the output folder once links are followed.
    private let folders = Mutex<[String: [String: FileStatus.Kind]?]>([:])

    /// Site-relative paths of the tool's files changed since the build that made them: not
    /// regular files as far as ``isRegularFile(_:)`` tells (so that they are made again).
    let damaged: Set<String>

    /// A listing of the output folder `root` (absolute, without links); the files at `damaged`
    /// are taken as missing by ``isRegularFile(_:)``.
    init(root: String, damaged: Set<String> = []) {
        self.root = root
        self.damaged = damaged
    }

    /// The names of the entries of the site-relative `folder` ("" for the output folder); empty
    /// when it is not there or cannot be read.
    func names(in folder: String) -> [String] {
        entries(of: folder).map { Array($0.keys) } ?? []
    }

    /// What the site-relative `path` is (a link is reported as a link); nil when nothing is there.
    func kind(of path: String) -> FileStatus.Kind? {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return entries(of: folder)?[name]
    }

    /// The entries of the site-relative `folder` by name, read once and kept.
    private func entries(of folder: String) -> [String: FileStatus.Kind]? {
        if let cached = folders.withLock({ $0[folder] }) { return cached }
        let entries = read(folder)
        folders.withLock { $0[folder] = .some(entries) }
        return entries
    }

    /// Whether the site-relative `path` is a regular file (not a link to one) inside the output
    /// folder.
    func isRegularFile(_ path: String) -> Bool {
        kind(of: path) == .regular && (damaged.isEmpty || !damaged.contains(path))
    }

    private func read(_ folder: String) -> [String: FileStatus.Kind]? {
        let full = folder.isEmpty ? root : root + "/" + folder
        guard SiteWriter.resolves(folder: full, inside: root), let directory = opendir(full) else { return nil }
        defer { closedir(directory) }
        var entries: [String: FileStatus.Kind] = [:]
        while let entry = readdir(directory) {
            let name = String(decoding: directoryEntryName(entry), as: UTF8.self)
            if name == "." || name == ".." { continue }
            let kind: FileStatus.Kind?
            switch Int32(directoryEntryType(entry)) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = FileStatus(path: full + "/" + name)?.kind
            default: kind = .other
            }
            if let kind { entries[name] = kind }
        }
        return entries
    }
}
