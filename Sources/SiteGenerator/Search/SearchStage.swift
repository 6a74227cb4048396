import Catalog
import Foundation

/// With search on, writes Cascade's search index (``SearchIndexBuilder``) into the site's
/// search folder (``SitePlan/searchFolder``). Its files are listed in the catalog as the tool's
/// before any is written (a build stopped midway leaves only files known to be the tool's);
/// each is written only when its bytes differ from the file there (a rebuild that changes
/// nothing leaves the files and their times alone), the entry file `index.gz` last, so that
/// until then the site's search uses the earlier index. The earlier index's files the new one
/// lacks are deleted by the clean-up, as any stale file.
///
/// The index is made again only when the pages changed (a page's key, in the catalog, is new,
/// another or gone: every field the index holds of a photo is on its page or its album's) or the
/// earlier index is not all there; otherwise it is kept as it is. Made again, it is updated in
/// place when the albums the catalog recorded for it allow (``SearchIndexUpdate``); those are
/// forgotten before the first file is written and recorded once the last is.
struct SearchStage {
    static let name = "search index"

    /// The index to write: its files (paths in the search folder, the entry file last), the
    /// earlier index's files it keeps as they are, and its albums for the catalog (nil when
    /// they cannot be said).
    struct Index {
        var files: [(path: String, bytes: [UInt8])]
        var kept: [String] = []
        var albums: [SearchIndexAlbum]?
    }

    /// The earlier index, for ``SearchIndexUpdate``: the albums the catalog recorded for it, and
    /// its files (paths in the search folder).
    struct Earlier {
        var albums: [SearchIndexAlbum]
        var files: Set<String>
    }

    /// The search folder, site-relative.
    var folder: String
    var writer: SiteWriter
    var catalog: Catalog

    /// Returns the index's files (site-relative), and whether it was made (not the earlier one
    /// kept). `earlierFiles` are the files the catalog lists (those of the search folder are the
    /// earlier index); `pagesChanged`, whether any page's key changed; `makeIndex`, the index
    /// (asked only when it is made), given the earlier one when it is all there and the catalog
    /// recorded its albums.
    func run(earlierFiles: [String], pagesChanged: Bool,
             makeIndex: (Earlier?) throws(SiteError) -> Index) throws(SiteError) -> (files: Set<String>, made: Bool) {
        let prefix = folder + "/"
        let earlier = Set(earlierFiles.filter { $0.hasPrefix(prefix) })
        // (A file changed since the build that made it does not exist for the writer: made again.)
        let whole = earlier.contains(prefix + SearchIndexBuilder.entryFile) && earlier.allSatisfy(writer.exists)
        if whole && !pagesChanged { return (earlier, false) }

        let recorded = whole ? catalog.searchIndexAlbums() : nil
        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.recordSearchIndexAlbums(nil) }
        let index = try makeIndex(recorded.map { Earlier(albums: $0, files: Set(earlier.map { String($0.dropFirst(prefix.count)) })) })
        let files = index.files.map { (path: prefix + $0.path, bytes: $0.bytes) }
        // Listed before they are in place: a build stopped now leaves only files known to be the tool's.
        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.prepare(addingFiles: files.map(\.path), forgettingPhotos: [String]()) }
        // (The builder gives the entry file last.)
        for file in files {
            try writer.writeIfChanged(Data(file.bytes), to: file.path)
        }
        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.recordSearchIndexAlbums(index.albums) }
        return (Set(files.map(\.path)).union(index.kept.map { prefix + $0 }), true)
    }
}
