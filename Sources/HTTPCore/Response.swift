import Support

/// An answer of the server, before it is written to the connection.
public struct Response {
    /// What follows the head.
    public enum Body {
        /// Nothing (`HEAD`, 304, 416, or an empty file).
        case none
        /// Bytes in memory (short messages, small scripts).
        case bytes([UInt8])
        /// `count` bytes of an open file from `offset`, read and sent in chunks.
        case file(Descriptor, offset: Int, count: Int)
        /// `count` bytes from `offset` of an open file with `insert` put in at the file's
        /// offset `at` (a page with a script added): offsets count the inserted bytes, and
        /// the file is read and sent in chunks.
        case spliced(Descriptor, insert: [UInt8], at: Int, offset: Int, count: Int)
    }

    /// The status code.
    public var status: Int
    /// Header fields in order; `Content-Length` is always among them.
    public var headers: [(name: String, value: String)]
    /// What follows the head.
    public var body: Body

    /// An answer with these parts.
    public init(status: Int, headers: [(name: String, value: String)], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The reason phrase of the status line.
    public var reason: String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 416: "Range Not Satisfiable"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }

    /// The value of the first header field named `name` (case-insensitive).
    public subscript(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The status line and header fields, with `Connection: close` when the connection ends
    /// after this answer.
    func head(closing: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if closing { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The answer past the connection limit: come back in a second.
    static var busy: Response { .plain(503, "The server is busy; try again in a second.\n", extra: [("Retry-After", "1")]) }

    /// The head and, when the body is in memory, the body.
    func bytes(closing: Bool) -> [UInt8] {
        guard case .bytes(let body) = body else { return head(closing: closing) }
        return head(closing: closing) + body
    }

    /// A short plain-text answer.
    public static func plain(_ status: Int, _ text: String, extra: [(name: String, value: String)] = []) -> Response {
        let body = Array(text.utf8)
        return Response(
            status: status,
            headers: extra + [
                ("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
                ("Content-Length", String(body.count)),
            ],
            body: .bytes(body))
    }
}
