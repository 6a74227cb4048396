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

/// What `fstatat` says of the entry `name` (its bytes, as ``directoryEntryName(_:)`` gives them)
/// of the open folder `directory`, examined relative to it without resolving the folder's path
/// again, and following a symbolic link when `followingLinks`; nil when it cannot be read.
public func directoryEntryStatus(_ name: [UInt8], in directory: OpaquePointer, followingLinks: Bool) -> stat? {
    var status = stat()
    // The name with its NUL, on the stack (this is asked of every entry of a large library).
    let result = withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { path in
        for (index, byte) in name.enumerated() { path[index] = CChar(bitPattern: byte) }
        path[name.count] = 0
        return fstatat(dirfd(directory), path.baseAddress!, &status, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW)
    }
    return result == 0 ? status : nil
}
