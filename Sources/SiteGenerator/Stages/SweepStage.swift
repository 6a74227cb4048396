/// The last stage: deletes what an earlier build made and this one did not (only files the
/// catalog lists, never the user's own), the legacy manifest and the build's temporary folder,
/// syncs the file system once, and only then records the build in the catalog, in one
/// transaction: whatever the catalog says is on disk.
struct SweepStage {
    static let name = "clean-up and catalog"

    var writer: SiteWriter
    var catalog: Catalog

    /// Returns how many stale files were deleted.
    func run(
        made: MadeFiles, refused: Set<String>, published: [PublishedPhoto?], changedRecords: [(String, BuildManifest.PhotoRecord)],
        pageKeys: [String: String], pending: CatalogState, legacyManifest: Bool,
        progress: @Sendable (BuildEvent) -> Void
    ) throws(SiteError) -> Int {
        // A file this build was refused (the user's own) is never the tool's.
        let made = refused.isEmpty ? made : made.subtracting(refused)
        var removed = 0
        let stale = pending.files.filter { !made.contains($0) }
        for path in stale.sorted() where writer.removeMadeFile(path) {
            removed += 1
            progress(.removed(path: path))
        }
        if legacyManifest { _ = writer.removeMadeFile(BuildManifest.legacyFileName) }
        writer.removeTemporaryFiles()
        // Everything written is on disk before the catalog says so.
        writer.syncFileSystem()
        let photoPaths = Set(published.lazy.compactMap { $0?.photo.relativePath })
        try catalog.save(files: made, removedFiles: stale, pages: pageKeys, photoPaths: photoPaths, changedPhotos: changedRecords, replacing: pending)
        return removed
    }
}
