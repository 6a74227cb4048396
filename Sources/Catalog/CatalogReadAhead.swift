import Foundation
import Gallery
import GRDB
import Synchronization
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the catalog holds, read while `cascade serve` waits for the next change, so that the
/// rebuild after it need not read the catalog (half a second of a rebuild in a library of
/// 100,000 photos). A build takes a read only when nothing was written to the catalog since the
/// read began: SQLite's `data_version`, asked on the connection that began the read, changes
/// with any commit by another connection (another `cascade build`, or this build's own catalog),
/// and the file must still be the one read (not set aside as damaged and made anew).
package final class CatalogReadAhead: Sendable {
    /// A read of the catalog, and what tells whether it still holds.
    private struct Read: Sendable {
        var path: String
        var manifest: BuildManifest
        var files: Set<String>
        /// The connection `version` was asked on (before the read), kept to ask it again.
        var connection: DatabaseQueue
        var version: Int
        /// The catalog file's device and inode when the read began.
        var identity: [UInt64]
    }

    /// The read under way or done, with its catalog's path.
    private let reading = Mutex<(path: String, work: BackgroundWork<Read?>)?>(nil)
    private let taken = Atomic<Int>(0)

    /// How many builds used a read (for tests).
    package var readsUsed: Int { taken.load(ordering: .relaxed) }

    /// A read-ahead with nothing read yet.
    package init() {}

    /// Reads the catalog at `path` on another thread, in place of any earlier read (after a
    /// build, which changed it); with `keepingCurrent`, only when no read of it is held.
    /// `releasing` (which lets go of what the build held) is called there first, and the memory
    /// that frees handed back to the system, so that the read does not come on top of it: a
    /// server that waits for changes should not hold a large library's build twice over.
    package func begin(path: String, keepingCurrent: Bool = false, releasing: (@Sendable () -> Void)? = nil) {
        reading.withLock { reading in
            if keepingCurrent, reading?.path == path { return }
            // (On a thread of its own: not one of Swift concurrency's few, which the server's
            // watcher needs meanwhile.)
            reading = (path, BackgroundWork {
                if let releasing {
                    releasing()
                    Self.returnFreedMemory()
                }
                return Self.read(path)
            })
        }
    }

    /// Hands the memory malloc keeps for later back to the system (glibc's `malloc_trim`, where
    /// there is one): after a build of a large library, hundreds of megabytes.
    private static func returnFreedMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: Trim.self)(0)
    }

    /// The read of the catalog at `path`, when one was begun and nothing has written to the
    /// catalog since; waits for a read under way. The read is let go of either way.
    package func take(path: String) -> (manifest: BuildManifest, files: Set<String>)? {
        guard let (readPath, work) = reading.withLock({ reading in
            defer { reading = nil }
            return reading
        }), readPath == path, let read = work.wait() else { return nil }
        guard Self.identity(of: path) == read.identity, Self.version(read.connection) == read.version else { return nil }
        taken.add(1, ordering: .relaxed)
        return (read.manifest, read.files)
    }

    /// Reads the catalog at `path`: its `data_version` first, then everything it holds.
    private static func read(_ path: String) -> Read? {
        guard let identity = identity(of: path) else { return nil }
        do {
            let connection = try Catalog.readOnlyConnection(path)
            guard let version = version(connection) else { return nil }
            let (manifest, files) = try Catalog.snapshotAndFileSet(path: path, counting: connection, fileSet: true)
            return Read(path: path, manifest: manifest, files: files, connection: connection, version: version, identity: identity)
        } catch {
            return nil  // (the build reads the catalog itself, and reports what is wrong with it)
        }
    }

    /// The catalog's `data_version` as the connection sees it: it changes with every commit of
    /// another connection. Nil when it cannot be asked.
    private static func version(_ connection: DatabaseQueue) -> Int? {
        (try? connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }) ?? nil
    }

    /// The device and inode of the file at `path`; nil when there is none.
    private static func identity(of path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
