import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `lstat` says about a file (a link is not followed): the few attributes the scan and the
/// site writer need, without `FileManager.attributesOfItem`'s dictionary of every attribute,
/// which is much slower across thousands of files.
public struct FileStatus: Sendable {
    /// What a directory entry is.
    public enum Kind: Sendable { case regular, directory, symbolicLink, other }

    /// What the entry is (a link is reported as a link).
    public var kind: Kind
    /// Size in bytes.
    public var size: Int
    /// Seconds since 1970, the same value as `attributesOfItem`'s `modificationDate`, so that
    /// a manifest written with either matches.
    public var modificationTime: Double
    /// Seconds since 1970 of the last change to the file's content or attributes (`st_ctime`):
    /// every write and every rename sets it, and no tool can set it back.
    public var changeTime: Double
    /// The file's inode number on its device.
    public var inode: UInt64
    /// The device the file is on (`st_dev`).
    public var device: UInt64

    /// What tells one version of a file from another without reading it.
    public var identity: FileIdentity {
        FileIdentity(size: size, modificationTime: modificationTime, changeTime: changeTime, inode: inode)
    }

    /// The status of the file at `path`; nil when it cannot be read.
    public init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// What `lstat` (or `fstatat`) filled in.
    public init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(status.st_size)
        #if canImport(Darwin)
            let time = status.st_mtimespec
            let change = status.st_ctimespec
        #else
            let time = status.st_mtim
            let change = status.st_ctim
        #endif
        changeTime = Double(change.tv_sec) + Double(change.tv_nsec) / 1_000_000_000.0
        inode = UInt64(status.st_ino)
        device = UInt64(status.st_dev)
        // Computed as Foundation computes a file's modification date, to the last bit.
        modificationTime = Date(
            timeIntervalSinceReferenceDate: Double(time.tv_sec) - Date.timeIntervalBetween1970AndReferenceDate
                + Double(time.tv_nsec) / 1_000_000_000.0
        ).timeIntervalSince1970
    }
}

/// What tells one version of a file from another without reading it, as git's index does: the
/// size, the modification time, the change time and the inode. Copying a file over another with
/// the same size and modification time (`cp -p`, `touch -r`) still changes its change time, and
/// swapping two names keeps each file's inode under the other name, so an equal identity means
/// the same content.
public struct FileIdentity: Sendable, Hashable, Codable {
    public var size: Int
    public var modificationTime: Double
    public var changeTime: Double
    public var inode: UInt64

    /// Creates an identity.
    public init(size: Int, modificationTime: Double, changeTime: Double, inode: UInt64) {
        self.size = size
        self.modificationTime = modificationTime
        self.changeTime = changeTime
        self.inode = inode
    }
}
