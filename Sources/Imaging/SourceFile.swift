#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why a photo or video could not be opened for reading as the scan found it.
public enum SourceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is now a symbolic link (it was a file when the folder was scanned).
    case replacedByLink
    /// The name now leads to another file than the one scanned (another device or inode).
    case replaced
    /// The folder holding the file is now a symbolic link (it was a folder when scanned).
    case folderReplacedByLink
    /// The folder's path now leads to another folder than the one scanned (another device or
    /// inode), or to something that is not a folder.
    case folderReplaced
    /// Not a regular file (a folder, a device, a FIFO).
    case notRegularFile
    /// Larger than the reader takes.
    case tooLarge(size: Int, limit: Int)
    /// The system refused (`errno` in words).
    case io(String)

    public var description: String {
        switch self {
        case .replacedByLink: "the file was replaced by a link during the build; not read"
        case .replaced: "the file was replaced by another during the build; not read"
        case .folderReplacedByLink: "its folder was replaced by a link during the build; not read"
        case .folderReplaced: "its folder was replaced by another during the build; not read"
        case .notRegularFile: "not a regular file"
        case .tooLarge(let size, let limit):
            "the file is \(SourceFile.sizeLabel(size)), larger than the \(SourceFile.sizeLabel(limit)) a photo may be"
        case .io(let reason): "cannot be read (\(reason))"
        }
    }
}

/// Where the scan found a file: the device and inode of the file and of the folder holding it
/// (`lstat` of each), which a read checks the opened file and folder against.
public struct ScannedFile: Sendable, Hashable {
    /// The file's device (`st_dev`); 0 when not known (then only the inode is checked).
    public var device: UInt64
    /// The file's inode (`st_ino`).
    public var inode: UInt64
    /// The device of the folder holding the file.
    public var folderDevice: UInt64
    /// The inode of the folder holding the file; 0 when the scan could not tell (then the
    /// file alone is checked).
    public var folderInode: UInt64

    /// Creates a record of where the scan found a file.
    public init(device: UInt64, inode: UInt64, folderDevice: UInt64, folderInode: UInt64) {
        self.device = device
        self.inode = inode
        self.folderDevice = folderDevice
        self.folderInode = folderInode
    }
}

/// A photo or video opened for reading, and checked after opening: the name is not a link
/// (`O_NOFOLLOW`: the scan gives the resolved path of a link it accepted) and leads to the very
/// file the scan listed (`fstat`'s device and inode against the scan's), so a file swapped for
/// a link to a file outside the photo folder between the scan and the read is refused, not
/// published. With the scan's ``ScannedFile``, the folder holding the file is opened first
/// (`O_DIRECTORY | O_NOFOLLOW`, checked the same way) and the file opened relative to it
/// (`openat`): a folder swapped for a link, or for another folder, is refused too.
/// Everything after the check goes through the descriptor, never the name again.
public final class SourceFile: @unchecked Sendable {
    /// The largest photo read into memory: libgd and libturbojpeg take sizes as 32-bit ints,
    /// and no real photo comes near it.
    public static let maximumPhotoSize = Int(Int32.max)

    /// The open descriptor (closed with this object).
    public let descriptor: Int32
    /// The size `fstat` gave after opening.
    public let size: Int
    /// The inode `fstat` gave after opening.
    public let inode: UInt64

    private init(descriptor: Int32, size: Int, inode: UInt64) {
        self.descriptor = descriptor
        self.size = size
        self.inode = inode
    }

    deinit { close(descriptor) }

    /// The flags every source file is opened with. O_NONBLOCK keeps a FIFO from blocking the open.
    private static let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK

    /// Opens `path` for reading, refusing a link and, when `inode` is given (the scan's), any
    /// other file than that one.
    public static func open(_ path: String, inode: UInt64?) throws(SourceFileError) -> SourceFile {
        let descriptor = systemOpen(path, flags)
        guard descriptor >= 0 else { throw openFailure(errno) }
        return try checked(descriptor, device: nil, inode: inode)
    }

