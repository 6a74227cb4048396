import Foundation
import Gallery
import Video

/// With search on and Pagefind found, makes the search index of the photo pages (Pagefind's
/// bundle) in the site's search folder (``SitePlan/searchFolder``), as the last step before
/// the clean-up. Pagefind reads a view of this build's pages (hard links in the build's
/// temporary folder, at their places in the site): not the output folder itself, where the
/// pages of removed photos stay until the clean-up and the user's own pages may be. It writes
/// its bundle into the build's temporary folder; its files are then listed in the catalog as the tool's and renamed into
/// place (one whose content-addressed name and size are already there is left as it is).
/// The earlier bundle's files the new one lacks are deleted by the clean-up, as any stale file.
///
/// Pagefind indexes the whole site each time, so it runs only when the pages changed (a page's
/// key, in the catalog, is new, another or gone) or the earlier bundle is not all there;
/// otherwise the earlier bundle is kept as it is.
struct SearchStage {
    static let name = "search index"

    var indexer: SearchIndexer
    /// The search folder, site-relative.
    var folder: String
    var writer: SiteWriter
    var catalog: Catalog

    /// Returns the bundle's files (site-relative). `earlierFiles` are the files the catalog
    /// lists (those of the search folder are the earlier bundle); `pagesChanged`, whether any
    /// page's key changed; `pages`, the site-relative paths of this build's pages.
    func run(earlierFiles: [String], pagesChanged: Bool, pages: Set<String>,
             progress: @Sendable (BuildEvent) -> Void) throws(SiteError) -> Set<String> {
        let prefix = folder + "/"
        let earlier = Set(earlierFiles.filter { $0.hasPrefix(prefix) })
        // (The entry file is written last of the bundle's: a bundle without it is not whole.)
        let whole = earlier.contains(prefix + "pagefind-entry.json") && earlier.allSatisfy(writer.exists)
        if whole && !pagesChanged { return earlier }

        let view = try writer.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: view) }
        try linkPages(pages.filter { $0.hasSuffix(".html") }, into: view)
        // (Pagefind makes the folder.)
        let made = try writer.temporaryPath()
        let arguments = Array(indexer.command.dropFirst()) + ["--site", view, "--output-path", made, "--silent"]
        let failure: String?
        do {
            // (An hour: Pagefind indexes 100,000 photo pages in well under a minute.)
            let output = try ProcessRunner.run(indexer.command[0], arguments, timeout: 3600)
            if output.timedOut {
                failure = "it took longer than an hour"
            } else if output.status != 0 {
                failure = "it exited with status \(output.status)" + (output.lastErrorLine.isEmpty ? "" : ": \(output.lastErrorLine)")
            } else {
                failure = nil
            }
        } catch {
            failure = "\(error)"
        }
        var files: [(made: String, path: String)] = []
        if failure == nil, let walk = FileManager.default.enumerator(atPath: made) {
            while let relative = walk.nextObject() as? String {
                let full = made + "/" + relative
                if FileStatus(path: full)?.kind == .regular { files.append((full, prefix + relative)) }
            }
        }
        guard failure == nil, files.contains(where: { $0.path == prefix + "pagefind-entry.json" }) else {
            try? FileManager.default.removeItem(atPath: made)
            progress(.warning("the search index was not made: Pagefind (\(indexer.command.joined(separator: " "))) failed: \(failure ?? "it wrote no pagefind-entry.json")"
                + (whole ? "; the earlier index is kept" : "")))
            return whole ? earlier : []
        }
        // Listed before they are in place: a build stopped now leaves only files known to be the tool's.
        try catalog.prepare(addingFiles: files.map(\.path), forgettingPhotos: [String]())
        // The entry file last: until it is replaced, the site's search uses the earlier bundle,
        // whose content-addressed files are still there.
        for file in files.sorted(by: { ($0.path == prefix + "pagefind-entry.json" ? 1 : 0, $0.path) < ($1.path == prefix + "pagefind-entry.json" ? 1 : 0, $1.path) }) {
            // (A file already there as it is keeps its time: a copy to a web host skips it.)
            if earlier.contains(file.path), let size = FileStatus(path: file.made)?.size, writer.fileSize(file.path) == size,
               Self.isContentAddressed(file.path) || FileManager.default.contentsEqual(atPath: file.made, andPath: writer.root + "/" + file.path) {
                continue
            }
            try writer.move(file.made, to: file.path)
        }
        try? FileManager.default.removeItem(atPath: made)
        return Set(files.map(\.path))
    }

    /// The pages `pages` (site-relative) linked into the folder `view` at the same paths: hard
    /// links (the temporary folder is inside the output folder), else copies.
    func linkPages(_ pages: [String], into view: String) throws(SiteError) {
        var folders: Set<String> = []
        for page in pages.sorted() {
            let target = view + "/" + page
            let folder = (target as NSString).deletingLastPathComponent
            do {
                if folders.insert(folder).inserted {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                }
                if link(writer.root + "/" + page, target) != 0 {
                    try FileManager.default.copyItem(atPath: writer.root + "/" + page, toPath: target)
                }
            } catch {
                throw .write(path: target, reason: error.localizedDescription)
            }
        }
    }

    /// Whether Pagefind names the file by a hash of its content (its index chunks, fragments,
    /// filters and metadata: `fragment/en_8340643.pf_fragment`, `pagefind.en_cc19477eb7.pf_meta`),
    /// so that a file of that name and size already in place is the same file.
    static func isContentAddressed(_ path: String) -> Bool {
        path.hasSuffix(".pf_fragment") || path.hasSuffix(".pf_index") || path.hasSuffix(".pf_filter") || path.hasSuffix(".pf_meta")
    }
}
