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

    /// The status of the file at `path`; nil when it cannot be read.
    public init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(status.st_size)
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        // Computed as Foundation computes a file's modification date, to the last bit.
        modificationTime = Date(
            timeIntervalSinceReferenceDate: Double(time.tv_sec) - Date.timeIntervalBetween1970AndReferenceDate
                + Double(time.tv_nsec) / 1_000_000_000.0
        ).timeIntervalSince1970
    }
}
