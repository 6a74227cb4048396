import Catalog
/// Carries out the part of the image plan that comes before any file is written: links the
/// files that moves take under temporary names (so that any permutation of names, a swap or a
/// rotation, ends like a clean build), then tells the catalog which files this build may write
/// and which records it replaces: an interrupted build leaves a catalog that makes those again
/// rather than trust them. Its time is the image step's (the files it links are the images').
struct StagingStage {
    static let name = "staging"

    var writer: SiteWriter
    var catalog: Catalog

    /// Stages `plan`'s moves (``ImagePlanStage/Output/toStage``) into its `staged`; a move whose
    /// file cannot be linked becomes a make (the photo's images, or its video's web version,
    /// are made). Then prepares the catalog, and lets go of the plan's lists for it (a first
    /// build's every file).
    func run(plan: inout ImagePlanStage.Output) throws(SiteError) {
        for (index, files) in plan.toStage {
            if case .planned(let hash, .move) = plan.photos[index] {
                for file in files where plan.staged[file] == nil {
                    let temporary = try writer.temporaryPath()
                    guard writer.stage(file, at: temporary) else {
                        plan.photos[index] = .planned(hash: hash, decision: .make)
                        break
                    }
                    plan.staged[file] = temporary
                }
            }
            if case .take(let from)? = plan.videos[index]?.decision {
                let temporary = try writer.temporaryPath()
                plan.videos[index]?.decision = writer.stage(from, at: temporary) ? .move(staged: temporary) : .make
            }
        }
        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.prepare(addingFiles: plan.adding, forgettingPhotos: plan.forgetting) }
        (plan.adding, plan.forgetting) = ([], [])
    }
}