    /// Opens `path` (an absolute path without links, as the scan gives it) for reading as the
    /// scan found it: its folder opened without following a link and checked against the
    /// scan's folder, then the file opened from that folder's descriptor and checked against
    /// the scan's file. Without `scanned` (a photo made by hand, in tests), as
    /// ``open(_:inode:)`` without an inode.
    public static func open(_ path: String, scanned: ScannedFile?) throws(SourceFileError) -> SourceFile {
        guard let scanned else { return try open(path, inode: nil) }
        guard scanned.folderInode != 0, let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            // The folder unknown (the scan could not read it again): the file alone is checked.
            let descriptor = systemOpen(path, flags)
            guard descriptor >= 0 else { throw openFailure(errno) }
            return try checked(descriptor, device: scanned.device, inode: scanned.inode)
        }
        let folderPath = slash == path.startIndex ? "/" : String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        let folder = systemOpen(folderPath, O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW)
        guard folder >= 0 else {
            let code = errno
            if code == ELOOP || code == EMLINK { throw .folderReplacedByLink }
            if code == ENOTDIR {
                // Linux says ENOTDIR, not ELOOP, for a link under O_DIRECTORY | O_NOFOLLOW; the
                // link is told from anything else that is not a folder only for the message.
                var status = stat()
                if lstat(folderPath, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK { throw .folderReplacedByLink }
                throw .folderReplaced
            }
            throw .io(reason(code))
        }
        defer { close(folder) }
        var status = stat()
        guard fstat(folder, &status) == 0 else { throw .io(reason(errno)) }
        guard UInt64(status.st_dev) == scanned.folderDevice, UInt64(status.st_ino) == scanned.folderInode else {
            throw .folderReplaced
        }
        let descriptor = openat(folder, name, flags)
        guard descriptor >= 0 else { throw openFailure(errno) }
        return try checked(descriptor, device: scanned.device, inode: scanned.inode)
    }

    /// What a failed `open` of the file means.
    private static func openFailure(_ code: Int32) -> SourceFileError {
        // Linux says ELOOP for a link under O_NOFOLLOW (the BSDs EMLINK).
        if code == ELOOP || code == EMLINK { return .replacedByLink }
        return .io(reason(code))
    }

    /// The opened `descriptor` as a source file, once it is a regular file and, where given,
    /// on the scan's `device` and `inode`; closed when it is not.
    private static func checked(_ descriptor: Int32, device: UInt64?, inode: UInt64?) throws(SourceFileError) -> SourceFile {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .io(reason(code))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .notRegularFile
        }
        if let inode, UInt64(status.st_ino) != inode {
            close(descriptor)
            throw .replaced
        }
        if let device, device != 0, UInt64(status.st_dev) != device {
            close(descriptor)
            throw .replaced
        }
        // O_NONBLOCK only kept a FIFO from blocking the open; regular files ignore it, but it
        // is cleared for whoever reads the descriptor next (ffmpeg, as its standard input).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return SourceFile(descriptor: descriptor, size: Int(status.st_size), inode: UInt64(status.st_ino))
    }

    /// The whole file, if it is at most `limit` bytes (checked before anything is read, and
    /// again against what reading finds: a file that grows is not read past the limit).
    public func readAll(limit: Int = SourceFile.maximumPhotoSize) throws(SourceFileError) -> Data {
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        var data = Data(count: size)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            while filled < size {
                let got = pread(descriptor, buffer.baseAddress! + filled, size - filled, off_t(filled))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { break }  // the file shrank since it was opened
                filled += got
            }
        }
        if failure != 0 { throw .io(Self.reason(failure)) }
        if filled < size { data.count = filled }
        return data
    }

    /// Reads the file `size` bytes at a time from the start, handing each block to `body`
    /// (a hash of a large video); false when a read failed.
    public func stream(blockSize: Int = 4 << 20, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: blockSize)
        var offset = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, blockSize, off_t(offset)) }
            if got < 0 {
                if errno == EINTR { continue }
                return false
            }
            if got == 0 { return true }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            offset += got
        }
    }

    /// Copies the file, as large as it was when opened (no more: a file that grows is not
    /// followed), to the open `output` (a new, empty file), a block at a time: a video of any
    /// size takes one block of memory. A block of zeros is skipped, not written, so that a
    /// sparse file's copy stays sparse. Returns 0, or the `errno` of a failed read or write.
    public func copy(to output: Int32, blockSize: Int = 1 << 20) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: blockSize)
        let zeros = [UInt8](repeating: 0, count: blockSize)
        var offset = 0
        // Ends the copy at `offset` (past a skipped block, the size is set, not written).
        func finish() -> Int32 {
            ftruncate(output, off_t(offset)) == 0 ? 0 : errno
        }
        while offset < size {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, min(blockSize, size - offset), off_t(offset)) }
            if got < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if got == 0 { return finish() }  // the file shrank since it was opened
            if memcmp(buffer, zeros, got) == 0 {
                guard lseek(output, off_t(got), SEEK_CUR) >= 0 else { return errno }
                offset += got
                continue
            }
            var written = 0
            while written < got {
                let put = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, got - written) }
                if put < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += put
            }
            offset += got
        }
        return finish()
    }

    /// Up to `count` leading bytes.
    public func prefix(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, 0) }
        return got > 0 ? Array(bytes[0..<got]) : []
    }

    /// `1.5 GB`, `2.1 GB`, `700 MB`.
    static func sizeLabel(_ bytes: Int) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.1f GB", Double(bytes) / 1e9) : "\(bytes / 1_000_000) MB"
    }

    static func reason(_ code: Int32) -> String { ByteReader.reason(code) }
}

/// `open(2)`, named apart from ``SourceFile/open(_:inode:)``.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}
