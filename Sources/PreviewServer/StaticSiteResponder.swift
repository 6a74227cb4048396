import Support
import Foundation
import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers every request of the preview server: the site's files, and the live-reload
/// endpoints below ``LiveReload/reservedPrefix``. The HTTP server under it (`HTTPCore`) reads
/// the requests and sends the answers.
struct StaticSiteResponder: HTTPResponder {
    /// The served folder's files, opened without following links out of it.
    let files: SiteFileOpener
    /// The reload channel; `nil` serves pages as they are.
    let liveReload: LiveReload?
    /// How long a reload poll waits for a change before answering with the same version.
    let pollTimeout: Duration

    /// The answer to `request` (for `HEAD`, the server sends its head only).
    func respond(to request: RequestHead, connection: HTTPConnection) -> Response {
        if request.path.hasPrefix(LiveReload.reservedPrefix) {
            return reserved(request, name: String(request.path.dropFirst(LiveReload.reservedPrefix.count)), connection: connection)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .plain(405, "Only GET and HEAD are served.\n", extra: [("Allow", "GET, HEAD")])
        }
        let path: SitePath
        do {
            path = try SitePath.parse(request.path)
        } catch {
            return .plain(400, "Refused path.\n")
        }
        switch files.open(path.segments) {
        case nil:
            // Only where the site has nothing: an album may be called `__cascade`.
            if request.path.hasPrefix(LiveReload.legacyPrefix) {
                return reserved(request, name: String(request.path.dropFirst(LiveReload.legacyPrefix.count)), connection: connection)
            }
            return notFound()
        case .folder:
            guard path.isFolderRequest || path.segments.isEmpty else {
                let location = path.encoded + "/" + (request.query.map { "?\($0)" } ?? "")
                return .plain(301, "Moved to \(path.encoded)/.\n", extra: [("Location", location)])
            }
            guard case .file(let index, let info) = files.open(path.segments + ["index.html"]) else { return notFound() }
            return serve(index, info: info, name: "index.html", request: request)
        case .file(let file, let info):
            guard !path.isFolderRequest else { return notFound() }
            return serve(file, info: info, name: path.segments.last ?? "index.html", request: request)
        }
    }

    // MARK: Sending a file

