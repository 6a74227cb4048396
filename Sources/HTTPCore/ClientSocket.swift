import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection's socket, read and written with time limits: a read waits at most
/// until a deadline, and a write gives up when the client has taken nothing for the send
/// timeout (a stalled reader cannot hold the connection and its file for ever).
struct ClientSocket: Sendable {
    let descriptor: Descriptor

    /// What a read brought.
    enum ReadResult {
        case bytes(Int)
        case closed
        case timedOut
    }

    /// Reads what is there into `buffer`, waiting until `deadline` at most.
    func read(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant) -> ReadResult {
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { return .timedOut }
            switch wait(for: Int16(POLLIN), milliseconds: Self.milliseconds(remaining)) {
            case .timedOut: continue
            case .failed: return .closed
            case .ready: break
            }
            let count = recv(descriptor.raw, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            return .closed
        }
    }

    /// Sends all of `bytes`; `false` when the client went away or took nothing for `timeout`.
    func send(_ bytes: UnsafeRawBufferPointer, timeout: Duration) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc_send(descriptor.raw, bytes.baseAddress! + offset, bytes.count - offset)
            if count > 0 {
                offset += count
                continue
            }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return false }
            // Back-pressure: wait until the client has read some of what was sent.
            guard case .ready = wait(for: Int16(POLLOUT), milliseconds: Self.milliseconds(timeout)) else { return false }
        }
        return true
    }

    /// Sends `text` (a response head or a short body).
    func send(_ bytes: [UInt8], timeout: Duration) -> Bool {
        bytes.withUnsafeBytes { send($0, timeout: timeout) }
    }

    /// Whether the client has closed its side (or reset): for a held long poll, whose
    /// client sends nothing more while it waits.
    var clientHasGone: Bool {
        var entry = pollfd(fd: descriptor.raw, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        // Readable: a request pipelined behind the poll, or the end of the stream.
        return recv(descriptor.raw, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Whether bytes have arrived that nobody has read yet.
    var hasPendingInput: Bool {
        var byte: UInt8 = 0
        return recv(descriptor.raw, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// Sends what fits into the socket's buffer now, without waiting (a short answer to a
    /// connection about to be closed).
    func sendAtOnce(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc_send(descriptor.raw, $0.baseAddress!, $0.count) }
    }

    /// Stops both directions, waking a thread blocked on this socket (the descriptor stays
    /// open until its owner closes it).
    func shutDown() { _ = shutdown(descriptor.raw, Int32(SHUT_RDWR)) }

    private enum Readiness { case ready, timedOut, failed }

    private func wait(for events: Int16, milliseconds: Int32) -> Readiness {
        var entry = pollfd(fd: descriptor.raw, events: events, revents: 0)
        let result = poll(&entry, 1, milliseconds)
        if result == 0 { return .timedOut }
        if result < 0 { return errno == EINTR ? .timedOut : .failed }
        if entry.revents & events != 0 { return .ready }
        return .failed  // POLLERR, POLLHUP or POLLNVAL alone
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(0, total))
    }
}

/// `send(2)` that neither blocks nor raises SIGPIPE.
private func Glibc_send(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(socket, bytes, count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
    #else
    Darwin.send(socket, bytes, count, MSG_DONTWAIT)  // SO_NOSIGPIPE is set on accept
    #endif
}
