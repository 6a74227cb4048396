import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a blocking closure on a thread of its own (never on the tasks' threads).
func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// This process's resident memory in bytes (Linux: `VmRSS` of /proc/self/status).
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
}

/// Raises this process's descriptor limit to at least `count` (within the hard limit).
func raiseDescriptorLimit(to count: Int) {
    var limit = rlimit()
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
    limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
    _ = setrlimit(resource, &limit)
}

/// Sends all of `text` on a blocking socket.
func sendAll(_ fd: Int32, _ text: String) throws {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { throw SocketError(description: "send: \(errno)") }
        sent += count
    }
}

/// Reads until the peer closes, fails or `limit` bytes came; returns the count.
func drain(_ fd: Int32, limit: Int = .max) -> Int {
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while total < limit {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        total += count
    }
    return total
}

/// A flag threads can read and set.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func stop() { value.store(true, ordering: .releasing) }
    var isStopped: Bool { value.load(ordering: .acquiring) }
}

/// A count threads can add to and read.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .releasing) }
    var value: Int { count.load(ordering: .acquiring) }
}

/// Makes a sparse file of `size` bytes (zeros), fast and without using the disk.
func makeSparseFile(_ path: String, size: Int) throws {
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(size))
    try handle.close()
}
