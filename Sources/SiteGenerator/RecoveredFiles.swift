import Foundation
import Synchronization

/// Which files of an output folder an earlier build made, when there is no catalog to say so
/// (it was deleted with the cache, or damaged): pages that carry the theme's
/// `<meta name="generator" content="Cascade">`, and the images, frame data, further pages and
/// assets in the folders of such album pages. Without it a lost catalog would leave every file
/// of the site looking like the user's own. A user's own page in the site's folders (say
/// `about.html`) does not carry the mark, so it is still never written over.
final class RecoveredFiles: Sendable {
    private let root: String
    /// Album folders (site-relative) whose `index.html` was checked, and the answer.
    private let albums = Mutex([String: Bool]())

    init(root: String) {
        self.root = root
    }

    /// Whether the site-relative `path`, which the build plans to write, is Cascade's.
    func isCascades(_ path: String) -> Bool {
        if path.hasSuffix(".html") { return Self.isCascadePage(root + "/" + path) }
        var folder = (path as NSString).deletingLastPathComponent
        for part in ["thumbs", "frames", "pages", "originals", "assets"] where (folder as NSString).lastPathComponent == part {
            folder = (folder as NSString).deletingLastPathComponent
            break
        }
        let directory = folder.isEmpty ? "" : folder + "/"
        if let known = albums.withLock({ $0[directory] }) { return known }
        let answer = Self.isCascadePage(root + "/" + directory + "index.html")
        albums.withLock { $0[directory] = answer }
        return answer
    }

    /// Whether the file at `path` (absolute) is a page with Cascade's generator mark in its head.
    static func isCascadePage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4096) else { return false }
        return String(decoding: head, as: UTF8.self).contains("<meta name=\"generator\" content=\"Cascade\">")
    }
}
