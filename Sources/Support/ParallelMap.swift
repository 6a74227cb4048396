import Dispatch
import Synchronization

/// `transform` applied to every element of `items`, on `jobs` threads at once; the results in
/// the order of `items`. The one parallel loop of a build: reading folders and headers, hashing
/// photos, rendering pages (here, in the lowest module of the ones that use it).
@inlinable public func parallelMap<Element: Sendable, Result: Sendable>(
    _ items: [Element], jobs: Int, _ transform: @Sendable (Element) -> Result
) -> [Result] {
    let results = ResultSlots<Result>(count: items.count)
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, items.count))) { _ in
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < items.count else { return }
            results.set(index, transform(items[index]))
        }
    }
    return results.take()
}

/// `transform` applied to every element of `items` on `jobs` threads, as ``parallelMap(_:jobs:_:)``;
/// throws the first error (in the order of `items`) if any call failed.
@inlinable public func parallelMap<Element: Sendable, Value: Sendable, Failure: Error>(
    _ items: [Element], jobs: Int, throwing transform: @Sendable (Element) throws(Failure) -> Value
) throws(Failure) -> [Value] {
    let results: [Result<Value, Failure>] = parallelMap(items, jobs: jobs) { item in
        Result { () throws(Failure) -> Value in try transform(item) }
    }
    return try results.map { result throws(Failure) -> Value in try result.get() }
}

/// `first` and `second` at once, on two threads when `jobs` allows (one after the other
/// otherwise): two different pieces of work, each over a large library's every file or photo.
@inlinable public func parallel<A: Sendable, B: Sendable>(
    jobs: Int = 2, _ first: @Sendable () -> A, _ second: @Sendable () -> B
) -> (A, B) {
    let (a, b) = (ResultSlots<A>(count: 1), ResultSlots<B>(count: 1))
    _ = parallelMap([0, 1], jobs: jobs) { part in part == 0 ? a.set(0, first()) : b.set(0, second()) }
    return (a.take()[0], b.take()[0])
}

/// `first`, `second` and `third` at once, on `jobs` threads, as ``parallel(jobs:_:_:)``.
@inlinable public func parallel<A: Sendable, B: Sendable, C: Sendable>(
    jobs: Int = 3, _ first: @Sendable () -> A, _ second: @Sendable () -> B, _ third: @Sendable () -> C
) -> (A, B, C) {
    let (a, b, c) = (ResultSlots<A>(count: 1), ResultSlots<B>(count: 1), ResultSlots<C>(count: 1))
    _ = parallelMap([0, 1, 2], jobs: jobs) { part in
        switch part {
        case 0: a.set(0, first())
        case 1: b.set(0, second())
        default: c.set(0, third())
        }
    }
    return (a.take()[0], b.take()[0], c.take()[0])
}

/// `work`, started at once on a thread of its own (not one of Swift concurrency's, which a
/// build's synchronous stages keep busy): ``wait()`` gives its value. For a piece of one-core
/// work that can run while the caller does another.
public final class BackgroundWork<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let done = DispatchGroup()

    /// Starts `work`.
    public init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = work()
            value.withLock { $0 = result }
            done.leave()
        }
    }

    /// Waits for the work to end and gives its value (once: it is not kept).
    public func wait() -> Value {
        done.wait()
        return value.withLock { value in
            defer { value = nil }
            return value!
        }
    }
}

/// `0..<count` cut into consecutive runs of `length` indices (the last may be shorter): how a
/// long list is shared out to ``parallelMap(_:jobs:_:)`` a run at a time.
@inlinable public func indexRuns(_ count: Int, length: Int) -> [Range<Int>] {
    stride(from: 0, to: count, by: length).map { $0..<min($0 + length, count) }
}

/// One slot per result of ``parallelMap(_:jobs:_:)``, each set once by whichever thread made
/// it, and moved out at the end (not copied: a copy of a large library's every photo or page
/// result was a reference count per field, and the slots' release as many again). (Inlinable,
/// as the helpers: they are inlined into the modules that call them, so that they are
/// specialized for their types there, a result set without a generic call.)
@usableFromInline final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    // Unchecked: each slot is written by one thread, once, before `concurrentPerform` returns,
    // and read only after it has.
    @usableFromInline let slots: UnsafeMutablePointer<Value>
    @usableFromInline let count: Int
    /// How many slots hold a value (all of them once every result is in; none once taken).
    @usableFromInline let filled = Atomic<Int>(0)

    @inlinable init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(1, count))
    }

    @inlinable func set(_ index: Int, _ value: Value) {
        (slots + index).initialize(to: value)
        filled.add(1, ordering: .relaxed)
    }

    /// Every result, in order, moved out of the slots; asked once, when all are set.
    @inlinable func take() -> [Value] {
        precondition(filled.load(ordering: .relaxed) == count, "a result is missing")
        filled.store(0, ordering: .relaxed)
        return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.moveInitialize(from: slots, count: count) }
            initialized = count
        }
    }

    deinit {
        // Results never taken (not in the helpers here) are freed with the slots.
        if filled.load(ordering: .relaxed) == count { slots.deinitialize(count: count) }
        slots.deallocate()
    }
}
