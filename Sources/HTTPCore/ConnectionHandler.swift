import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves one connection on its own thread: reads request heads within the time limits,
/// answers them with the server's ``HTTPResponder`` and sends files in chunks, reading the next
/// chunk only once the client has taken the last (back-pressure: memory stays at one chunk
/// per connection however slow the client).
struct ConnectionHandler: Sendable {
    let socket: ClientSocket
    let id: UInt64
    let registry: ConnectionRegistry
    let responder: any HTTPResponder
    let limits: HTTPServer.Limits

    /// The size of a request head that is refused (431), as nginx's default buffers.
    static let maximumHeadSize = 16 * 1024
    /// The largest request body that is read and dropped to keep the connection; larger
    /// bodies end it after the answer.
    static let largestDiscardedBody = 64 * 1024
    /// How much of a file is read and sent at a time.
    static let chunkSize = 64 * 1024

    func run() {
        defer { registry.remove(id) }
        var buffer: [UInt8] = []
        var firstRequest = true
        while true {
            guard registry.setIdle(id, true) else { return }
            let head: RequestHead
            switch readHead(into: &buffer, firstRequest: firstRequest) {
            case .head(let bytes):
                _ = registry.setIdle(id, false)
                do {
                    head = try RequestHead.parse(bytes[...])
                } catch .unsupportedVersion {
                    _ = send(.plain(505, "Only HTTP/1.0 and HTTP/1.1 are served.\n"), closing: true)
                    return
                } catch .duplicateHost {
                    _ = send(.plain(400, "More than one Host field.\n"), closing: true)
                    return
                } catch .missingHost {
                    _ = send(.plain(400, "An HTTP/1.1 request needs a Host field.\n"), closing: true)
                    return
                } catch .malformedContentLength {
                    _ = send(.plain(400, "Malformed or conflicting Content-Length.\n"), closing: true)
                    return
                } catch {
                    _ = send(.plain(400, "Malformed request.\n"), closing: true)
                    return
                }
            case .tooLarge:
                _ = registry.setIdle(id, false)
                _ = send(.plain(431, "The request's header is too large.\n"), closing: true)
                return
            case .timedOut(let started):
                // A client that began a request and did not finish it gets an answer; an idle
                // keep-alive connection is closed quietly, as browsers expect.
                if started { _ = send(.plain(408, "The request took too long to arrive.\n"), closing: true) }
                return
            case .closed:
                return
            }
            firstRequest = false
            var keepAlive = head.keepsAlive
            if head["transfer-encoding"] != nil {
                _ = send(.plain(501, "Request bodies are not accepted.\n"), closing: true)
                return
            }
            if let count = head.contentLength {
                if count > Self.largestDiscardedBody || !discard(count, from: &buffer) { keepAlive = false }
            }
            var response = responder.respond(
                to: head,
                connection: HTTPConnection(
                    beginPoll: { registry.beginPoll() }, endPoll: { registry.endPoll() },
                    clientHasGone: { socket.clientHasGone }))
            // An answer to HEAD is the head of the answer to GET (RFC 9110 9.3.2).
            if head.method == "HEAD" { response.body = .none }
            guard send(response, closing: !keepAlive), keepAlive else { return }
        }
    }

    private enum HeadResult {
        case head([UInt8])
        case tooLarge
        /// `started`: some bytes of the head had arrived.
        case timedOut(started: Bool)
        case closed
    }

