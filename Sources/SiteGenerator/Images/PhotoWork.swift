import Catalog
import Foundation
import Gallery
import Imaging
import Synchronization
import Video
import Support

/// The images of one photo, and how they came to be.
struct PhotoResult: Sendable {
    /// The photo's images, as the catalog records them.
    var record: BuildManifest.PhotoRecord
    var reused: Bool
    /// Whether the images were taken from the store of a sharded build, made by a shard.
    var fromStore = false
    var imagesWritten: Int
    /// What the user should know about the photo's images (a colour profile that cannot be read).
    var warnings: [String] = []
    /// ffmpeg's messages, for `--verbose`.
    var log: [String] = []
}

enum PhotoFailure: Error {
    /// The photo cannot be used: it is skipped.
    case image(ImagingError)
    /// The video cannot be used: it is skipped.
    case video(VideoError)
    /// The site cannot be written: the build stops.
    case write(SiteError)
}

/// What every photo's image work shares: the image stage of a build.
struct PhotoWork: Sendable {
    var widths: [Int]
    /// The formats every image is made in: the main one (`<img>`) first.
    var formats: [EncodeFormat]
    var limits: DecodeLimits
    /// Per format (in the order of `formats`), what its images depend on besides the photo.
    var settings: [ImageSettingsKey]
    /// Whether JPEG images keep the photo's GPS position.
    var keepGPS: Bool
    /// The colour space of the images (sRGB, or Display P3 for wide-gamut photos). Only a
    /// wide-gamut photo's images depend on it, and only their records add it to ``settings``
    /// (``ImageSettingsKey/wide(_:)``), so switching it remakes their images alone.
    var colour: OutputColour = .sRGB
    var writer: SiteWriter
    /// What makes videos' posters and web versions (nil when ffmpeg is missing: then the scan
    /// left out every video no earlier build published, and the others' files can only be
    /// kept; one that needs any made is skipped, a Live Photo published still).
    var video: VideoEncoder?

    /// What the web version of a video described by `info` depends on besides the video.
    func videoSettingsKey(for info: VideoInfo) -> ClipSettingsKey { .video(video?.settings.key(for: info)) }
    /// What a Live Photo's motion clip described by `info` depends on besides the clip.
    func liveSettingsKey(for info: VideoInfo) -> ClipSettingsKey { .live(video?.settings.key(for: info)) }

    /// The content hash of a large file, read 4 MiB at a time through `file` (the same hash
    /// as of the whole file); nil when it cannot be read.
    static func streamHash(_ file: SourceFile) -> String? {
        var hasher = FingerprintHasher()
        guard file.stream({ hasher.combine(raw: $0) }) else { return nil }
        return hasher.hex
    }

    /// The store of a sharded build: images are taken from it, or made into it.
    var store: RenditionStore? = nil

    /// How the images are made.
    var recipe: ImageRecipe {
        ImageRecipe(widths: widths, formats: formats, limits: limits, settings: settings, keepGPS: keepGPS, colour: colour)
    }

    /// The photo's content hash: the earlier record's when the file's identity is unchanged
    /// (nothing is read), else the hash of its bytes.
    func contentHash(of photo: GalleryPhoto, previous: Boxed<BuildManifest.PhotoRecord>?) -> Result<String, ImagingError> {
        if let previous, previous.wrappedValue.matches(photo.identity) { return .success(previous.wrappedValue.contentHash) }
        // Opened as the scan found it: a file swapped for a link since is refused.
        let file: SourceFile
        do throws(SourceFileError) {
            file = try SourceFile.open(photo.sourcePath, scanned: photo.scannedFile)
        } catch {
            return .failure(.io(path: photo.relativePath, reason: error.description))
        }
        if photo.isVideo {
            // Videos are large: hashed 4 MiB at a time.
            guard let hash = Self.streamHash(file) else {
                return .failure(.io(path: photo.relativePath, reason: "cannot be read"))
            }
            return .success(hash)
        }
        do throws(SourceFileError) {
            let data = try file.readAll()
            return .success(data.withUnsafeBytes { SiteGenerator.contentHash(raw: $0) })
        } catch {
            return .failure(.io(path: photo.relativePath, reason: error.description))
        }
    }

