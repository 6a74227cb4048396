import Catalog
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One build per output folder at a time: an exclusive `flock` on the output folder itself,
/// held for the whole build (a `serve` rebuild takes it too) and released by the system if the
/// process dies. Who holds it (process id and command) is noted in the cache folder, for the
/// message of a build that has to wait.
final class BuildLock: Sendable {
    private let descriptor: Int32
    private let notePath: String

    /// Takes the lock of `output` (absolute, real; made if missing). When another build holds
    /// it, `waiting` is told who, and the call waits for it, or with `wait` false throws.
    init(output: String, wait: Bool, waiting: (String) -> Void) throws(SiteError) {
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw .write(path: output, reason: (error as NSError).localizedDescription)
        }
        // (The properties are set only once the lock is held: an initializer that throws after
        // setting them all runs `deinit`, which would close the descriptor a second time, maybe
        // another thread's file by then, and delete the holder's note.)
        let descriptor = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .write(path: output, reason: String(cString: strerror(errno))) }
        let notePath = Catalog.cacheFolder() + "/locks/" + Catalog.key(output: output) + ".holder"
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let who = Self.holder(notePath: notePath).map { "process \($0)" } ?? "another process"
            guard wait else {
                close(descriptor)
                throw .busy(output: output, holder: who)
            }
            waiting("another build of \(output) is running (\(who)); waiting for it to finish")
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw .write(path: output, reason: "cannot lock the folder: \(reason)")
                }
            }
        }
        self.descriptor = descriptor
        self.notePath = notePath
        // Best effort: the note only makes a waiting build's message clearer.
        try? FileManager.default.createDirectory(
            atPath: (notePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let command = CommandLine.arguments.map { ($0 as NSString).lastPathComponent == $0 ? $0 : ($0 as NSString).lastPathComponent }
        // (Written whole under another name and renamed: a build that has to wait reads the
        // note while the holder may be writing it.)
        try? Data("\(getpid()): \(command.prefix(3).joined(separator: " "))\n".utf8).write(to: URL(fileURLWithPath: notePath), options: .atomic)
    }

    /// The holder's note at `notePath` ("process id: command"), when it names a live process:
    /// a build killed while it held the lock left its note behind, and the next holder may not
    /// have written its own yet.
    static func holder(notePath: String) -> String? {
        guard let text = try? String(contentsOfFile: notePath, encoding: .utf8) else { return nil }
        let note = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = note.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let number = pid_t(parts[0]), number > 0, kill(number, 0) == 0 || errno == EPERM
        else { return nil }
        return note
    }

    deinit {
        unlink(notePath)
        close(descriptor)  // releases the lock
    }
}
