#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open file descriptor (a file, a folder or a socket), closed exactly once when the last
/// reference goes away. Every descriptor the preview server and the source watcher open is
/// owned by one of these.
public final class Descriptor: @unchecked Sendable {
    /// The descriptor number; valid while this object lives.
    public let raw: Int32

    /// Takes ownership of `raw` (which must be open).
    public init(owning raw: Int32) { self.raw = raw }

    deinit { close(raw) }

    /// The file's metadata, or `nil` when `fstat` fails.
    public func status() -> stat? {
        var status = stat()
        return fstat(raw, &status) == 0 ? status : nil
    }
}
