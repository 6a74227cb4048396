import Synchronization

/// A value made the first time it is asked for, by whichever thread asks first (the others
/// wait for it), and then shared: for what a build needs only in some libraries (an index of
/// the earlier records by content hash, what ffprobe said about earlier videos), so that the
/// others do not pay for it.
final class Lazy<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    var value: Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
