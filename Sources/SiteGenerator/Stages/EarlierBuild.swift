import Gallery

/// What earlier builds of the output folder made, as this build goes by it: the catalog's
/// records; for a site an earlier release built, the JSON manifest it left in the output folder
/// (read once); and with neither, what the output folder's own pages show (``RecoveredFiles``).
struct EarlierBuild: Sendable {
    /// What the catalog holds now.
    let stored: BuildManifest
    /// What this build goes by: `stored`, or the legacy manifest's records.
    let previous: BuildManifest
    /// Whether `previous` comes from an earlier release's manifest, deleted once this build is done.
    let fromLegacyManifest: Bool
    /// The files an earlier build made, by the catalog or the manifest.
    let owned: Set<String>
    /// What the output folder held when the build began.
    let listing: OutputListing
    private let recovered: RecoveredFiles?

    /// Reads the catalog, or the legacy manifest in `output` when the catalog is empty.
    init(catalog: Catalog, output: String, warning: (String) -> Void) throws(SiteError) {
        stored = try catalog.snapshot()
        var previous = stored
        var legacy = false
        if stored == BuildManifest(), let manifest = BuildManifest.legacy(outputDirectory: output, warning: warning) {
            previous = manifest
            legacy = true
        }
        self.previous = previous
        fromLegacyManifest = legacy
        owned = Set(previous.files)
        recovered = stored == BuildManifest() && !legacy ? RecoveredFiles(root: output) : nil
        listing = OutputListing(root: output)
    }

    /// Whether the site-relative `path` exists and is not the tool's: such a file is never
    /// written over or deleted.
    func isForeign(_ path: String) -> Bool {
        !owned.contains(path) && listing.kind(of: path) != nil && !(recovered?.isCascades(path) ?? false)
    }
}