    /// Carries out `decision` for the photo whose content hash is `hash`, wanted at `paths`
    /// (width → site-relative path per format, in the order of `formats`). `previous` holds the
    /// earlier records; `staged` the absolute paths where the build staged the files a move
    /// takes (by their site-relative path).
    func apply(
        _ decision: ImageDecision, video job: VideoJob? = nil,
        to photo: GalleryPhoto, hash: String, paths: [Int: [String]],
        previous: PhotoRecords, staged: [String: String]
    ) -> Result<PhotoResult, PhotoFailure> {
        let result = applyImages(decision, to: photo, hash: hash, paths: paths, previous: previous, staged: staged)
        guard case .success(var made) = result, let job else { return result }
        let motion = photo.motion
        guard let info = photo.video ?? motion?.video else { return result }
        let source = motion?.sourcePath ?? photo.sourcePath
        // Where the scan found the video (the clip's, for a Live Photo), which the read checks.
        let scanned: ScannedFile? = if let motion { motion.scannedFile } else { photo.scannedFile }
        let videoPath = job.path
        switch job.decision {
        case .keep:
            break
        case .move(let staged):
            do throws(SiteError) { try writer.place(staged, at: videoPath) } catch { return .failure(.write(error)) }
            made.imagesWritten += 1
        // (A web version to take was staged, or is made: one that was not is made.)
        case .make, .take:
            let temporary: String
            do throws(SiteError) { temporary = try writer.temporaryPath() } catch { return .failure(.write(error)) }
            do throws(VideoError) {
                guard let encoder = video else { throw .toolsMissing }
                let log = try encoder.makeWebVersion(of: source, scanned: scanned, at: temporary, info: info, muted: motion != nil)
                if !log.isEmpty { made.log.append(log) }
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                // A Live Photo whose clip cannot be used is published as a still photo.
                guard let motion else { return .failure(.video(error)) }
                made.warnings.append("its Live Photo clip \(motion.relativePath) is left out: \(error)")
                return .success(made)
            }
            do throws(SiteError) { try writer.place(temporary, at: videoPath) } catch { return .failure(.write(error)) }
            try? FileManager.default.removeItem(atPath: temporary)
            made.imagesWritten += 1
            made.reused = false
        }
        made.record.video = BuildManifest.VideoRecord(
            path: videoPath, settings: job.settings,
            sourceHash: motion == nil ? nil : job.sourceHash, sourceIdentity: motion?.identity,
            probe: info, sourcePath: motion?.relativePath)
        return .success(made)
    }

    /// Carries out `decision` for the images of the photo (or the video's poster).
    private func applyImages(
        _ decision: ImageDecision, to photo: GalleryPhoto, hash: String, paths: [Int: [String]],
        previous: PhotoRecords, staged: [String: String]
    ) -> Result<PhotoResult, PhotoFailure> {
        // Every image kept (most of a large library's rebuild): nothing else to work out.
        if case .keep(let formats) = decision, formats.count == self.formats.count {
            let record = previous.boxed(photo.relativePath)!
            return .success(PhotoResult(record: self.record(of: photo, hash: hash, made: record.wrappedValue, paths: paths), reused: true, imagesWritten: 0))
        }
        let widthsMade = paths.keys.sorted()
        // Per format, its planned files by ascending width.
        let wanted = formats.indices.map { format in widthsMade.map { paths[$0]![format] } }
        var kept: Set<Int> = []
        switch decision {
        case .keep(let formats):
            kept = formats
        case .move(let from):
            let record = previous[from]!
            do throws(SiteError) {
                for format in formats.indices {
                    for (source, target) in zip(record.files(madeWith: settings[format], colour: colour)!, wanted[format]) {
                        try writer.place(staged[source]!, at: target)
                    }
                }
            } catch {
                return .failure(.write(error))
            }
            let result = self.record(of: photo, hash: hash, made: record, paths: paths)
            return .success(PhotoResult(record: result, reused: true, imagesWritten: wanted.joined().count))
        case .make:
            break
        }

        // A video's images are its poster's: the frame ffmpeg takes from it.
        var poster: [UInt8]?
        if let info = photo.video {
            guard let video else { return .failure(.video(.toolsMissing)) }
            do throws(VideoError) { poster = try video.poster(of: photo.sourcePath, scanned: photo.scannedFile, info: info) } catch { return .failure(.video(error)) }
        }
        let missing = formats.indices.filter { !kept.contains($0) }
        if let store {
            return fromStore(store, photo: photo, hash: hash, paths: paths, formats: missing)
        }
        // The formats whose images are not kept are made, from one decode.
        let rendered: RenderedImages
        switch recipe.render(photo, formats: missing, source: poster) {
        case .success(let value): rendered = value
        case .failure(let error): return .failure(.image(error))
        }
        let made = rendered.images
        guard made.renditions.map(\.width) == widthsMade else {
            return .failure(.image(.processingFailed("made images \(made.renditions.map(\.width)) px wide, not the planned \(widthsMade)")))
        }
        var written = 0
        for (position, files) in rendered.encoded.enumerated() {
            for (encoding, format) in missing.enumerated() {
                do throws(SiteError) { try writer.write(Data(files[encoding]), to: wanted[format][position]) } catch { return .failure(.write(error)) }
                written += 1
            }
        }
        let record = self.record(
            of: photo, hash: hash, width: made.width, height: made.height, color: made.color,
            sizes: made.renditions.map { ($0.width, $0.height) }, paths: paths, wideGamut: made.wideGamut ?? false)
        return .success(PhotoResult(record: record, reused: missing.isEmpty, imagesWritten: written, warnings: made.warnings))
    }

