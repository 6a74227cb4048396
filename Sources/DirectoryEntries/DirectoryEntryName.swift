#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The name of an entry that `readdir` returned, as bytes without the terminating NUL.
///
/// It is read through a pointer to the entry's `d_name`, up to the NUL: an entry in the
/// buffer `readdir` fills is only as long as its name needs, so copying the whole `dirent`
/// (or its 256-byte `d_name` array, as `withUnsafeBytes(of: entry.pointee.d_name)` does)
/// reads past the entry, and past the buffer when the entry is its last: a crash when the
/// buffer ends at an unmapped page (a build of a 1,000-photo album crashed so in the stamp's
/// walk).
public func directoryEntryName(_ entry: UnsafePointer<dirent>) -> [UInt8] {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    let start = UnsafeRawPointer(entry).advanced(by: offset)
    let length = strlen(start.assumingMemoryBound(to: CChar.self))
    return Array(UnsafeRawBufferPointer(start: start, count: length))
}

/// The type (`DT_REG`, `DT_DIR`, ...) of an entry that `readdir` returned, read from its own
/// field alone, for the reason ``directoryEntryName(_:)`` gives.
public func directoryEntryType(_ entry: UnsafePointer<dirent>) -> UInt8 {
    UnsafeRawPointer(entry).load(fromByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_type)!, as: UInt8.self)
}
