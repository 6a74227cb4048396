import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain HTTP/1.1 client over a loopback socket, for the tests: every request opens a
/// connection, sends `Connection: close` and reads the answer to the end. Sockets block, so
/// each request runs on a thread of its own, never on the tasks' threads.
struct TestClient: Sendable {
    /// The server's port on 127.0.0.1.
    let port: Int

    /// A status code.
    struct Status: Equatable, Sendable, CustomStringConvertible {
        var code: Int
        static let ok = Status(code: 200)
        static let partialContent = Status(code: 206)
        static let movedPermanently = Status(code: 301)
        static let notModified = Status(code: 304)
        static let badRequest = Status(code: 400)
        static let notFound = Status(code: 404)
        static let methodNotAllowed = Status(code: 405)
        static let rangeNotSatisfiable = Status(code: 416)
        static let serviceUnavailable = Status(code: 503)
        var description: String { String(code) }
    }

    /// A header field name (compared case-insensitively).
    struct HeaderName: Hashable, Sendable {
        var name: String
        init(_ name: String) { self.name = name.lowercased() }
        static let location = HeaderName("Location")
        static let contentType = HeaderName("Content-Type")
        static let contentLength = HeaderName("Content-Length")
        static let contentRange = HeaderName("Content-Range")
        static let allow = HeaderName("Allow")
        static let range = HeaderName("Range")
        static let eTag = HeaderName("ETag")
        static let ifRange = HeaderName("If-Range")
        static let ifNoneMatch = HeaderName("If-None-Match")
        static let cacheControl = HeaderName("Cache-Control")
    }

    /// Header fields of an answer.
    struct Headers: Sendable {
        var fields: [String: String] = [:]
        subscript(_ name: HeaderName) -> String? { fields[name.name] }
    }

    /// An answer: status, header fields and body.
    struct Response: Sendable {
        var status: Status
        var headers: Headers
        var body: [UInt8]
    }

    func get(_ path: String, headers: [HeaderName: String] = [:]) async throws -> Response {
        try await execute("GET", path, headers: headers)
    }

    func head(_ path: String, headers: [HeaderName: String] = [:]) async throws -> Response {
        try await execute("HEAD", path, headers: headers)
    }

    func post(_ path: String, body: String) async throws -> Response {
        try await execute("POST", path, headers: [HeaderName("Content-Length"): String(body.utf8.count)], body: body)
    }

    func execute(_ method: String, _ path: String, headers: [HeaderName: String] = [:], body: String = "") async throws -> Response {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name.name): \(value)\r\n" }
        request += "\r\n" + body
        let answer = try await rawRequestBytes(port: port, request)
        return try Self.parse(answer, isHead: method == "HEAD")
    }

    struct MalformedAnswer: Error {}

    /// Splits an answer read to the end of the connection into status, fields and body.
    static func parse(_ bytes: [UInt8], isHead: Bool) throws -> Response {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...(max(0, bytes.count - 4))).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator }) else {
            throw MalformedAnswer()
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else { throw MalformedAnswer() }
        var headers = Headers()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw MalformedAnswer() }
            headers.fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if isHead { body = [] }
        if let length = headers[.contentLength].flatMap(Int.init), body.count > length { body = Array(body[..<length]) }
        return Response(status: Status(code: code), headers: headers, body: body)
    }
}

extension TestClient.Response {
    /// The body as text (empty when there is none).
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body's length in bytes.
    var bodyCount: Int { body.count }
}
