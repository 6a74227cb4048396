import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times a build's stages for `--verbose`: the wall-clock seconds since the last stage ended,
/// and the processor seconds (user and system, every thread) the process spent in them, which
/// say how much of a stage ran on more than one core.
struct StageClock {
    private var wall = Date()
    private var processor = StageClock.processorSeconds()

    /// The event that ends the stage `name` and starts the next one.
    mutating func lap(_ name: String) -> BuildEvent {
        let (now, used) = (Date(), Self.processorSeconds())
        defer { (wall, processor) = (now, used) }
        return .stage(name, seconds: now.timeIntervalSince(wall), processorSeconds: used - processor)
    }

    /// The processor time the process has used so far.
    static func processorSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
