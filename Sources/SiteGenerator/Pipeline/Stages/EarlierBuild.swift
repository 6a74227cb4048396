import Catalog
import Gallery
import Imaging

/// What earlier builds of the output folder made, as this build goes by it: the catalog's
/// records (for a site an earlier release built, with the JSON manifest it left in the output
/// folder imported into the catalog once); and without either, what the output folder's own
/// pages show (``RecoveredFiles``).
struct EarlierBuild: Sendable {
    /// What the catalog holds now.
    private(set) var stored: BuildManifest
    /// The files an earlier build made, by the catalog.
    private(set) var owned: Set<String>
    /// What the shards of a sharded build recorded of the photos (identity, content hash,
    /// header), by source path: used for photos the catalog does not know as they are now.
    var scanned: [String: ScannedPhoto] = [:]
    /// The XMP sidecars' fields the catalog keeps (``Catalog/sidecars()``), by the sidecar's
    /// path: the scan takes those of files with the same identity.
    var sidecars: [String: ScannedSidecar] = [:]
    /// What the output folder held when the build began.
    let listing: OutputListing
    /// The tool's files that were changed since the build that made them (of `changed`, those
    /// the catalog lists): they are made again.
    let damaged: Set<String>
    /// Without a catalog or a manifest: the files the site itself shows to be the tool's
    /// (``RecoveredFiles``), which the build goes by as by a catalog's (they are in `owned`).
    let recovered: [String]

    /// Reads the catalog; when it is empty and an earlier release left its JSON manifest in
    /// `output`, imports the manifest into the catalog first (``Catalog/importLegacyManifest(output:warning:)``).
    /// `likelyPaths` (see ``Catalog/snapshotAndFileSet(fileSet:likelyPaths:)``) spare the catalog
    /// a count of its photos.
    /// `themeAssets` are the theme's assets' names (in its assets folder), for a site rebuilt
    /// without a catalog (``RecoveredFiles``).
    /// `readAhead`, when given, is what the catalog holds, read before the build
    /// (``CatalogReadAhead``): the catalog is not read again.
    init(
        catalog: Catalog, output: String, likelyPaths: (sample: [String], count: Int)? = nil,
        readAhead: (manifest: BuildManifest, files: Set<String>)? = nil, changed: [String] = [], jobs: Int = 1,
        themeAssets: Set<String> = [], warning: (String) -> Void
    ) throws(SiteError) {
        var (stored, storedFiles) = if let readAhead { readAhead } else { try SiteError.fromCatalog { () throws(CatalogError) in try catalog.snapshotAndFileSet(fileSet: true, likelyPaths: likelyPaths) } }
        if stored == BuildManifest(), let manifest = try SiteError.fromCatalog({ () throws(CatalogError) in try catalog.importLegacyManifest(output: output, warning: warning) }) {
            (stored, storedFiles) = (manifest, Set(manifest.files))
        }
        self.stored = stored
        let damaged = Set(changed.filter { storedFiles.contains($0) })
        self.damaged = damaged
        listing = OutputListing(root: output, damaged: damaged)
        if stored == BuildManifest() {
            let found = RecoveredFiles.find(root: output, listing: listing, jobs: jobs, themeAssets: themeAssets)
            recovered = found.sorted()
            owned = found
        } else {
            recovered = []
            owned = storedFiles
        }
    }

    /// The header of the photo at source path `path` whose file is `identity`, when the catalog
    /// or the shards read it from this very file.
    func knownInfo(_ path: String, _ identity: FileIdentity) -> ImageInfo? {
        // A video's record holds its poster's facts: videos go by their probes (a Live Photo's
        // record, whose clip has a path of its own, is the photo's).
        // (Read in place: a record is not copied to read three of its fields.)
        if let box = stored.photos.boxed(path), box.wrappedValue.video.map({ $0.sourcePath != nil }) ?? true,
           box.wrappedValue.matches(identity), box.wrappedValue.probeVersion == ImageProbe.version { return box.wrappedValue.info }
        if let scanned = scanned[path], scanned.matches(identity), scanned.probeVersion == ImageProbe.version { return scanned.info }
        return nil
    }

    /// Takes out the lists of the files earlier builds made (``owned`` and the catalog's), which
    /// only the scan and the plan ask about, to be freed: a large library's largest tables
    /// after its records, not held through the images.
    mutating func takeFileLists() -> (owned: Set<String>, files: [String]) {
        defer { (owned, stored.files) = ([], []) }
        return (owned, stored.files)
    }

    /// Whether a file of the album folder `directory` (site-relative, "" or ending in `/`) or
    /// of its `thumbs/`, `originals/` and `videos/` folders (where a photo's files go) exists
    /// and is not the tool's, and could be a photo's file (its name has a dot): when none
    /// does, no photo of the album needs asking about each of its files (``isForeign(_:)``).
    func hasForeignFile(inAlbum directory: String) -> Bool {
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        for sub in ["", "thumbs", "originals", "videos"] {
            let listed = sub.isEmpty ? folder : folder.isEmpty ? sub : folder + "/" + sub
            let prefix = listed.isEmpty ? "" : listed + "/"
            // Every file of a photo has a dot in its name; sub-albums' folders, `frames/` and
            // `pages/` have none, and could never be in a photo's way.
            // (A listed name is there: only whose it is is asked.)
            for name in listing.names(in: listed) where name.utf8.contains(UInt8(ascii: ".")) {
                if isTheUsers(prefix + name, exists: { true }) { return true }
            }
        }
        return false
    }

    /// Whether the site-relative `path` exists and is not the tool's: such a file is never
    /// written over or deleted.
    func isForeign(_ path: String) -> Bool {
        isTheUsers(path) { listing.kind(of: path) != nil }
    }

    /// Whether `path`, when `exists` says it is there, is not the tool's: the catalog (or the
    /// manifest, or without either the site itself: ``RecoveredFiles``) does not list it.
    private func isTheUsers(_ path: String, exists: () -> Bool) -> Bool {
        !owned.contains(path) && exists()
    }
}
