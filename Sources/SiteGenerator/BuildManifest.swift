import Foundation
import Imaging

/// What a build made, and from what: kept in the output folder as `.cascade-manifest.json`.
///
/// A rebuild reuses a photo's images when the photo is unchanged (same size and modification
/// time, or else the same content hash), the image settings are the same and the images are
/// still there; it deletes the files an earlier build made that this build no longer makes.
/// Files that are not in the manifest (the user's own) are never deleted.
struct BuildManifest: Codable, Sendable, Equatable {
    static let fileName = ".cascade-manifest.json"
    static let currentVersion = 2

    /// What one photo's images were made from, and what they are.
    struct PhotoRecord: Codable, Sendable, Equatable {
        var size: Int
        var modificationTime: Double
        /// FNV-1a 64 of the file's bytes, in hex.
        var contentHash: String
        /// The image settings the images in the main format were made with (see
        /// `SiteOptions.imageSettingsKey(for:)`).
        var settings: String
        /// Display size of the photo (after orientation) and its average colour.
        var width: Int
        var height: Int
        var color: String
        /// The images in the site's main format (`<img>`), by ascending width.
        var renditions: [RenditionRecord]
        /// The same images in the further formats offered through `<picture>`, best first;
        /// nil (as in manifests of single-format builds) when there are none.
        var sources: [SourceRecord]?
        /// What the photo's header said: a rebuild does not read it again while the file's size
        /// and time are the same, and `probeVersion` is the current `ImageProbe.version`.
        var info: ImageInfo?
        /// The `ImageProbe.version` that read `info`.
        var probeVersion: Int?

        /// Per image settings (one per format), the files made with them, by ascending width.
        var filesBySettings: [String: [String]] {
            var files = [settings: renditions.map(\.path)]
            for source in sources ?? [] where source.paths.count == renditions.count { files[source.settings] = source.paths }
            return files
        }

        /// Every image file of the photo, in every format.
        var allPaths: [String] { filesBySettings.values.flatMap { $0 } }
    }

    struct RenditionRecord: Codable, Sendable, Equatable {
        var width: Int
        var height: Int
        /// Site-relative path.
        var path: String
    }

    /// A photo's images in one further format.
    struct SourceRecord: Codable, Sendable, Equatable {
        /// The format's MIME type, for `<source type=…>`.
        var type: String
        /// The image settings these images were made with, as ``PhotoRecord/settings``.
        var settings: String
        /// Site-relative paths, one per rendition (same widths, same order).
        var paths: [String]
    }

    var version = Self.currentVersion
    /// Every file of the site this tool made, site-relative, sorted.
    var files: [String] = []
    /// By the photo's path relative to the source folder.
    var photos: [String: PhotoRecord] = [:]
    /// Photo pages by site-relative path: the fingerprint of what each was made from.
    var pages: [String: String] = [:]

    /// The manifest in `outputDirectory`, or an empty one when there is none. A manifest that
    /// cannot be read is reported through `warning` and treated as empty: then nothing is
    /// reused, and nothing is deleted, since only listed files ever are.
    static func load(outputDirectory: String, warning: (String) -> Void) -> BuildManifest {
        let path = (outputDirectory as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else { return BuildManifest() }
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(ManifestSyntaxError) {
                let parts = try Self.parts(of: bytes)
                // The version first: another version's manifest is not an error, just not usable.
                if let version = parts.version, version != currentVersion {
                    warning("\(path) was written by another version of Cascade; every image and page is made anew")
                    // The files an earlier build made are still the tool's.
                    return BuildManifest(files: parts.files.flatMap { try? Self.files(bytes, $0) } ?? [])
                }
                return try BuildManifest(bytes: bytes, parts: parts)
            } catch {
                warning("\(path) cannot be read (\(error)); every image is made anew, nothing is deleted")
                return BuildManifest()
            }
        }
    }

    /// The manifest as written to disk: JSON, keys sorted (see ``jsonBytes()``).
    func encoded() -> Data {
        Data(jsonBytes())
    }
}
