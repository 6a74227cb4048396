import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The open connections of a server, with the limits that keep idle clients from locking it
/// out: at most ``maximumConnections`` at once and at most ``maximumPolls`` held long polls.
/// When a new connection comes at the limit, the connection idle the longest is closed to make
/// room: quietly when it is a kept-alive one between requests (as HTTP allows, and browsers
/// then reconnect), with a 503 and `Retry-After` when it has sent no request yet. A connection
/// whose request has arrived but is not read yet is not idle. When none is idle, the new
/// connection is answered 503 (see ``HTTPServer``).
final class ConnectionRegistry: Sendable {
    /// The most connections open at once.
    let maximumConnections: Int
    /// The most long polls held at once; more are answered 503 (`Retry-After`).
    let maximumPolls: Int

    private struct Entry {
        var socket: ClientSocket
        /// Waiting for a request (none under way): may be closed to make room.
        var idleSince: ContinuousClock.Instant?
        /// Whether a request came on it (a kept-alive connection, when idle).
        var hadRequest = false
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

    /// The number of long polls held.
    var polls: Int { state.withLock { $0.polls } }

    /// Registers a new connection (idle), closing the longest-idle one if the limit is
    /// reached. `nil` when the server is stopping or every connection is busy: the caller
    /// closes the new one.
    func admit(_ socket: ClientSocket) -> UInt64? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            if state.entries.count >= maximumConnections {
                let idle = state.entries.filter { $0.value.idleSince != nil }.sorted { $0.value.idleSince! < $1.value.idleSince! }
                // (A request that has come but is not read yet makes a connection busy.)
                guard let oldest = idle.first(where: { !$0.value.socket.hasPendingInput }) else { return nil }
                if !oldest.value.hadRequest { oldest.value.socket.sendAtOnce(Response.busy.bytes(closing: true)) }
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
            if !idle { state.entries[id]?.hadRequest = true }
            return !state.stopping
        }
    }

    /// Removes a connection whose thread is about to close it.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Counts a long poll in; `false` when ``maximumPolls`` are already held.
    func beginPoll() -> Bool {
        state.withLock { state in
            guard state.polls < maximumPolls else { return false }
            state.polls += 1
            return true
        }
    }

    /// Counts a long poll out.
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
