import Dispatch
import Synchronization

/// `transform` applied to every element of `items`, on `jobs` threads at once; the results in
/// the order of `items`. The one parallel loop of a build: hashing photos, rendering pages.
func parallelMap<Element: Sendable, Result: Sendable>(
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
    return results.values
}

/// `transform` applied to every element of `items` on `jobs` threads, as ``parallelMap(_:jobs:_:)``;
/// throws the first error (in the order of `items`) if any call failed.
func parallelMap<Element: Sendable, Value: Sendable, Failure: Error>(
    _ items: [Element], jobs: Int, throwing transform: @Sendable (Element) throws(Failure) -> Value
) throws(Failure) -> [Value] {
    let results: [Result<Value, Failure>] = parallelMap(items, jobs: jobs) { item in
        Result { () throws(Failure) -> Value in try transform(item) }
    }
    return try results.map { result throws(Failure) -> Value in try result.get() }
}

/// `0..<count` cut into consecutive runs of `length` indices (the last may be shorter): how a
/// long list is shared out to ``parallelMap(_:jobs:_:)`` a run at a time.
func indexRuns(_ count: Int, length: Int) -> [Range<Int>] {
    stride(from: 0, to: count, by: length).map { $0..<min($0 + length, count) }
}

/// One slot per result of ``parallelMap(_:jobs:_:)``.
private final class ResultSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>
    init(count: Int) { slots = Mutex([Value?](repeating: nil, count: count)) }
    func set(_ index: Int, _ value: Value) { slots.withLock { $0[index] = value } }
    var values: [Value] { slots.withLock { $0.map { $0! } } }
}
