import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Adds up the processor time that some work takes on the threads that run it (each
/// measured with its thread's own CPU clock, so work of other tasks never counts): how much
/// the source watcher costs while nothing changes.
final class CPUMeter: Sendable {
    private let total = Atomic<Int64>(0)

    /// The processor time measured so far.
    var elapsed: Duration { .nanoseconds(total.load(ordering: .relaxed)) }

    /// Runs `work` and adds its processor time.
    func measure<Value>(_ work: () throws -> Value) rethrows -> Value {
        let start = Self.threadTime()
        defer { total.add(Self.threadTime() - start, ordering: .relaxed) }
        return try work()
    }

    /// Adds processor time measured by the caller.
    func add(nanoseconds: Int64) { total.add(nanoseconds, ordering: .relaxed) }

    /// The calling thread's processor time in nanoseconds.
    static func threadTime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
