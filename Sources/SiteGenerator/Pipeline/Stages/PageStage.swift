import Foundation
import Gallery
import Support

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
        /// How `keys` differs from the earlier build's (``run(previousKeys:)``): the pages whose
        /// fingerprint is new or another (in the order they were set: a later one for the same
        /// page counts), and the pages no longer made.
        var changedKeys: [(String, String)] = []
        var removedKeys: [String] = []
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
        // The earlier keys, as those of the pages carried over keep them: the others are set
        // (``KeyChanges/set(_:_:in:)``), and the pages no longer made removed at the end.
        output.keys = previousKeys
        var keyChanges = KeyChanges()
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
                Self.carryOver(files, into: &output, keys: &keyChanges)
                keyChanges.set(keyPath, key, in: &output)
                continue
            }
            let writtenBefore = output.written
            var framesWritten = false
            for file in try renderer.albumFiles(album: album, unchanged: unchanged) {
                if try record(file.path, key: file.key, contents: file.contents, in: &output, keys: &keyChanges), !file.path.hasSuffix(".html") {
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
                keyChanges.set(page.path, page.key, in: &output)
                output.pages += 1
                if page.wrote { output.written += 1 }
            }
            keyChanges.set(keyPath, key, in: &output)
            if unchangedAlbum && (output.written > writtenBefore || framesWritten) {
                fatalError("album \(plan.albums[album].directory)index.html: its input key did not change, yet a file of it did (verifyAlbumKeys)")
            }
        }
        // The tag pages (and the people's and places'), skipped like albums when their inputs
        // are unchanged (their keys worked out on every core); the list of each. A tag that
        // changed makes again only the pages and chunks of frame data whose photos did.
        let earlier = TagWallFilesEarlier(keys: previousKeys, exists: listing.isRegularFile)
        let hasWalls = !renderer.indexes.allSatisfy(\.isEmpty)
        // (The photos on any wall, found once for both.)
        let onWalls = hasWalls ? renderer.photos(onAnyOf: renderer.indexWalls) : []
        let photoValues = hasWalls ? renderer.tagPhotoValues(of: onWalls, jobs: jobs) : []
        let facts = hasWalls ? renderer.wallPhotoFacts(of: onWalls, jobs: jobs) : WallPhotoFacts(isVideo: [], name: [])
        for tags in renderer.indexes where !tags.isEmpty {
            let options = renderer.options
            let walls = parallelMap(Array(tags.tags.indices), jobs: jobs) {
                [renderer] index -> (keys: TagWallKeys, summary: TagWallSummary, unchanged: Bool, files: [String]) in
                let summary = renderer.tagWallSummary(index, of: tags, facts: facts)
                let keys = renderer.tagWallKeys(index, of: tags, siteKey: siteKey, photoValues: photoValues, summary: summary)
                let files = tags.wallFiles(index, tilesPerPage: options.tilesPerPage, framesChunkSize: options.framesChunkSize)
                return (keys, summary, Self.isUnchanged(files, keyPath: tags.directory(index) + "frames.json", key: keys.recorded,
                                                        previousKeys: previousKeys, listing: listing), files)
            }
            var changed: [(entry: Int, keys: TagWallKeys, summary: TagWallSummary)] = []
            var unchangedTags = Set<Int>()
            for (index, wall) in zip(tags.tags.indices, walls) {
                keyChanges.set(tags.directory(index) + "frames.json", wall.keys.recorded, in: &output)
                if wall.unchanged && !renderer.options.verifyAlbumKeys {
                    Self.carryOver(wall.files, into: &output, keys: &keyChanges)
                } else {
                    changed.append((index, wall.keys, wall.summary))
                    if wall.unchanged { unchangedTags.insert(index) }
                }
            }
            for file in try renderer.tagWallFiles(changed, of: tags, earlier: earlier, unchanged: unchanged) {
                let wrote = try record(file.path, key: file.key, contents: file.contents, in: &output, keys: &keyChanges)
                // (A file whose key, or whose wall's, says it is as it was is made only with verifyAlbumKeys.)
                guard wrote else { continue }
                let wallUnchanged = tags.tags.indices.first { file.path.hasPrefix(tags.directory($0)) }.map(unchangedTags.contains) ?? false
                if file.keptByKey || wallUnchanged {
                    fatalError("tag page \(file.path): its input key did not change, yet it did (verifyAlbumKeys)")
                }
            }
            let list = try renderer.tagListFile(tags, countLabels: walls.map(\.summary.countLabel), unchanged: unchanged)
            _ = try record(list.path, key: list.key, contents: list.contents, in: &output, keys: &keyChanges)
        }
        // (In a folder none of whose theme files is the user's: ``SitePlan/assetsFolder``.)
        for (path, data) in renderer.theme.assets {
            try writer.writeIfChanged(data, to: plan.assetsFolder + "/" + path)
            output.files.insert(plan.assetsFolder + "/" + path)
        }
        keyChanges.removeStale(from: &output, previousKeys: previousKeys)
        return output
    }

    /// What this build did to the page keys it started from (the earlier build's): which it
    /// set, and how many of the earlier ones it kept or set again. When that is all of them,
    /// no page of the earlier build is gone, and its keys need not be asked about.
    private struct KeyChanges {
        /// The keys set (not carried over), each once.
        var set = Set<String>()
        /// Earlier keys carried over or set again.
        var confirmed = 0

        /// Sets the key of the page (or wall) at `path`, noting a change.
        mutating func set(_ path: String, _ key: String, in output: inout Output) {
            let before = output.keys.updateValue(key, forKey: path)
            // (Set twice, the value it replaces the second time is this build's: the earlier
            // one was counted the first time.)
            if self.set.insert(path).inserted, before != nil { confirmed += 1 }
            if before != key { output.changedKeys.append((path, key)) }
        }

        /// Removes from `output`'s keys the earlier pages this build did not make (a page that
        /// is in `output.files` was carried over).
        func removeStale(from output: inout Output, previousKeys: [String: String]) {
            defer { assert(Self.agreesWithAFullComparison(output, previousKeys: previousKeys, set: set)) }
            guard confirmed != previousKeys.count else { return }
            let files = output.files
            let set = self.set
            output.removedKeys = previousKeys.keys.filter { !set.contains($0) && !files.contains($0) }
            for path in output.removedKeys { output.keys[path] = nil }
        }

        /// Whether `output`'s keys are the ones set and those of the pages carried over, and its
        /// changes what comparing them with `previousKeys` gives (checked in debug builds).
        static func agreesWithAFullComparison(_ output: Output, previousKeys: [String: String], set: Set<String>) -> Bool {
            let carried = output.keys.keys.filter { !set.contains($0) }
            guard carried.allSatisfy({ $0.hasSuffix(".html") && output.files.contains($0) && previousKeys[$0] == output.keys[$0] }) else { return false }
            let changed = Dictionary(output.changedKeys, uniquingKeysWith: { $1 }).filter { previousKeys[$0.key] != $0.value }
            return changed == output.keys.filter { previousKeys[$0.key] != $0.value }
                && Set(output.removedKeys) == Set(previousKeys.keys.filter { output.keys[$0] == nil })
        }
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

    /// The files and page keys of an unchanged wall, carried over from the earlier build (every
    /// page of it has its key there: ``isUnchanged(_:keyPath:key:previousKeys:listing:)``).
    private static func carryOver(_ files: [String], into output: inout Output, keys: inout KeyChanges) {
        for path in files {
            output.files.insert(path)
            if path.hasSuffix(".html") {
                keys.confirmed += 1
                output.pages += 1
            }
        }
    }

    /// Writes one of an album's files unless its bytes are the same; returns whether it wrote.
    private func record(
        _ path: String, key: String?, contents: String?, in output: inout Output, keys: inout KeyChanges
    ) throws(SiteError) -> Bool {
        var wrote = false
        if let contents { wrote = try writer.writeIfChanged(SiteBuilder.pageData(contents), to: path) }
        output.files.insert(path)
        if let key { keys.set(path, key, in: &output) }
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
