import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's listening socket and its accept loop.
final class Listener: Sendable {
    private let descriptor: Descriptor
    /// The port listened on (the one the system picked when 0 was asked for).
    let port: Int
    private let stopping = Atomic<Bool>(false)

    /// Binds and listens on `host` (an IPv4 or IPv6 address, or a name such as `localhost`).
    init(host: String, port: Int) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let address = found else {
            throw .cannotListen(host: host, port: port, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(found) }
        let raw = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC_FLAG), 0)
        guard raw >= 0 else { throw .cannotListen(host: host, port: port, reason: String(cString: strerror(errno))) }
        let descriptor = Descriptor(owning: raw)
        var yes: Int32 = 1
        _ = setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(raw, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0, listen(raw, 511) == 0 else {
            switch errno {
            case EADDRINUSE: throw .portInUse(host: host, port: port)
            case EACCES: throw .permissionDenied(host: host, port: port)
            case let code: throw .cannotListen(host: host, port: port, reason: String(cString: strerror(code)))
            }
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(raw, $0, &length) }
        }
        let family = bound.ss_family
        let networkPort: UInt16 = withUnsafePointer(to: &bound) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: networkPort))
    }

    /// Accepts connections and hands each to `handle` until ``stop()``.
    func acceptLoop(_ handle: (ClientSocket) -> Void) {
        while !stopping.load(ordering: .acquiring) {
            // Wake up now and then to see `stopping`, even where shutdown does not wake accept.
            var entry = pollfd(fd: descriptor.raw, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 500) > 0 else { continue }
            if stopping.load(ordering: .acquiring) { break }
            let raw = accept(descriptor.raw, nil, nil)
            if raw < 0 {
                switch errno {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: the pending connection stays queued; do not spin on it.
                    usleep(50_000)
                default:
                    continue
                }
                continue
            }
            _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
            #if canImport(Darwin)
            var yes: Int32 = 1
            _ = setsockopt(raw, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            handle(ClientSocket(descriptor: Descriptor(owning: raw)))
        }
    }

    /// Stops accepting (the loop ends within half a second).
    func stop() {
        stopping.store(true, ordering: .releasing)
        _ = shutdown(descriptor.raw, Int32(SHUT_RDWR))
    }
}

#if canImport(Glibc)
private let SOCK_CLOEXEC_FLAG = Int32(SOCK_CLOEXEC.rawValue)
#else
private let SOCK_CLOEXEC_FLAG: Int32 = 0
#endif
