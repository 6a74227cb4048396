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
/// earlier index is not all there; otherwise it is kept as it is.
struct SearchStage {
    static let name = "search index"

    /// The search folder, site-relative.
    var folder: String
    var writer: SiteWriter
    var catalog: Catalog

    /// Returns the index's files (site-relative), and whether it was made (not the earlier one
    /// kept). `earlierFiles` are the files the catalog lists (those of the search folder are the
    /// earlier index); `pagesChanged`, whether any page's key changed; `makeIndex`, the index's
    /// files (``SearchIndexBuilder/files(albums:)``, paths in the search folder; asked only when
    /// the index is made).
    func run(earlierFiles: [String], pagesChanged: Bool,
             makeIndex: () throws(SiteError) -> [(path: String, bytes: [UInt8])]) throws(SiteError) -> (files: Set<String>, made: Bool) {
        let prefix = folder + "/"
        let earlier = Set(earlierFiles.filter { $0.hasPrefix(prefix) })
        // (A file changed since the build that made it does not exist for the writer: made again.)
        let whole = earlier.contains(prefix + SearchIndexBuilder.entryFile) && earlier.allSatisfy(writer.exists)
        if whole && !pagesChanged { return (earlier, false) }

        let files = try makeIndex().map { (path: prefix + $0.path, bytes: $0.bytes) }
        // Listed before they are in place: a build stopped now leaves only files known to be the tool's.
        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.prepare(addingFiles: files.map(\.path), forgettingPhotos: [String]()) }
        // (The builder gives the entry file last.)
        for file in files {
            try writer.writeIfChanged(Data(file.bytes), to: file.path)
        }
        return (Set(files.map(\.path)), true)
    }
}
