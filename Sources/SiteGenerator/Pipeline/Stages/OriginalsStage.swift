import Foundation
import Gallery
import Imaging

/// With `download_originals`, copies each published photo's original file to
/// `<album>/originals/<slug>.<ext>`, except originals that carry a GPS position while positions
/// are stripped. An original is copied again unless the photo kept its images at the same name.
struct OriginalsStage {
    static let name = "originals"

    var options: SiteOptions
    var writer: SiteWriter

    /// Sets the `original` of every photo of `published` whose original is published, and
    /// returns the files of the originals.
    func run(
        plan: SitePlan, published: inout [PublishedPhoto?], kept: Set<String>, progress: @Sendable (BuildEvent) -> Void
    ) throws(SiteError) -> Set<String> {
        guard options.downloadOriginals else { return [] }
        var files = Set<String>()
        var withheld = 0
        for album in plan.reachableAlbums {
            for index in plan.albums[album].photos {
                guard let photo = published[index]?.photo else { continue }
                if !options.publishesOriginal(hasGPS: photo.info.metadata.hasGPS) {
                    withheld += 1
                    continue
                }
                let path = plan.originalPath(photo: index)
                if !kept.contains(photo.relativePath) || writer.fileSize(path) != photo.fileSize {
                    // Opened as the scan found it (a swap of the file or its folder to a
                    // link is refused) and copied a block at a time: a video may be far
                    // larger than memory.
                    let file: SourceFile
                    do throws(SourceFileError) {
                        file = try SourceFile.open(photo.sourcePath, scanned: photo.scannedFile)
                    } catch {
                        progress(.warning("\(photo.relativePath): its original is not offered for download: \(error)"))
                        continue
                    }
                    try writer.copy(file, to: path)
                }
                files.insert(path)
                published[index]?.original = PublishedOriginal(path: path, size: photo.fileSize)
            }
        }
        if withheld > 0 {
            progress(.warning("\(withheld) original\(withheld == 1 ? "" : "s") with a GPS position \(withheld == 1 ? "is" : "are") not offered for download while GPS positions are stripped (strip_gps: false or --keep-gps publishes them)"))
        }
        return files
    }
}
