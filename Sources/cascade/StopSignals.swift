import Dispatch
import Foundation
import Synchronization
import Video

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (`SIGINT`), `SIGTERM` and `SIGHUP` (the terminal closed) stop `build` and `serve`:
/// the programs the build runs are killed, its temporary files removed (``Interruption``), and
/// the process ends with the shell's status for the signal, 128 + its number (130, 143, 129).
/// A second signal ends the process at once, whatever is still under way.
///
/// The signals are taken by dispatch sources (the default action, which would end the process
/// before anything is cleaned up, is set to ignore them), and handled on a thread of their own:
/// the build's threads are left where they are (see ``Interruption``).
///
/// `SIGINT` and `SIGTERM` are taken even when cascade was started with them ignored. Before,
/// cascade left them as it found them, and a shell without job control starts a background
/// command (`cascade build … &` in a script, a CI job) with `SIGINT` ignored: Ctrl-C and `kill
/// -INT` then did nothing, the build ran to its end and exited 0, while `SIGTERM`, not ignored,
/// ended it at once without removing `.cascade-tmp/` (nothing in Foundation or the runtime
/// catches or ignores `SIGINT`; `/proc/PID/status` shows it neither caught nor ignored when
/// cascade is started from a plain shell). `SIGHUP` started ignored stays ignored: that is
/// `nohup`, asking the build to outlive its terminal.
enum StopSignals {
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The sources, kept for the life of the process (set once, before any signal is handled).
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let stopping = Atomic<Bool>(false)

    /// Starts handling the signals. `beforeExit` runs after the build's programs are stopped
    /// and its temporary files removed (for `serve`: stopping the server), on the handler's
    /// thread; it must return within a second or two.
    /// `note` ends the message that says why the process ends.
    static func install(note: String, beforeExit: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let queue = DispatchQueue(label: "cascade.stop-signals")
        let made = handled.filter { $0 != SIGHUP || !isIgnored($0) }.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if stopping.exchange(true, ordering: .acquiringAndReleasing) {
                    // The second Ctrl-C: the user does not want to wait for the cleanup.
                    _exit(128 + number)
                }
                Thread.detachNewThread {
                    announce(number, note: note)
                    Interruption.stop(signal: number)
                    beforeExit(number)
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        sources = made
    }

    /// Whether the signal's action is to ignore it (as inherited from the parent).
    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Says on standard error why the process ends (a progress bar's line is ended first).
    private static func announce(_ number: Int32, note: String) {
        let name = number == SIGINT ? "SIGINT (Ctrl-C)" : number == SIGTERM ? "SIGTERM" : number == SIGHUP ? "SIGHUP" : "signal \(number)"
        let lineEnd = isatty(2) != 0 ? "\n" : ""
        // write(2), not a FileHandle or stdio: another thread may hold their locks for ever.
        let text = Array("\(lineEnd)cascade: stopped by \(name)\(note)\n".utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
