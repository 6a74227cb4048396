import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The open connections of a server, with the limits that keep idle clients from locking it
/// out: at most ``maximumConnections`` at once (when a new one comes at the limit, the
/// connection idle the longest is closed to make room, as a browser reconnects at will) and at
/// most ``maximumPolls`` held reload polls.
final class ConnectionRegistry: Sendable {
    /// The most connections open at once.
    let maximumConnections: Int
    /// The most reload polls held at once; more are answered 503 and retried by the script.
    let maximumPolls: Int

    private struct Entry {
        var socket: ClientSocket
        /// Waiting for a request (none under way): may be closed to make room.
        var idleSince: ContinuousClock.Instant?
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var polls = 0
        var stopping = false
    }

    private let state = Mutex(State())

    init(maximumConnections: Int, maximumPolls: Int) {
        self.maximumConnections = maximumConnections
        self.maximumPolls = maximumPolls
    }

    /// The number of open connections.
    var count: Int { state.withLock { $0.entries.count } }

    /// Registers a new connection (idle), closing the longest-idle one if the limit is
    /// reached. `nil` when the server is stopping or every connection is busy: the caller
    /// closes the new one.
    func admit(_ socket: ClientSocket) -> UInt64? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            if state.entries.count >= maximumConnections {
                let idle = state.entries.filter { $0.value.idleSince != nil }
                guard let oldest = idle.min(by: { $0.value.idleSince! < $1.value.idleSince! }) else { return nil }
                // Its thread sees the end of the stream, removes it and closes the descriptor.
                oldest.value.socket.shutDown()
                state.entries[oldest.key]?.idleSince = nil
            }
            defer { state.nextID += 1 }
            state.entries[state.nextID] = Entry(socket: socket, idleSince: .now)
            return state.nextID
        }
    }

    /// Marks a connection as waiting for its next request (`true`) or answering one.
    /// Returns `false` when the server is stopping: an idle connection then ends.
    func setIdle(_ id: UInt64, _ idle: Bool) -> Bool {
        state.withLock { state in
            state.entries[id]?.idleSince = idle ? .now : nil
            return !state.stopping
        }
    }

    /// Removes a connection whose thread is about to close it.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Counts a reload poll in; `false` when ``maximumPolls`` are already held.
    func beginPoll() -> Bool {
        state.withLock { state in
            guard state.polls < maximumPolls else { return false }
            state.polls += 1
            return true
        }
    }

    /// Counts a reload poll out.
    func endPoll() { state.withLock { $0.polls -= 1 } }

    /// Stops admitting, and closes the idle connections (busy ones end after their answer).
    func stop() {
        state.withLock { state in
            state.stopping = true
            for entry in state.entries.values where entry.idleSince != nil { entry.socket.shutDown() }
        }
    }

    /// The connection limit that fits the process's descriptor limit: each connection needs
    /// its socket and, while it sends, a file and a few folders.
    static func connectionLimit(requested: Int?) -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let got = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
        let got = getrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
        let fitting = got ? max(8, (Int(clamping: limit.rlim_cur) - 64) / 2) : 1024  // RLIM_INFINITY clamps high
        return min(requested ?? 1024, fitting)
    }
}
