import CZlib

/// gzip streams (RFC 1952) for the search index's files.
enum Gzip {
    /// `bytes` as one gzip member, deflated at level 9 with no file name and time 0 in its
    /// header, so that the same bytes always give the same file.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
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
}

extension Gzip {
    /// The bytes of the gzip stream `bytes` (for reading an index back: tests, tools); nil
    /// when it is not one whole stream.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, target.count - Int(stream.avail_out))
                }
                output += chunk[0..<produced]
                if result == Z_STREAM_END { return result }
                if result != Z_OK || (produced == 0 && stream.avail_in == 0) { return Z_DATA_ERROR }
            }
        }
        return status == Z_STREAM_END ? output : nil
    }
}