    private func serve(_ file: Descriptor, info: stat, name: String, request: RequestHead) -> Response {
        let type = MediaTypes.type(forFileName: name)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type), ("Accept-Ranges", "bytes"), ("X-Content-Type-Options", "nosniff"),
        ]
        let size = Int(info.st_size)
        // A page gets the reload script: its bytes depend on the reload version, so it is
        // never cached and has no validators. It is sent from the file like any other, with
        // the script spliced in on the way (before the last `</body>`, found by reading the
        // file backwards from its end), so a page costs no more memory than a photo.
        var insertion: (at: Int, bytes: [UInt8])?
        var etag: String?
        var lastModified: String?
        if let liveReload, MediaTypes.isHTML(type) {
            guard let at = Self.lastBodyEnd(in: file, size: size) else { return .plain(500, "Cannot read the file.\n") }
            insertion = (at, Array((liveReload.scriptTag() + "\n").utf8))
            headers.append(("Cache-Control", "no-store"))
        } else {
            #if canImport(Darwin)
            let modified = info.st_mtimespec
            #else
            let modified = info.st_mtim
            #endif
            let tag = "\"\(String(size, radix: 16))-\(String(modified.tv_sec, radix: 16))-\(String(modified.tv_nsec, radix: 16))-\(String(UInt64(info.st_ino), radix: 16))\""
            etag = tag
            lastModified = HTTPDate.format(seconds: Int(modified.tv_sec))
            headers += [("ETag", tag), ("Last-Modified", lastModified!), ("Cache-Control", "no-cache")]
            if let ifNoneMatch = request["if-none-match"] {
                let tags = ifNoneMatch.split(separator: ",").map { String($0).trimmingSpaces() }
                if tags.contains("*") || tags.contains(tag) || tags.contains("W/" + tag) {
                    return Response(status: 304, headers: headers, body: .none)
                }
            }
        }
        let length = size + (insertion?.bytes.count ?? 0)

        var range = ByteRange(header: request["range"], size: length)
        if let ifRange = request["if-range"], ifRange != etag, ifRange != lastModified {
            range = .whole  // the client's copy is outdated: send everything
        }
        let status: Int
        let bytes: ClosedRange<Int>?
        switch range {
        case .unsatisfiable:
            headers.removeAll { $0.name == "Content-Type" }
            headers += [("Content-Range", "bytes */\(length)"), ("Content-Length", "0")]
            return Response(status: 416, headers: headers, body: .none)
        case .partial(let partial):
            status = 206
            bytes = partial
            headers.append(("Content-Range", "bytes \(partial.lowerBound)-\(partial.upperBound)/\(length)"))
        case .whole:
            status = 200
            bytes = length > 0 ? 0...(length - 1) : nil
        }
        headers.append(("Content-Length", String(bytes?.count ?? 0)))
        guard let bytes else { return Response(status: status, headers: headers, body: .none) }
        if let insertion {
            return Response(
                status: status, headers: headers,
                body: .spliced(file, insert: insertion.bytes, at: insertion.at, offset: bytes.lowerBound, count: bytes.count))
        }
        return Response(status: status, headers: headers, body: .file(file, offset: bytes.lowerBound, count: bytes.count))
    }

    /// Where the last `</body>` (in any case) of the file starts, or its size when it has none;
    /// `nil` when it cannot be read. The file is read backwards in windows of 64 KB that
    /// overlap by the tag's length less one byte, so a tag across two windows is found too.
    static func lastBodyEnd(in file: Descriptor, size: Int, window: Int = 64 * 1024) -> Int? {
        let tag = Array("</body>".utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(window, tag.count), alignment: 16)
        defer { buffer.deallocate() }
        var end = size
        while end > 0 {
            let start = max(0, end - buffer.count)
            var done = 0
            while done < end - start {
                let count = pread(file.raw, buffer.baseAddress! + done, end - start - done, off_t(start + done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }  // shrank: builds replace files by renaming, never truncate
                done += count
            }
            let bytes = buffer.prefix(end - start)
            var index = bytes.count - tag.count
            while index >= 0 {
                var matches = true
                for offset in 0..<tag.count {
                    let byte = bytes[index + offset]
                    // ASCII lower case: `</BODY>` is valid HTML too.
                    if ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) != tag[offset] {
                        matches = false
                        break
                    }
                }
                if matches { return start + index }
                index -= 1
            }
            if start == 0 { break }
            end = start + tag.count - 1
        }
        return size
    }

    // MARK: Reserved paths

    /// The server is stopping: the held reload polls are answered at once.
    func stop() { liveReload?.close() }

    /// Answers `name` below ``LiveReload/reservedPrefix`` (or the legacy prefix).
    private func reserved(_ request: RequestHead, name: String, connection: HTTPConnection) -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .plain(405, "Only GET and HEAD are served.\n", extra: [("Allow", "GET, HEAD")])
        }
        guard let liveReload else { return .plain(404, "Not found.\n") }
        switch LiveReload.reservedPrefix + name {
        case LiveReload.scriptPath:
            let body = Array(LiveReload.script.utf8)
            return Response(
                status: 200,
                headers: [
                    ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-store"),
                    ("Content-Length", String(body.count)),
                ],
                body: .bytes(body))
        case LiveReload.pollPath:
            let known = request.queryParameter("version")?.removingPercentEncoding
            let version: String
            if known != nil, known == liveReload.version, request.method == "GET" {
                // Held polls are limited: past the limit the script retries a second later.
                guard connection.beginPoll() else {
                    return .plain(503, "Too many reload polls.\n", extra: [("Retry-After", "1")])
                }
                defer { connection.endPoll() }
                version = liveReload.waitForVersion(after: known, timeout: pollTimeout, clientHasGone: connection.clientHasGone)
            } else {
                version = liveReload.version
            }
            let closing = liveReload.isClosed ? #","closing":true"# : ""
            let body = Array(#"{"version":"\#(version)"\#(closing)}"#.utf8)
            return Response(
                status: 200,
                headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Content-Length", String(body.count))],
                body: .bytes(body))
        default:
            return .plain(404, "Not found.\n")
        }
    }

    /// A missing file: with live reload, a small page that carries the reload script, so a
    /// page that a rebuild is about to make (a photo just added) shows up by itself.
    private func notFound() -> Response {
        guard let liveReload else { return .plain(404, "Not found.\n") }
        let page = Array(liveReload.inject(into: Data("""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
            <body><p>Not found. This page reloads by itself when the site is rebuilt.</p></body></html>

            """.utf8)))
        return Response(
            status: 404,
            headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"), ("Content-Length", String(page.count))],
            body: .bytes(page))
    }
}