    /// The images of `photo` in the formats at `missing` placed from the store (a hard link
    /// where the file system allows, else a copy), after making them into the store if it
    /// lacks them.
    private func fromStore(
        _ store: RenditionStore, photo: GalleryPhoto, hash: String, paths: [Int: [String]], formats missing: [Int]
    ) -> Result<PhotoResult, PhotoFailure> {
        let widthsMade = paths.keys.sorted()
        let entry: (key: String, images: StoredImages, made: Bool, damage: String?)
        switch recipe.stored(photo, hash: hash, widths: widthsMade, in: store) {
        case .success(let value): entry = value
        case .failure(let failure): return .failure(failure)
        }
        var written = 0
        do throws(SiteError) {
            for width in widthsMade {
                for format in missing {
                    try writer.place(store.filePath(entry.key, width: width, ext: formats[format].fileExtension), at: paths[width]![format])
                    written += 1
                }
            }
        } catch {
            return .failure(.write(error))
        }
        let images = entry.images
        let record = self.record(
            of: photo, hash: hash, width: images.width, height: images.height, color: images.color,
            sizes: images.renditions.map { ($0.width, $0.height) }, paths: paths, wideGamut: images.wideGamut ?? false)
        return .success(PhotoResult(
            record: record, reused: missing.isEmpty || !entry.made, fromStore: !missing.isEmpty && !entry.made,
            imagesWritten: written, warnings: (entry.damage.map { [$0] } ?? []) + images.warnings))
    }

    /// The earlier record of `photo` (content hash `hash`), shared as it is, when it is the
    /// very record that keeping all its images would make again
    /// (``apply(_:video:to:hash:paths:previous:staged:)`` with `.keep` of every format, for a
    /// photo without a video or motion clip); nil when that is not certain, and then the record
    /// is made.
    ///
    /// For most of a large library's rebuild this spares working out the photo's image paths
    /// and a new record. It holds only after ``ReusePlanner`` decided to keep every format: the
    /// planner checked that the record's files per format are the ones this build wants, at
    /// the same widths. What else the new record takes from the photo and the settings is
    /// compared here: the file's identity and header, the probe's version, the settings of
    /// every format (with the `colour` key for a wide-gamut photo) and the formats' types.
    func unchangedRecord(of photo: GalleryPhoto, hash: String, previous: PhotoRecords) -> Boxed<BuildManifest.PhotoRecord>? {
        guard let box = previous.boxed(photo.relativePath) else { return nil }
        // (Read in place, field by field: the record is not copied.)
        guard box.wrappedValue.video == nil, box.wrappedValue.contentHash == hash, box.wrappedValue.matches(photo.identity),
              box.wrappedValue.probeVersion == ImageProbe.version, box.wrappedValue.info == photo.info
        else { return nil }
        let main = box.wrappedValue.settings
        let wide = main != settings[0].stored
        guard !wide || main == settings[0].wide(colour).stored else { return nil }
        if formats.count == 1 {
            guard box.wrappedValue.sources == nil else { return nil }
        } else {
            guard let sources = box.wrappedValue.sources, sources.count == formats.count - 1 else { return nil }
            let count = box.wrappedValue.renditions.count
            for (offset, source) in sources.enumerated() {
                let format = offset + 1
                guard source.type == formats[format].mimeType, source.paths.count == count, source.settings != main,
                      source.settings == (wide ? settings[format].wide(colour) : settings[format]).stored
                else { return nil }
            }
        }
        return box
    }

    /// The record of a photo whose images an earlier build made (`made`: its size, colour and
    /// image sizes), now at `paths`.
    private func record(of photo: GalleryPhoto, hash: String, made: BuildManifest.PhotoRecord, paths: [Int: [String]]) -> BuildManifest.PhotoRecord {
        record(of: photo, hash: hash, width: made.width, height: made.height, color: made.color,
               sizes: made.renditions.map { ($0.width, $0.height) }, paths: paths,
               wideGamut: made.settings == settings[0].wide(colour).stored)
    }

    /// The catalog record of a photo whose images of `sizes` (ascending widths) are at `paths`;
    /// a `wideGamut` photo's settings include the `colour` setting (``ImageSettingsKey/wide(_:)``).
    private func record(
        of photo: GalleryPhoto, hash: String, width: Int, height: Int, color: String,
        sizes: [(width: Int, height: Int)], paths: [Int: [String]], wideGamut: Bool
    ) -> BuildManifest.PhotoRecord {
        let settings = (wideGamut ? self.settings.map { $0.wide(colour) } : self.settings).map(\.stored)
        let renditions = sizes.map { BuildManifest.RenditionRecord(width: $0.width, height: $0.height, path: paths[$0.width]![0]) }
        let sources = formats.indices.dropFirst().map { index in
            BuildManifest.SourceRecord(type: formats[index].mimeType, settings: settings[index], paths: sizes.map { paths[$0.width]![index] })
        }
        return BuildManifest.PhotoRecord(
            size: photo.fileSize, modificationTime: photo.modificationTime, changeTime: photo.changeTime, inode: photo.inode,
            contentHash: hash, settings: settings[0],
            width: width, height: height, color: color, renditions: renditions,
            sources: sources.isEmpty ? nil : sources, info: photo.info, probeVersion: ImageProbe.version)
    }
}

/// The images written for one photo: its catalog record (display size, colour, renditions).
typealias PhotoImages = BuildManifest.PhotoRecord
