import Catalog
import Gallery
import Support

/// The last stage: deletes what an earlier build made and this one did not (only files the
/// catalog lists, never the user's own) and the build's temporary folder,
/// syncs the file system once, and only then records the build in the catalog, in one
/// transaction: whatever the catalog says is on disk.
struct SweepStage {
    static let name = "clean-up and catalog"

    var writer: SiteWriter
    var catalog: Catalog
    var jobs: Int

    /// Deletes the stale files and saves `record`, completed with them and with the published
    /// photos' paths (`refused`: files this build was refused, the user's own, never the tool's;
    /// `pending`: what the catalog holds). Returns how many stale files were deleted, and what
    /// `whileSaving` returned: it runs on another core while the file system is synced and the
    /// catalog saved, once the output folder is as the build leaves it.
    func run<Value: Sendable>(
        record: BuildRecord, refused: Set<String>, pending: CatalogState,
        progress: @Sendable (BuildEvent) -> Void, whileSaving: @Sendable () -> Value
    ) throws(SiteError) -> (removed: Int, value: Value) {
        var record = record
        // A file this build was refused (the user's own) is never the tool's.
        if !refused.isEmpty { record.files = record.files.subtracting(refused) }
        let made = record.files
        var removed = 0
        // The stale files (asked of a large library's every file) on every core.
        let stale = Array(parallelMap(indexRuns(pending.files.count, length: 16_384), jobs: jobs) { run in
            pending.files[run].filter { !made.contains($0) }
        }.joined())
        record.removedFiles = stale
        for path in stale.sorted() {
            // A page the tool made carries its mark: one without it was put there since (the
            // user's page at a removed photo's address) and stays. The catalog forgets it.
            // (Asked of the file itself: the writer takes a file changed since the last build
            // for gone, to be made again.)
            if path.hasSuffix(".html"), FileStatus(path: writer.root + "/" + path)?.kind == .regular,
               !RecoveredFiles.isCascadePage(writer.root + "/" + path) {
                progress(.warning("\(path) in the output folder is not Cascade's page (it has no generator mark) and stays as it is"))
                continue
            }
            guard writer.removeMadeFile(path) else { continue }
            removed += 1
            progress(.removed(path: path))
        }
        writer.removeTemporaryFiles()
        // Everything written is on disk before the catalog says so.
        let (saved, value) = parallel({ [writer, catalog, record] () -> Result<Void, SiteError> in
            writer.syncFileSystem()
            return Result { () throws(SiteError) in try SiteError.fromCatalog { () throws(CatalogError) in try catalog.save(record, replacing: pending) } }
        }, whileSaving)
        try saved.get()
        return (removed, value)
    }
}
