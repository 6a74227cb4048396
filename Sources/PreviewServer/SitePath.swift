import Foundation

/// A request path checked and split into the names of the folders and file it asks for.
///
/// The raw path is split at `/` before percent-decoding, and every decoded segment must be a
/// plain name: no `.` or `..`, no `/`, `\` or NUL, valid UTF-8. Empty segments (`//`) are
/// dropped. So no spelling of `..` (`%2e%2e`, `%2E%2e`, `..%2f`, `..%5c`, `..\`) can leave the
/// served folder; symbolic links are checked separately, after resolving them.
struct SitePath: Equatable, Sendable {
    /// The decoded names, outermost first; empty for the root.
    var segments: [String]
    /// Whether the request path ends with `/` (asks for a folder).
    var isFolderRequest: Bool

    /// Why a request path is refused.
    enum Refusal: Error, Equatable {
        /// The path does not start with `/`.
        case notAbsolute
        /// A percent escape is malformed or the decoded bytes are not UTF-8.
        case badEncoding
        /// A segment is `.` or `..`.
        case dotSegment
        /// A segment contains `/` (encoded), `\` or NUL.
        case forbiddenCharacter
    }

    /// Checks and splits a raw (still percent-encoded) request path, without its query.
    static func parse(_ rawPath: String) throws(Refusal) -> SitePath {
        guard rawPath.hasPrefix("/") else { throw .notAbsolute }
        var segments: [String] = []
        for raw in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let name = percentDecoded(raw) else { throw .badEncoding }
            if name == "." || name == ".." { throw .dotSegment }
            if name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) { throw .forbiddenCharacter }
            segments.append(name)
        }
        return SitePath(segments: segments, isFolderRequest: rawPath.hasSuffix("/"))
    }

    /// The path percent-encoded again (for a redirect's `Location`), always starting with `/`.
    var encoded: String {
        "/" + segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? $0 }
            .joined(separator: "/")
    }

    /// Unreserved characters and the sub-delimiters allowed in a path segment (RFC 3986).
    private static let segmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")

    /// Decodes `%XX` escapes; `nil` for a malformed escape or bytes that are not UTF-8.
    private static func percentDecoded(_ raw: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The `Content-Type` of a served file, from its extension (case-insensitive).
enum MediaTypes {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "xml": "application/xml",
        "txt": "text/plain; charset=utf-8",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "webp": "image/webp",
        "avif": "image/avif",
        "png": "image/png",
        "gif": "image/gif",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
    ]

    /// The media type for a file name; `application/octet-stream` when the extension is unknown.
    static func type(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Whether the live-reload script goes into files of this type.
    static func isHTML(_ type: String) -> Bool { type.hasPrefix("text/html") }
}
