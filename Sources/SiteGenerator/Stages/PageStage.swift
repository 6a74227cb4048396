import Foundation
import Gallery

/// Renders and writes every reachable album's pages and frame data, every photo's page, and
/// the theme's assets. An album whose inputs did not change (``PageRenderer/inputKey(album:siteKey:)``)
/// is not rendered at all; in one that did, a page made from the same variables and theme as
/// before (its key in the catalog) is not rendered again, and a page whose bytes did not change
/// is not rewritten.
struct PageStage {
    static let name = "pages"

    struct Output: Sendable {
        /// Every file of the stage (site-relative), written or not.
        var files: Set<String> = []
        /// Each page's fingerprint, for the next build.
        var keys: [String: String] = [:]
        /// HTML pages of the site.
        var pages = 0
        /// HTML pages written.
        var written = 0
    }

    var renderer: PageRenderer
    var writer: SiteWriter
    /// What the output folder held when the build began: no stage before this one writes pages
    /// or frame data, so an unchanged album's files are there exactly when they were then.
    var listing: OutputListing
    var jobs: Int

    func run(previousKeys: [String: String]) throws(SiteError) -> Output {
        let plan = renderer.plan
        let writer = self.writer
        let unchanged: @Sendable (String, String) -> Bool = { path, key in
            previousKeys[path] == key && writer.exists(path)
        }
        var output = Output()
        // About as many as the last build had (not grown by doubling through a large library).
        output.files.reserveCapacity(previousKeys.count)
        output.keys.reserveCapacity(previousKeys.count)
        let siteKey = renderer.siteKey
        // An album whose inputs are what the catalog recorded, with all its files there, is not
        // rendered at all: its files and page keys carry over. Which albums those are is worked
        // out on every core first.
        let albums = plan.reachableAlbums
        let listing = self.listing
        // (The albums' file lists are kept from there: a few megabytes for a large library,
        // made on every core instead of again one album after another below.)
        let checks = parallelMap(albums, jobs: jobs) { [self] album -> (key: String, unchanged: Bool, files: [String]) in
            let key = renderer.inputKey(album: album, siteKey: siteKey)
            let files = albumFiles(album)
            return (key, Self.isUnchanged(files, keyPath: plan.albums[album].directory + "frames.json", key: key,
                                          previousKeys: previousKeys, listing: listing), files)
        }
        for (album, check) in zip(albums, checks) {
            let key = check.key
            let keyPath = plan.albums[album].directory + "frames.json"
            let files = check.files
            let unchangedAlbum = check.unchanged
            if unchangedAlbum && !renderer.options.verifyAlbumKeys {
                Self.carryOver(files, previousKeys: previousKeys, into: &output)
                output.keys[keyPath] = key
                continue
            }
            let writtenBefore = output.written
            var framesWritten = false
            for file in try renderer.albumFiles(album: album, unchanged: unchanged) {
                if try record(file.path, key: file.key, contents: file.contents, in: &output), !file.path.hasSuffix(".html") {
                    framesWritten = true
                }
            }
            // The photos' pages are independent of each other: rendered and written on every core.
            let renderer = self.renderer
            let pages = try parallelMap(Array(plan.albums[album].photos.indices), jobs: jobs) {
                position throws(SiteError) -> (path: String, key: String, wrote: Bool) in
                let page = try renderer.photoPageFile(album: album, position: position, unchanged: unchanged)
                guard let contents = page.contents else { return (page.path, page.key, false) }
                return (page.path, page.key, try writer.writeIfChanged(SiteBuilder.pageData(contents), to: page.path))
            }
            for page in pages {
                output.files.insert(page.path)
                output.keys[page.path] = page.key
                output.pages += 1
                if page.wrote { output.written += 1 }
            }
            output.keys[keyPath] = key
            if unchangedAlbum && (output.written > writtenBefore || framesWritten) {
                fatalError("album \(plan.albums[album].directory)index.html: its input key did not change, yet a file of it did (verifyAlbumKeys)")
            }
        }
        // The tag pages, skipped like albums when their inputs are unchanged; the list of tags.
        if !renderer.tags.isEmpty {
            var changed: [Int] = []
            var keys: [Int: String] = [:]
            for index in renderer.tags.tags.indices {
                let key = renderer.inputKey(tag: index, siteKey: siteKey)
                let keyPath = renderer.tags.directory(index) + "frames.json"
                let files = renderer.tags.wallFiles(index, tilesPerPage: renderer.options.tilesPerPage, framesChunkSize: renderer.options.framesChunkSize)
                let unchangedTag = Self.isUnchanged(files, keyPath: keyPath, key: key, previousKeys: previousKeys, listing: listing)
                output.keys[keyPath] = key
                if unchangedTag && !renderer.options.verifyAlbumKeys {
                    Self.carryOver(files, previousKeys: previousKeys, into: &output)
                } else {
                    changed.append(index)
                    keys[index] = unchangedTag ? key : nil
                }
            }
            for file in try renderer.tagWallFiles(changed, unchanged: unchanged) {
                let wrote = try record(file.path, key: file.key, contents: file.contents, in: &output)
                if wrote, let tag = renderer.tags.tags.indices.first(where: { file.path.hasPrefix(renderer.tags.directory($0)) }), keys[tag] != nil {
                    fatalError("tag page \(file.path): its input key did not change, yet it did (verifyAlbumKeys)")
                }
            }
            let list = try renderer.tagListFile(unchanged: unchanged)
            _ = try record(list.path, key: list.key, contents: list.contents, in: &output)
        }
        for (path, data) in renderer.theme.assets {
            try writer.writeIfChanged(data, to: "assets/" + path)
            output.files.insert("assets/" + path)
        }
        return output
    }

    /// Whether a wall (an album's or a tag's) whose input key is `key` is as the catalog
    /// recorded it (its key at `keyPath`), with every page's key recorded and all its `files`
    /// there: then it is not rendered at all.
    private static func isUnchanged(
        _ files: [String], keyPath: String, key: String, previousKeys: [String: String], listing: OutputListing
    ) -> Bool {
        previousKeys[keyPath] == key && files.allSatisfy { !$0.hasSuffix(".html") || previousKeys[$0] != nil }
            && files.allSatisfy(listing.isRegularFile)
    }

    /// The files and page keys of an unchanged wall, carried over from the earlier build.
    private static func carryOver(_ files: [String], previousKeys: [String: String], into output: inout Output) {
        for path in files {
            output.files.insert(path)
            if path.hasSuffix(".html") {
                output.keys[path] = previousKeys[path]
                output.pages += 1
            }
        }
    }

    /// Writes one of an album's files unless its bytes are the same; returns whether it wrote.
    private func record(_ path: String, key: String?, contents: String?, in output: inout Output) throws(SiteError) -> Bool {
        var wrote = false
        if let contents { wrote = try writer.writeIfChanged(SiteBuilder.pageData(contents), to: path) }
        output.files.insert(path)
        if let key { output.keys[path] = key }
        if path.hasSuffix(".html") {
            output.pages += 1
            if wrote { output.written += 1 }
        }
        return wrote
    }

    /// Every file of the album `index`: its static pages, its frame data and its photos' pages.
    private func albumFiles(_ index: Int) -> [String] {
        let plan = renderer.plan
        let options = renderer.options
        return plan.albumFiles(album: index, tilesPerPage: options.tilesPerPage, framesChunkSize: options.framesChunkSize)
            + plan.albums[index].photos.map { plan.pagePath(photo: $0) }
    }
}
