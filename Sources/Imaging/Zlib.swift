import CZlib

/// zlib's deflate streams, for the compressed profiles in PNG `iCCP` chunks: owns each
/// `z_stream` for the length of one call.
enum Zlib {
    /// What went wrong while inflating.
    enum Failure: Error, Equatable {
        /// The data is not a complete zlib stream.
        case damaged
        /// The data inflates to more than the limit.
        case tooLarge(limit: Int)
    }

    /// Inflates a whole zlib stream (RFC 1950) of at most `limit` bytes once inflated; with
    /// `windowBits` 15 + 16, a gzip member (RFC 1952) instead.
    static func inflate(_ bytes: [UInt8], limit: Int, windowBits: Int32 = 15) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .damaged }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (result, target.count - Int(stream.avail_out))
                }
                output += chunk[0..<produced]
                if output.count > limit { return Z_MEM_ERROR }
                if result == Z_STREAM_END { return Z_STREAM_END }
                // Z_BUF_ERROR with input left means no progress is possible: damaged.
                if result != Z_OK || (produced == 0 && stream.avail_in == 0) { return Z_DATA_ERROR }
            }
        }
        if status == Z_MEM_ERROR { throw .tooLarge(limit: limit) }
        guard status == Z_STREAM_END else { throw .damaged }
        return output
    }

    /// Deflates `bytes` into a zlib stream (for tests and tools that write PNG chunks).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, UInt(source.count), Z_BEST_COMPRESSION)
            }
        }
        precondition(status == Z_OK, "zlib cannot compress \(bytes.count) bytes")
        return Array(output[0..<Int(size)])
    }

    /// The CRC-32 of `bytes` (as PNG chunks carry it).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) })
    }
}

/// gzip streams (RFC 1952), for files a web browser inflates (the search index's): owns each
/// `z_stream` for the length of one call, as ``Zlib`` does.
public enum Gzip {
    /// `bytes` as one gzip member, deflated at level 9 with no file name and time 0 in its
    /// header, so that the same bytes always give the same file.
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // (15 + 16: a 32 KB window, with the gzip header and trailer instead of zlib's.)
        let started = deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                    zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(started == Z_OK, "zlib cannot start a gzip stream")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let (status, written) = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                let status = deflate(&stream, Z_FINISH)
                return (status, target.count - Int(stream.avail_out))
            }
        }
        precondition(status == Z_STREAM_END, "zlib cannot compress \(bytes.count) bytes")
        return Array(output[0..<written])
    }

    /// The bytes of the gzip member `bytes`, at most `limit` of them (for reading a file back:
    /// tests, tools); nil when it is not one whole member or inflates to more.
    public static func decompress(_ bytes: [UInt8], limit: Int = 1 << 30) -> [UInt8]? {
        try? Zlib.inflate(bytes, limit: limit, windowBits: 15 + 16)
    }
}
