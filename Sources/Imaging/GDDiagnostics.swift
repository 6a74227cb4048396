import CGD
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Collects libgd's warnings and errors per thread.
///
/// gd reports problems through one process-wide callback (`gdSetErrorMethod`), and a
/// truncated JPEG comes back as an image with only a warning. The callback runs on the
/// thread that is decoding, so messages are filed under that thread while ``capture(_:)``
/// runs there.
enum GDDiagnostics {
    private static let messages = Mutex<[UInt: [String]]>([:])
    private static let installed: Void = {
        gdSetErrorMethod { _, format, arguments in
            guard let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let message = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let thread = UInt(bitPattern: Int(pthread_self()))
            GDDiagnostics.messages.withLock { all in
                if all[thread] != nil { all[thread]!.append(message) }
            }
        }
    }()

    /// Runs `body` and returns what it returned with the messages gd reported meanwhile.
    static func capture<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, [String]) {
        _ = installed
        let thread = UInt(bitPattern: Int(pthread_self()))
        messages.withLock { $0[thread] = [] }
        defer { messages.withLock { _ = $0.removeValue(forKey: thread) } }
        let result = try body()
        let reported = messages.withLock { $0[thread] ?? [] }
        return (result, reported)
    }
}
