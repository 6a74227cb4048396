/// The head of an HTTP/1.x request: request line and header fields.
public struct RequestHead: Sendable, Equatable {
    /// The method, as sent (methods are case-sensitive).
    public var method: String
    /// The request target's path, still percent-encoded.
    public var path: String
    /// The request target's query, without its `?`; `nil` when there is none.
    public var query: String?
    /// `1` for HTTP/1.1, `0` for HTTP/1.0.
    public var minorVersion: Int
    /// Header fields in order, names lowercased.
    public var fields: [(name: String, value: String)]

    /// Why a request head is refused (400).
    public enum Refusal: Error, Equatable {
        /// Not three parts (method, target, version) of visible characters.
        case malformedRequestLine
        /// Another version than HTTP/1.0 and HTTP/1.1 (505).
        case unsupportedVersion
        /// A header field without a name, with whitespace around its name, or with a NUL or CR.
        case malformedField
        /// More than one `Host` field, or none in an HTTP/1.1 request (RFC 9112 3.2).
        case duplicateHost
        case missingHost
        /// `Content-Length` values that differ or are not numbers (RFC 9112 6.3).
        case malformedContentLength
    }

    /// The body's length from `Content-Length` (identical repeated values count once); `nil`
    /// without one.
    public var contentLength: Int? {
        let values = fields.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",") }
        return values.first.flatMap { Int(String($0).trimmingSpaces()) }
    }

    /// The value of the first field named `name` (lowercase).
    public subscript(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer (HTTP/1.1 without `Connection: close`).
    public var keepsAlive: Bool {
        guard minorVersion >= 1 else { return false }
        let tokens = fields.filter { $0.name == "connection" }.flatMap { $0.value.lowercased().split(separator: ",") }
        return !tokens.contains { String($0).trimmingSpaces() == "close" }
    }

    /// A query parameter's value, percent-decoding neither name nor value.
    public func queryParameter(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// Parses a head (the bytes before the empty line, lines ended by CRLF or LF).
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> RequestHead {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        // RFC 9112 2.2: empty lines before the request line are ignored.
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { throw .malformedRequestLine }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy({ (0x21...0x7E).contains($0) }), parts[1].allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .malformedRequestLine }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .unsupportedVersion }
        var target = String(decoding: parts[1], as: UTF8.self)
        // The absolute form (`http://host:port/path`, RFC 9112 3.2.2), which a server must
        // accept: its path is what is asked for (the host is this server, whatever it says).
        if let scheme = target.range(of: "://"), ["http", "https"].contains(target[..<scheme.lowerBound].lowercased()) {
            let rest = target[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            guard authorityEnd > rest.startIndex else { throw .malformedRequestLine }
            target = (rest[authorityEnd...].first == "/" ? "" : "/") + rest[authorityEnd...]
        }
        var path = target
        var query: String?
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { throw .malformedField }
            let name = line[..<colon]
            // No whitespace in or around a field name (RFC 9112 5.1), no obsolete line folding.
            guard name.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw .malformedField }
            guard !line[line.index(after: colon)...].contains(where: { $0 == 0 || $0 == UInt8(ascii: "\r") }) else {
                throw .malformedField
            }
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingSpaces()
            fields.append((String(decoding: name, as: UTF8.self).lowercased(), value))
        }
        // Two hosts, or two lengths, could be read differently by a proxy in front: refused.
        let hosts = fields.count(where: { $0.name == "host" })
        guard hosts <= 1 else { throw .duplicateHost }
        guard hosts == 1 || version == "HTTP/1.0" else { throw .missingHost }
        let lengths = fields.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0).trimmingSpaces() }
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first && !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }), Int(first) != nil
            else { throw .malformedContentLength }
        }
        return RequestHead(method: String(decoding: parts[0], as: UTF8.self), path: path, query: query, minorVersion: version == "HTTP/1.1" ? 1 : 0, fields: fields)
    }

    /// Heads with the same method, target, version and fields in the same order.
    public static func == (lhs: RequestHead, rhs: RequestHead) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query && lhs.minorVersion == rhs.minorVersion
            && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(self[first...last])
    }
}
