import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import SourceWatching

/// Adds up the processor time that some work takes on the threads that run it (each
/// measured with its thread's own CPU clock, so work of other tasks never counts): how much
/// the source watcher costs while nothing changes.
final class CPUMeter: WatchingMeter {
    private let total = Atomic<Int64>(0)
    private let started = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)

    /// The processor time measured so far.
    var elapsed: Duration { .nanoseconds(total.load(ordering: .relaxed)) }

    /// How many pieces of work ``measure(_:)`` has finished (snapshots, watches set): none
    /// while an event-driven watcher waits.
    var pieces: Int { finished.load(ordering: .acquiring) }

    /// Whether a piece of work is being measured now.
    var isMeasuring: Bool { started.load(ordering: .acquiring) != finished.load(ordering: .acquiring) }

    /// Runs `work` and adds its processor time.
    func measure<Value>(_ work: () throws -> Value) rethrows -> Value {
        started.add(1, ordering: .releasing)
        defer { finished.add(1, ordering: .releasing) }
        let start = Self.threadTime()
        defer { total.add(Self.threadTime() - start, ordering: .relaxed) }
        return try work()
    }

    /// Runs `work` and adds its processor time, without counting it as a piece.
    func measureWaiting<Value>(_ work: () throws -> Value) rethrows -> Value {
        let start = Self.threadTime()
        defer { total.add(Self.threadTime() - start, ordering: .relaxed) }
        return try work()
    }

    /// The calling thread's processor time in nanoseconds.
    private static func threadTime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
