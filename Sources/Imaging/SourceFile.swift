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
    /// The name now leads to another file than the one scanned (another inode).
    case replaced
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
        case .notRegularFile: "not a regular file"
        case .tooLarge(let size, let limit):
            "the file is \(SourceFile.sizeLabel(size)), larger than the \(SourceFile.sizeLabel(limit)) a photo may be"
        case .io(let reason): "cannot be read (\(reason))"
        }
    }
}

/// A photo or video opened for reading, and checked after opening: the name is not a link
/// (`O_NOFOLLOW`: the scan gives the resolved path of a link it accepted) and leads to the very
/// file the scan listed (`fstat`'s inode against the scan's), so a file swapped for a link to a
/// file outside the photo folder between the scan and the read is refused, not published.
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

    /// Opens `path` for reading, refusing a link and, when `inode` is given (the scan's), any
    /// other file than that one.
    public static func open(_ path: String, inode: UInt64?) throws(SourceFileError) -> SourceFile {
        let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            // Linux says ELOOP for a link under O_NOFOLLOW (the BSDs EMLINK).
            if code == ELOOP || code == EMLINK { throw .replacedByLink }
            throw .io(reason(code))
        }
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
