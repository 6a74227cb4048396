import Support
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Closes connections that were answered without their request being read (503 past the
/// connection limit) so that the client gets the answer: closing a socket whose request is
/// still unread makes the system reset the connection, and a reset discards what the client
/// has not read yet, the answer included. So the server's side is shut for writing (the client
/// sees the end of the answer) and what the client still sends is read and dropped, on one
/// thread for all such connections, until the client closes or two seconds pass (as the
/// "lingering close" of Apache and nginx).
final class LingeringCloser: Sendable {
    /// The most connections lingering at once; past it the oldest is closed at once.
    static let maximumLingering = 256
    /// How long a connection lingers at most.
    static let lingerTime = Duration.seconds(2)

    private struct Lingering {
        var socket: ClientSocket
        var until: ContinuousClock.Instant
    }

    private struct State {
        var lingering: [Lingering] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let wake = NSCondition()

    /// Starts the closer's thread.
    init() {
        let thread = Thread { [self] in self.run() }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Shuts `socket` for writing and closes it once the client has closed its side (or after
    /// ``lingerTime``).
    func close(_ socket: ClientSocket) {
        _ = shutdown(socket.descriptor.raw, Int32(SHUT_WR))
        let dropped: Lingering? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.lingering.append(Lingering(socket: socket, until: .now + Self.lingerTime))
            return state.lingering.count > Self.maximumLingering ? state.lingering.removeFirst() : nil
        }
        withExtendedLifetime(dropped) {}  // (closed here, outside the lock)
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Closes every lingering connection and ends the thread.
    func stop() {
        let dropped = state.withLock { state in
            state.stopped = true
            defer { state.lingering.removeAll() }
            return state.lingering
        }
        withExtendedLifetime(dropped) {}
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    private func run() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let (current, stopped) = state.withLock { ($0.lingering, $0.stopped) }
            if stopped { return }
            if current.isEmpty {
                wake.lock()
                if state.withLock({ $0.lingering.isEmpty && !$0.stopped }) { _ = wake.wait(until: Date(timeIntervalSinceNow: 1)) }
                wake.unlock()
                continue
            }
            var entries = current.map { pollfd(fd: $0.socket.descriptor.raw, events: Int16(POLLIN), revents: 0) }
            _ = poll(&entries, nfds_t(entries.count), 100)
            var finished = Set<ObjectIdentifier>()
            let now = ContinuousClock.now
            for (entry, lingering) in zip(entries, current) {
                let id = ObjectIdentifier(lingering.socket.descriptor)
                if lingering.until < now {
                    finished.insert(id)
                    continue
                }
                guard entry.revents != 0 else { continue }
                // Drops what came; the end of the stream (or an error) ends the lingering.
                while true {
                    let count = scratch.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count > 0 { continue }
                    if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                    finished.insert(id)
                    break
                }
            }
            guard !finished.isEmpty else { continue }
            let dropped = state.withLock { state in
                let gone = state.lingering.filter { finished.contains(ObjectIdentifier($0.socket.descriptor)) }
                state.lingering.removeAll { finished.contains(ObjectIdentifier($0.socket.descriptor)) }
                return gone
            }
            withExtendedLifetime(dropped) {}
        }
    }
}
