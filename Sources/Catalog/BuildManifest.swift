import Foundation
import Imaging
import Video

import Gallery
import Support

/// What a build made, and from what: the contents of the ``Catalog``, in memory.
///
/// A rebuild reuses a photo's images when the photo is unchanged (the same file identity, or
/// else the same content hash), the image settings are the same and the images are still
/// there; it deletes the files an earlier build made that this build no longer makes. Files
/// that are not listed (the user's own) are never deleted or written over.
///
/// Releases before the catalog kept this as JSON in the output folder
/// (`.cascade-manifest.json`); ``legacy(outputDirectory:warning:)`` reads such a file once, so
/// that an upgraded site keeps what is still right.
package struct BuildManifest: Codable, Sendable, Equatable {
    /// The file earlier releases kept in the output folder.
    package static let legacyFileName = ".cascade-manifest.json"
    package static let currentVersion = 2

    /// What one photo's images were made from, and what they are.
    package struct PhotoRecord: Codable, Sendable, Equatable {
        package var size: Int
        package var modificationTime: Double
        /// The file's change time and inode when its images were made (see ``FileIdentity``);
        /// nil in records of earlier releases, whose photos are then read and hashed once.
        package var changeTime: Double?
        package var inode: UInt64?
        /// FNV-1a 64 of the file's bytes, in hex.
        package var contentHash: String
        /// The image settings the images in the main format were made with (see
        /// `SiteOptions.imageSettingsKey(for:)`).
        package var settings: String
        /// Display size of the photo (after orientation) and its average colour.
        package var width: Int
        package var height: Int
        package var color: String
        /// The images in the site's main format (`<img>`), by ascending width.
        package var renditions: [RenditionRecord]
        /// The same images in the further formats offered through `<picture>`, best first;
        /// nil (as in manifests of single-format builds) when there are none.
        package var sources: [SourceRecord]?
        /// What the photo's header said: a rebuild does not read it again while the file's size
        /// and time are the same, and `probeVersion` is the current `ImageProbe.version`.
        package var info: ImageInfo?
        /// The `ImageProbe.version` that read `info`.
        package var probeVersion: Int?
        /// For a video: its web version (the images above are its poster's); nil for a photo.
        @BoxedOptional package var video: VideoRecord?

        /// Per image settings (one per format), the files made with them, by ascending width.
        package var filesBySettings: [String: [String]] {
            let all = [settings] + (sources ?? []).filter { $0.paths.count == renditions.count }.map(\.settings)
            return Dictionary(all.map { ($0, files(madeWith: $0)!) }, uniquingKeysWith: { first, _ in first })
        }

        /// The files made with `settings`, by ascending width (a further format's, the last one
        /// listed with these settings, before the main format's), or nil when none were.
        package func files(madeWith settings: String) -> [String]? {
            for source in (sources ?? []).reversed() where source.settings == settings && source.paths.count == renditions.count {
                return source.paths
            }
            return settings == self.settings ? renditions.map(\.path) : nil
        }

        /// Every image file of the photo, in every format, and its video's web version: the
        /// files of ``filesBySettings`` (in no particular order) and the video's.
        package var allPaths: [String] {
            var paths: [String] = []
            forEachPath { paths.append($0) }
            return paths
        }

        /// Calls `body` with each of ``allPaths``, without making the list or the dictionary
        /// of ``filesBySettings`` (asked of a large library's every photo).
        package func forEachPath(_ body: (String) -> Void) {
            let count = renditions.count
            if let sources {
                for (index, source) in sources.enumerated() where source.paths.count == count {
                    // Two lists made with the same settings (no record this release writes has
                    // them): only the one `files(madeWith:)` gives counts.
                    if source.settings == settings
                        || sources[(index + 1)...].contains(where: { $0.settings == source.settings && $0.paths.count == count }) {
                        for files in filesBySettings.values { files.forEach(body) }
                        if let video { body(video.path) }
                        return
                    }
                }
            }
            for rendition in renditions { body(rendition.path) }
            for source in sources ?? [] where source.paths.count == count { source.paths.forEach(body) }
            if let video { body(video.path) }
        }

        /// Whether the source file is the one the images were made from, by its identity alone.
        package func matches(_ identity: FileIdentity) -> Bool {
            size == identity.size && modificationTime == identity.modificationTime
                && changeTime == identity.changeTime && inode == identity.inode
        }

        package init(size: Int, modificationTime: Double, changeTime: Double? = nil, inode: UInt64? = nil, contentHash: String, settings: String, width: Int, height: Int, color: String, renditions: [RenditionRecord], sources: [SourceRecord]? = nil, info: ImageInfo? = nil, probeVersion: Int? = nil, video: VideoRecord? = nil) {
            self.size = size
            self.modificationTime = modificationTime
            self.changeTime = changeTime
            self.inode = inode
            self.contentHash = contentHash
            self.settings = settings
            self.width = width
            self.height = height
            self.color = color
            self.renditions = renditions
            self.sources = sources
            self.info = info
            self.probeVersion = probeVersion
            self.video = video
        }
    }

    /// A video's web version: where it is and the settings it was made with (see
    /// `VideoSettings.key`).
    package struct VideoRecord: Codable, Sendable, Equatable {
        package var path: String
        package var settings: String
        /// For a Live Photo's motion clip: the clip's content hash and identity (the record's
        /// own are the photo's); nil for a video.
        package var sourceHash: String?
        package var sourceIdentity: FileIdentity?
        /// What ffprobe said about the source (not asked again while its identity is the same),
        /// and for a motion clip its path relative to the photo folder.
        package var probe: VideoInfo?
        package var sourcePath: String?

        package init(path: String, settings: String, sourceHash: String? = nil, sourceIdentity: FileIdentity? = nil, probe: VideoInfo? = nil, sourcePath: String? = nil) {
            self.path = path
            self.settings = settings
            self.sourceHash = sourceHash
            self.sourceIdentity = sourceIdentity
            self.probe = probe
            self.sourcePath = sourcePath
        }
    }

    package struct RenditionRecord: Codable, Sendable, Equatable {
        package var width: Int
        package var height: Int
        /// Site-relative path.
        package var path: String

        package init(width: Int, height: Int, path: String) {
            self.width = width
            self.height = height
            self.path = path
        }
    }

    /// A photo's images in one further format.
    package struct SourceRecord: Codable, Sendable, Equatable {
        /// The format's MIME type, for `<source type=…>`.
        package var type: String
        /// The image settings these images were made with, as ``PhotoRecord/settings``.
        package var settings: String
        /// Site-relative paths, one per rendition (same widths, same order).
        package var paths: [String]

        package init(type: String, settings: String, paths: [String]) {
            self.type = type
            self.settings = settings
            self.paths = paths
        }
    }

    package var version = Self.currentVersion
    /// Every file of the site this tool made, site-relative, sorted.
    package var files: [String] = []
    /// By the photo's path relative to the source folder.
    package var photos = PhotoRecords()
    /// Photo pages by site-relative path: the fingerprint of what each was made from.
    package var pages: [String: String] = [:]

    /// The manifest an earlier release left in `outputDirectory`, if any. One of another
    /// version, or one that cannot be read, gives only its list of files (they are still the
    /// tool's), or nothing, with a warning.
    package static func legacy(outputDirectory: String, warning: (String) -> Void) -> BuildManifest? {
        let path = (outputDirectory as NSString).appendingPathComponent(legacyFileName)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        if let manifest = try? JSONDecoder().decode(BuildManifest.self, from: data), manifest.version == currentVersion {
            return manifest
        }
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let files = object["files"] as? [String] {
            warning("\(path) was written by another version of Cascade; every image and page is made anew")
            return BuildManifest(files: files)
        }
        warning("\(path) cannot be read; every image is made anew, and files of earlier builds are left in place")
        return BuildManifest()
    }

    package init(files: [String] = [], pages: [String: String] = [:]) {
        self.files = files
        self.pages = pages
    }
}
