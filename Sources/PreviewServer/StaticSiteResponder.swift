import Foundation
import Hummingbird

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers every request of the preview server: the site's files, and the live-reload
/// endpoints below ``LiveReload/reservedPrefix``.
///
/// Hummingbird's `FileMiddleware` is not used: in 2.28.1 it follows symbolic links out of the
/// served folder, answers `bytes=-N` with the first N+1 bytes instead of the last N, answers
/// a range that starts after the end with a broken 206 instead of 416, refuses every name
/// containing `..` (such as `a..b.jpg`), has no AVIF type, and streams files so that the
/// reload script could not be added to pages.
struct StaticSiteResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// The served folder, with symbolic links resolved, without a trailing `/`.
    let root: String
    /// The reload channel; `nil` serves pages as they are.
    let liveReload: LiveReload?
    /// How long a reload poll waits for a change before answering with the same version.
    let pollTimeout: Duration

    func respond(to request: Request, context: Context) async throws -> Response {
        let rawPath = request.uri.path
        if rawPath.hasPrefix(LiveReload.reservedPrefix) {
            return await reserved(rawPath, request: request)
        }
        guard request.method == .get || request.method == .head else {
            return Self.plain(.methodNotAllowed, "Only GET and HEAD are served.\n", extra: [.allow: "GET, HEAD"])
        }
        let path: SitePath
        do {
            path = try SitePath.parse(rawPath)
        } catch {
            return Self.plain(.badRequest, "Refused path.\n")
        }
        switch locate(path) {
        case .notFound:
            return notFound()
        case .redirect(let location):
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Self.plain(.movedPermanently, "Moved to \(location).\n", extra: [.location: location + query])
        case .file(let handle, let info, let name):
            defer { try? handle.close() }
            return serve(handle, info: info, name: name, request: request)
        }
    }

    // MARK: Finding the file

    private enum Location {
        case notFound
        case redirect(String)
        case file(FileHandle, FileInfo, name: String)
    }

    /// Metadata of an open file.
    struct FileInfo {
        var size: Int
        var modified: timespec
        var inode: UInt64
        var isDirectory: Bool
        var isRegular: Bool
    }

    /// Finds what a path names, inside the served folder only.
    private func locate(_ path: SitePath) -> Location {
        let candidate = ([root] + path.segments).joined(separator: "/")
        guard let (handle, info) = openInside(candidate) else { return .notFound }
        if info.isDirectory {
            try? handle.close()
            guard path.isFolderRequest || path.segments.isEmpty else { return .redirect(path.encoded + "/") }
            guard let (index, indexInfo) = openInside(candidate + "/index.html"), indexInfo.isRegular else {
                return .notFound
            }
            return .file(index, indexInfo, name: "index.html")
        }
        guard info.isRegular, !path.isFolderRequest else {
            try? handle.close()
            return .notFound
        }
        return .file(handle, info, name: path.segments.last ?? "index.html")
    }

    /// Opens a path after resolving its symbolic links, if the result is inside the served
    /// folder and is a regular file or a folder.
    private func openInside(_ path: String) -> (FileHandle, FileInfo)? {
        guard let resolved = realpath(path, nil) else { return nil }
        let real = String(cString: resolved)
        free(resolved)
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        // O_NONBLOCK: opening a FIFO must not hang the request; it is refused below.
        let fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            return nil
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else {
            close(fd)
            return nil
        }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        let info = FileInfo(
            size: Int(status.st_size), modified: modified, inode: UInt64(status.st_ino),
            isDirectory: type == S_IFDIR, isRegular: type == S_IFREG)
        return (FileHandle(fileDescriptor: fd, closeOnDealloc: true), info)
    }

    // MARK: Sending the file

    private func serve(_ handle: FileHandle, info: FileInfo, name: String, request: Request) -> Response {
        let type = MediaTypes.type(forFileName: name)
        var headers: HTTPFields = [
            .contentType: type,
            .acceptRanges: "bytes",
            .init("X-Content-Type-Options")!: "nosniff",
        ]
        // A page gets the reload script: its bytes depend on the reload version, so it is
        // never cached and has no validators.
        var page: Data?
        if let liveReload, MediaTypes.isHTML(type) {
            guard let data = try? handle.readToEnd() ?? Data() else { return Self.plain(.notFound, "Not found.\n") }
            page = liveReload.inject(into: data)
            headers[.cacheControl] = "no-store"
        } else {
            let etag = "\"\(String(info.size, radix: 16))-\(String(info.modified.tv_sec, radix: 16))-\(String(info.modified.tv_nsec, radix: 16))-\(String(info.inode, radix: 16))\""
            headers[.eTag] = etag
            headers[.lastModified] = HTTPDate.format(seconds: Int(info.modified.tv_sec))
            headers[.cacheControl] = "no-cache"
            if let ifNoneMatch = request.headers[.ifNoneMatch] {
                let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if tags.contains("*") || tags.contains(etag) || tags.contains("W/" + etag) {
                    return Response(status: .notModified, headers: headers)
                }
            }
        }
        let size = page?.count ?? info.size

        var range = ByteRange(header: request.headers[.range], size: size)
        if let ifRange = request.headers[.ifRange], ifRange != headers[.eTag], ifRange != headers[.lastModified] {
            range = .whole  // the client's copy is outdated: send everything
        }
        let status: HTTPResponse.Status
        let bytes: ClosedRange<Int>?
        switch range {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            headers[.contentType] = nil
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers, body: ResponseBody())
        case .partial(let partial):
            status = .partialContent
            bytes = partial
            headers[.contentRange] = "bytes \(partial.lowerBound)-\(partial.upperBound)/\(size)"
        case .whole:
            status = .ok
            bytes = size > 0 ? 0...(size - 1) : nil
        }
        headers[.contentLength] = String(bytes?.count ?? 0)
        guard request.method == .get, let bytes else {
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        let data: Data
        if let page {
            data = page.subdata(in: bytes.lowerBound..<(bytes.upperBound + 1))
        } else {
            do {
                try handle.seek(toOffset: UInt64(bytes.lowerBound))
                data = try handle.read(upToCount: bytes.count) ?? Data()
            } catch {
                return Self.plain(.internalServerError, "Cannot read the file.\n")
            }
            // The file shrank since it was opened (it cannot: it is read through the same
            // descriptor, and builds replace files by renaming), but never send a wrong length.
            guard data.count == bytes.count else { return Self.plain(.internalServerError, "The file changed while it was read.\n") }
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Reserved paths

    private func reserved(_ rawPath: String, request: Request) async -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.plain(.methodNotAllowed, "Only GET and HEAD are served.\n", extra: [.allow: "GET, HEAD"])
        }
        guard let liveReload else { return Self.plain(.notFound, "Not found.\n") }
        switch rawPath {
        case LiveReload.scriptPath:
            let body = ByteBuffer(string: LiveReload.script)
            return Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-store"],
                body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: body))
        case LiveReload.pollPath:
            let known = request.uri.queryParameters["version"].map(String.init)
            let version = await liveReload.nextVersion(after: known, timeout: pollTimeout)
            let closing = liveReload.isClosed ? #","closing":true"# : ""
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"version":"\#(version)"\#(closing)}"#)))
        default:
            return Self.plain(.notFound, "Not found.\n")
        }
    }

    /// A missing file: with live reload, a small page that carries the reload script, so a
    /// page that a rebuild is about to make (a photo just added) shows up by itself.
    private func notFound() -> Response {
        guard let liveReload else { return Self.plain(.notFound, "Not found.\n") }
        let page = liveReload.inject(into: Data("""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
            <body><p>Not found. This page reloads by itself when the site is rebuilt.</p></body></html>

            """.utf8))
        let headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        return Response(status: .notFound, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: page)))
    }

    /// A short plain-text answer.
    private static func plain(_ status: HTTPResponse.Status, _ text: String, extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Dates in the format of HTTP headers (`Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
