/// Where the source watcher's work is measured: the tests of what watching costs while
/// nothing changes give one (`CPUMeter`, in the tests); the program measures nothing.
protocol WatchingMeter: Sendable {
    /// Runs `work`, one look at the folders (a snapshot read, watches set): a piece of work.
    func measure<Value>(_ work: () throws -> Value) rethrows -> Value
    /// Runs `work`, a wait for events and their reading: its time counts, but it is no piece.
    func measureWaiting<Value>(_ work: () throws -> Value) rethrows -> Value
}

/// The meter of a watcher that nobody measures.
struct Unmeasured: WatchingMeter {
    func measure<Value>(_ work: () throws -> Value) rethrows -> Value { try work() }
    func measureWaiting<Value>(_ work: () throws -> Value) rethrows -> Value { try work() }
}
