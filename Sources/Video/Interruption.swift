import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What must be stopped or cleaned up, process-wide, when a build is interrupted (Ctrl-C,
/// `kill`, a closed terminal): the programs it runs (ffmpeg, ffprobe) and the temporary folders
/// it writes into (`.cascade-tmp/`).
///
/// An interrupted build does not unwind: most of its stages have no point at which to stop
/// within a second (a large photo's decode, a large library's pages), and it need not, since
/// everything it leaves on disk is already safe to be cut off at any point (files appear under
/// their names only whole, by rename; the catalog commits atomically; the next build checks the
/// rest: the `kill -9` tests). So ``stop(signal:)`` stops the programs, removes the temporary
/// folders and returns, and the caller ends the process. Work that reaches for a temporary file
/// or a program after ``stop(signal:)`` began never gets it: its thread waits there for the
/// process to end (``parkIfInterrupted()``), so nothing writes into a temporary folder after it
/// is removed, and no half-done step is reported as a failure or, worse, recorded as done.
public enum Interruption {
    private struct State {
        var signal: Int32?
        /// The programs running now (process ids).
        var children: Set<pid_t> = []
        /// The temporary folders this process made (absolute).
        var temporaryFolders: Set<String> = []
    }

    private static let state = Mutex(State())

    /// The signal that interrupted the process, once ``stop(signal:)`` was called.
    public static var signal: Int32? { state.withLock { $0.signal } }

    /// Makes the temporary folder `path` (absolute) if it is missing, and notes it for removal
    /// by ``stop(signal:)``. Returns 0, or the `errno` of a failed `mkdir` (not `EEXIST`).
    /// After an interruption it never returns (see ``parkIfInterrupted()``).
    public static func makeTemporaryFolder(_ path: String) -> Int32 {
        let result: Int32? = state.withLock { state in
            // Under the lock: a folder is never made again after stop() removed it.
            guard state.signal == nil else { return nil }
            if mkdir(path, 0o755) != 0, errno != EEXIST { return errno }
            state.temporaryFolders.insert(path)
            return 0
        }
        guard let result else { park() }
        return result
    }

    /// Notes a program just started; when the process is being interrupted, it is killed at
    /// once and `false` is returned.
    static func adopt(_ child: pid_t) -> Bool {
        let interrupted = state.withLock { state in
            if state.signal == nil { state.children.insert(child) }
            return state.signal != nil
        }
        if interrupted { kill(child, SIGKILL) }
        return !interrupted
    }

    /// Notes that a program ended (it was waited for).
    static func release(_ child: pid_t) {
        _ = state.withLock { $0.children.remove(child) }
    }

    /// Interrupts the process: kills the programs it runs (`SIGKILL`: what they were making is
    /// thrown away), waits until they are gone (at most a second and a half), and removes the
    /// temporary folders. Called once, from the signal handler's own thread; the caller then
    /// ends the process.
    public static func stop(signal: Int32) {
        let children = state.withLock { state in
            state.signal = state.signal ?? signal
            return state.children
        }
        for child in children { kill(child, SIGKILL) }
        // Their runners note when they are gone; a program still writing could make a file in
        // a folder being removed.
        let deadline = ContinuousClock.now + .milliseconds(1500)
        while !state.withLock({ $0.children.isEmpty }), ContinuousClock.now < deadline {
            usleep(10_000)
        }
        let folders = state.withLock { $0.temporaryFolders }
        for folder in folders {
            // A thread that had its path before the stop may still create a file in the
            // folder while it is removed (the removal then fails); it cannot make the folder again.
            for _ in 0..<50 {
                try? FileManager.default.removeItem(atPath: folder)
                var status = stat()
                if lstat(folder, &status) != 0 { break }
                usleep(10_000)
            }
        }
    }

    /// Waits for ever when the process is being interrupted (its end comes from the signal
    /// handler's thread); returns at once otherwise.
    public static func parkIfInterrupted() {
        if signal != nil { park() }
    }

    private static func park() -> Never {
        while true { pause() }
    }
}