    /// Reads until a complete head is in `buffer` and takes it out (what follows it stays:
    /// a pipelined request). The first byte must come within the header timeout (first
    /// request) or the idle timeout (keep-alive), the whole head within the header timeout.
    private func readHead(into buffer: inout [UInt8], firstRequest: Bool) -> HeadResult {
        var deadline = ContinuousClock.now + (firstRequest ? limits.headerTimeout : limits.idleTimeout)
        var started = !buffer.isEmpty
        if started, !firstRequest { deadline = .now + limits.headerTimeout }
        var scanned = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = Self.endOfHead(buffer, from: scanned) {
                let head = Array(buffer[..<end.head])
                buffer.removeFirst(end.next)
                return .head(head)
            }
            scanned = max(0, buffer.count - 3)
            guard buffer.count <= Self.maximumHeadSize else { return .tooLarge }
            switch chunk.withUnsafeMutableBytes({ socket.read(into: $0, until: deadline) }) {
            case .bytes(let count):
                if !started {
                    started = true
                    if !firstRequest { deadline = .now + limits.headerTimeout }
                }
                buffer += chunk[..<count]
            case .timedOut:
                return .timedOut(started: started)
            case .closed:
                return .closed
            }
        }
    }

    /// Where the head ends (the empty line, after CRLF or LF) and where the rest begins.
    private static func endOfHead(_ bytes: [UInt8], from start: Int) -> (head: Int, next: Int)? {
        let newline = UInt8(ascii: "\n")
        var index = start
        while index < bytes.count {
            if bytes[index] == newline, index > 0 {
                // ...\n\n or ...\n\r\n
                if index + 1 < bytes.count, bytes[index + 1] == newline { return (index + 1, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == newline {
                    return (index + 1, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// Reads and drops a request body of `count` bytes; `false` when it did not all come in time.
    private func discard(_ count: Int, from buffer: inout [UInt8]) -> Bool {
        let fromBuffer = min(count, buffer.count)
        buffer.removeFirst(fromBuffer)
        var remaining = count - fromBuffer
        let deadline = ContinuousClock.now + limits.headerTimeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        while remaining > 0 {
            guard case .bytes(let got) = chunk.withUnsafeMutableBytes({ socket.read(into: $0, until: deadline) }) else {
                return false
            }
            if got > remaining { buffer += chunk[remaining..<got] }
            remaining -= min(got, remaining)
        }
        return true
    }

    /// Sends an answer; `false` when the client went away or stalled past the send timeout.
    private func send(_ response: Response, closing: Bool) -> Bool {
        var head = response.head(closing: closing)
        switch response.body {
        case .none:
            return socket.send(head, timeout: limits.sendTimeout)
        case .bytes(let bytes):
            head += bytes
            return socket.send(head, timeout: limits.sendTimeout)
        case .file(let file, let offset, let count):
            guard socket.send(head, timeout: limits.sendTimeout) else { return false }
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(Self.chunkSize, max(count, 1)), alignment: 16)
            defer { chunk.deallocate() }
            return sendFile(file, offset: offset, count: count, chunk: chunk)
        case .spliced(let file, let insert, let at, let offset, let count):
            guard socket.send(head, timeout: limits.sendTimeout) else { return false }
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(Self.chunkSize, max(count, 1)), alignment: 16)
            defer { chunk.deallocate() }
            // Three parts: the file before `at`, the inserted bytes, the rest of the file.
            var position = offset
            let end = offset + count
            while position < end {
                let part: Int
                if position < at {
                    part = min(end, at) - position
                    guard sendFile(file, offset: position, count: part, chunk: chunk) else { return false }
                } else if position < at + insert.count {
                    part = min(end, at + insert.count) - position
                    let sent = insert.withUnsafeBytes { bytes in
                        socket.send(UnsafeRawBufferPointer(rebasing: bytes[(position - at)..<(position - at + part)]), timeout: limits.sendTimeout)
                    }
                    guard sent else { return false }
                } else {
                    part = end - position
                    guard sendFile(file, offset: position - insert.count, count: part, chunk: chunk) else { return false }
                }
                position += part
            }
            return true
        }
    }

    /// Sends `count` bytes of `file` from `offset`, a `chunk` at a time, each read only once
    /// the client has taken the last.
    private func sendFile(_ file: Descriptor, offset: Int, count: Int, chunk: UnsafeMutableRawBufferPointer) -> Bool {
        var sent = 0
        while sent < count {
            let wanted = min(chunk.count, count - sent)
            let got = pread(file.raw, chunk.baseAddress, wanted, off_t(offset + sent))
            if got < 0, errno == EINTR { continue }
            // The file shrank since its length was sent (builds replace files by renaming,
            // so only another program can do that): end the connection, never pad.
            guard got > 0 else { return false }
            guard socket.send(UnsafeRawBufferPointer(rebasing: chunk[..<got]), timeout: limits.sendTimeout) else {
                return false
            }
            sent += got
        }
        return true
    }
}
