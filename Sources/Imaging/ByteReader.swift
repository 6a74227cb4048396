#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to an image's bytes for the header parsers: either all in memory, or a file
/// read in 64 KiB blocks on demand, so that probing a file reads its first block and only
/// the few further blocks its header points to (a JPEG's later segments, a TIFF directory at
/// the end, a HEIF `meta` box after the media data).
///
/// Reads outside the data throw `.truncated(format)`; read errors throw `.io`.
final class ByteReader {
    static let blockSize = 64 * 1024

    /// The total size.
    let count: Int
    /// The format, once sniffed; names the truncation error.
    var format: ImageFormat = .jpeg
    /// Bytes read from the file so far (for tests: a probe reads only what it needs).
    private(set) var bytesRead = 0

    private let memory: [UInt8]?
    private let file: FileDescriptor?
    private let path: String
    private var blocks: [Int: [UInt8]] = [:]

    /// Bytes in memory.
    init(_ bytes: [UInt8]) {
        memory = bytes
        count = bytes.count
        file = nil
        path = ""
    }

    /// A file, opened now and read lazily.
    init(path: String) throws(ImagingError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, reason: Self.reason(errno)) }
        let file = FileDescriptor(descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(path: path, reason: Self.reason(errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, reason: "not a regular file") }
        self.file = file
        self.path = path
        memory = nil
        count = Int(status.st_size)
    }

    /// An opened source file (at `path`, named in errors), read lazily through a duplicate of
    /// its descriptor.
    init(file source: SourceFile, path: String) throws(ImagingError) {
        let descriptor = dup(source.descriptor)
        guard descriptor >= 0 else { throw .io(path: path, reason: Self.reason(errno)) }
        file = FileDescriptor(descriptor)
        self.path = path
        memory = nil
        count = source.size
    }

    /// Up to `length` leading bytes (fewer when the data is shorter); never throws for size.
    func prefix(_ length: Int) throws(ImagingError) -> [UInt8] {
        try bytes(0..<min(length, count))
    }

    /// The bytes in `range`.
    func bytes(_ range: Range<Int>) throws(ImagingError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= count else { throw .truncated(format) }
        if let memory { return Array(memory[range]) }
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let index = position / Self.blockSize
            let block = try self.block(index)
            let start = position - index * Self.blockSize
            let end = min(block.count, range.upperBound - index * Self.blockSize)
            guard start < end else { throw .truncated(format) }
            result.append(contentsOf: block[start..<end])
            position = index * Self.blockSize + end
        }
        return result
    }

    /// The offset of the last `first, second` byte pair inside `range`, if any.
    func lastOffset(of first: UInt8, _ second: UInt8, in range: Range<Int>) throws(ImagingError) -> Int? {
        guard range.lowerBound >= 0, range.upperBound <= count else { throw .truncated(format) }
        func search(_ buffer: UnsafeBufferPointer<UInt8>, base: Int) -> Int? {
            var index = buffer.count - 1
            while index > 0 {
                if buffer[index] == second && buffer[index - 1] == first { return base + index - 1 }
                index -= 1
            }
            return nil
        }
        if let memory {
            return memory.withUnsafeBufferPointer { whole in
                search(UnsafeBufferPointer(rebasing: whole[range]), base: range.lowerBound)
            }
        }
        return try bytes(range).withUnsafeBufferPointer { search($0, base: range.lowerBound) }
    }

    func u8(_ offset: Int) throws(ImagingError) -> UInt8 {
        guard offset >= 0, offset < count else { throw .truncated(format) }
        if let memory { return memory[offset] }
        let index = offset / Self.blockSize
        let block = try self.block(index)
        let position = offset - index * Self.blockSize
        guard position < block.count else { throw .truncated(format) }
        return block[position]
    }

    func u16(_ offset: Int, bigEndian: Bool) throws(ImagingError) -> UInt16 {
        let a = UInt16(try u8(offset))
        let b = UInt16(try u8(offset + 1))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int, bigEndian: Bool) throws(ImagingError) -> UInt32 {
        let a = UInt32(try u16(offset, bigEndian: bigEndian))
        let b = UInt32(try u16(offset + 2, bigEndian: bigEndian))
        return bigEndian ? a << 16 | b : b << 16 | a
    }

    func u64be(_ offset: Int) throws(ImagingError) -> UInt64 {
        UInt64(try u32(offset, bigEndian: true)) << 32 | UInt64(try u32(offset + 4, bigEndian: true))
    }

    func u16be(_ offset: Int) throws(ImagingError) -> Int { Int(try u16(offset, bigEndian: true)) }
    func u16le(_ offset: Int) throws(ImagingError) -> Int { Int(try u16(offset, bigEndian: false)) }
    func u32be(_ offset: Int) throws(ImagingError) -> Int { Int(try u32(offset, bigEndian: true)) }
    func u32le(_ offset: Int) throws(ImagingError) -> Int { Int(try u32(offset, bigEndian: false)) }

    /// A four-character code.
    func fourCC(_ offset: Int) throws(ImagingError) -> String {
        String(decoding: try bytes(offset..<(offset + 4)), as: UTF8.self)
    }

    private func block(_ index: Int) throws(ImagingError) -> [UInt8] {
        if let cached = blocks[index] { return cached }
        guard let file else { throw .truncated(format) }
        let start = index * Self.blockSize
        let length = min(Self.blockSize, count - start)
        guard length > 0 else { throw .truncated(format) }
        var block = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let got = block.withUnsafeMutableBytes { buffer in
                pread(file.descriptor, buffer.baseAddress! + filled, length - filled, off_t(start + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: Self.reason(errno))
            }
            if got == 0 { break }  // the file shrank since it was opened
            filled += got
        }
        if filled < length { block.removeSubrange(filled...) }
        bytesRead += filled
        blocks[index] = block
        return block
    }

    /// A short lower-case reason for an `errno` value.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder"
        case ENOTDIR: "a part of the path is not a folder"
        case EIO: "input/output error"
        case ENAMETOOLONG: "the path is too long"
        case ELOOP: "too many symbolic links"
        case EMFILE, ENFILE: "too many open files"
        default: "error \(code)"
        }
    }
}

/// An open file descriptor, closed with its owner.
final class FileDescriptor {
    let descriptor: Int32
    init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }
}
