#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes every byte of `bytes` to `descriptor`, again after a short write or an interrupted
/// one; returns 0, or the `errno` of the write that failed. The site writer and the rendition
/// store both write their files through it.
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        #else
            let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        #endif
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return 0
}
