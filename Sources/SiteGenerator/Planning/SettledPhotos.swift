import Catalog
import Imaging
import Support

/// The photos of a rebuild that stay exactly as the last complete build left them, found
/// without working out their files: the first part of a rebuild whose work follows what changed.
///
/// An album is settled when its folder's inputs are what the last complete build's were (it is
/// not among the folders changed since, which are known: ``BuildReport/changedFolders``) and its
/// images' folder in the site is as the end of that build left it. That build kept or made every
/// image of the album's photos, at the paths its records list, with this build's settings (a
/// setting, the theme or the program changed would have changed every folder), and none was
/// deleted or changed since. A photo of a settled album is settled when the catalog's record is
/// of this very file (its identity) and lists its first image at the path this build wants (its
/// album's folder in the site and its own name there are as they were: a sibling album new
/// since could have taken the album's name). Videos and Live Photos are never settled (their
/// web versions are decided apart).
///
/// A settled photo's images are kept (``ImagePlanStage``) and its files are not asked about one
/// by one (``ScanStage``): all are the tool's, listed in the catalog. Debug builds (the tests')
/// check each of these against the decision made in full.
struct SettledPhotos: Sendable {
    /// Per photo of the plan, whether it is settled; empty when none is.
    private let flags: [Bool]
    /// How many photos are settled, and in how many albums of how many.
    let count: Int
    let albums: Int
    let ofAlbums: Int

    /// None settled (no build before, or it cannot tell which folders changed).
    static let none = SettledPhotos(flags: [], count: 0, albums: 0, ofAlbums: 0)

    private init(flags: [Bool], count: Int, albums: Int, ofAlbums: Int) {
        (self.flags, self.count, self.albums, self.ofAlbums) = (flags, count, albums, ofAlbums)
    }

    /// The settled photos of `plan`, given the folders changed since the last complete build
    /// (nil when unknown: then none is), the site's folders as that build's end left them
    /// (``OutputStamp/folders``' names), the catalog's records (`previous`) and the format of
    /// the first image of every photo (the build's main format). Worked out on `jobs` cores.
    init(plan: borrowing SitePlan, changedFolders: [String]?, unchangedOutput: Set<String>, previous: PhotoRecords,
         mainFormat: EncodeFormat, jobs: Int) {
        guard let changedFolders else {
            self = .none
            return
        }
        let changed = Set(changedFolders)
        let albums = plan.albums.map { album in
            !changed.contains(album.relativePath) && unchangedOutput.contains(album.directory + "thumbs")
        }
        guard albums.contains(true) else {
            self = SettledPhotos(flags: [], count: 0, albums: 0, ofAlbums: albums.count)
            return
        }
        let plan = copy plan
        let flags = Array(parallelMap(indexRuns(plan.photos.count, length: 4096), jobs: jobs) { run in
            run.map { index in
                let planned = plan.photos[index]
                guard albums[planned.album], planned.photo.video == nil, planned.photo.motion == nil,
                      let record = previous.boxed(planned.photo.relativePath), record.wrappedValue.matches(planned.photo.identity),
                      record.wrappedValue.video == nil, let first = record.wrappedValue.renditions.first
                else { return false }
                return first.path == plan.imagePath(photo: index, width: first.width, format: mainFormat)
            }
        }.joined())
        self.init(flags: flags, count: flags.count { $0 }, albums: albums.count { $0 }, ofAlbums: albums.count)
    }

    /// Whether the photo `index` of the plan is settled.
    subscript(index: Int) -> Bool {
        !flags.isEmpty && flags[index]
    }
}
