import Foundation
import Gallery
import GalleryConfig
import Imaging
import Support
import Testing

/// A temporary photo folder, removed when the test ends.
final class PhotoFolder {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("cascade-gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes a real JPEG of the given size at `path`, with an EXIF capture date
    /// (`YYYY:MM:DD HH:MM:SS`) and image description when given.
    func photo(_ path: String, width: Int = 40, height: Int = 30, date: String? = nil, description: String? = nil) throws {
        var image = try Image(width: width, height: height)
        image.fill(x: 0, y: 0, width: width, height: height, red: 200, green: 80, blue: 40)
        var bytes = try image.encoded(as: .jpeg(quality: 80))
        if date != nil || description != nil {
            bytes = MiniExif(description: description, dateTimeOriginal: date).inserted(into: bytes)
        }
        try file(path, bytes: bytes)
    }

    func text(_ path: String, _ text: String) throws {
        try file(path, bytes: Array(text.utf8))
    }

    func file(_ path: String, bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func folder(_ path: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(path), withIntermediateDirectories: true)
    }

    func link(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent(path).path, withDestinationPath: destination)
    }

    func scan(sort: AlbumSortOrder = .date) throws -> ScanResult {
        try GalleryScanner(options: ScanOptions(sort: sort, concurrency: 2)).scan(sourceDirectory: root.path, title: "Test")
    }
}

@Suite("Scanning a photo folder")
struct GalleryScannerTests {
    @Test("what an earlier scan found is used for a file of the same size and time, and the pixel limit still applies")
    func knownHeaders() throws {
        let folder = try PhotoFolder()
        try folder.photo("a.jpg", width: 40, height: 30)
        try folder.photo("b.jpg", width: 40, height: 30)
        let first = try folder.scan()
        let a = try #require(first.root.photos.first { $0.fileName == "a.jpg" })
        var remembered = a.info
        remembered.displayWidth = 400  // a value the file itself does not hold: shows it was used
        let known = remembered
        let scanner = GalleryScanner(options: ScanOptions(limits: DecodeLimits(maxPixels: 1_000_000), concurrency: 2))
        let second = try scanner.scan(sourceDirectory: folder.root.path, title: "Test") { path, identity in
            path == "a.jpg" && identity == a.identity ? known : nil
        }
        #expect(second.root.photos.first { $0.fileName == "a.jpg" }?.info.displayWidth == 400)
        #expect(second.root.photos.first { $0.fileName == "b.jpg" }?.info.displayWidth == 40)
        var huge = a.info
        huge.pixelWidth = 100_000
        huge.pixelHeight = 100_000
        let hugeInfo = huge
        let limited = try scanner.scan(sourceDirectory: folder.root.path, title: "Test") { path, _ in path == "a.jpg" ? hugeInfo : nil }
        #expect(limited.problems.map(\.path) == ["a.jpg"])
    }

    @Test("folders become nested albums, photos sorted by name with numbers by value")
    func nestedAlbums() throws {
        let folder = try PhotoFolder()
        try folder.photo("IMG_10.jpg")
        try folder.photo("IMG_2.jpg", width: 30, height: 60)
        try folder.photo("Trips/Paris/eiffel.jpg")
        try folder.photo("Trips/beach.jpg")
        try folder.photo("Animals/cat.jpg")
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        #expect(result.root.name == "Test")
        #expect(result.root.photos.map(\.fileName) == ["IMG_2.jpg", "IMG_10.jpg"])
        #expect(result.root.albums.map(\.name) == ["Animals", "Trips"])
        let trips = try #require(result.root.albums.last)
        #expect(trips.relativePath == "Trips")
        #expect(trips.photos.map(\.fileName) == ["beach.jpg"])
        #expect(trips.albums.map(\.relativePath) == ["Trips/Paris"])
        #expect(result.root.totalPhotoCount == 5)
        #expect(result.root.photos[0].info.displayWidth == 30)
        #expect(result.root.photos[0].info.displayHeight == 60)
        #expect(trips.cover?.fileName == "beach.jpg")
    }

    @Test("hidden files, system clutter and sidecars are ignored; empty folders are not albums")
    func ignoredFiles() throws {
        let folder = try PhotoFolder()
        try folder.photo("a.jpg")
        try folder.file(".DS_Store", bytes: [0, 1, 2])
        try folder.file("Thumbs.db", bytes: [0, 1, 2])
        try folder.file("a.xmp", bytes: Array("<x/>".utf8))
        try folder.file("notes.txt", bytes: Array("hello".utf8))
        try folder.photo(".hidden/secret.jpg")
        try folder.folder("Empty/Deeper")
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        #expect(result.root.photos.map(\.fileName) == ["a.jpg"])
        #expect(result.root.albums.isEmpty)
    }

    @Test("each unusable file is reported with its path and a reason, and the rest is kept")
    func problemsAreReported() throws {
        let folder = try PhotoFolder()
        try folder.photo("good.jpg")
        try folder.file("empty.jpg", bytes: [])
        try folder.file("text.jpg", bytes: Array("this is not a photo".utf8))
        try folder.file("clip.mov", bytes: [0, 0, 0, 0x18])
        try folder.file("raw.CR2", bytes: [0x49, 0x49, 0x2A, 0])
        let result = try folder.scan()
        #expect(result.root.photos.map(\.fileName) == ["good.jpg"])
        let paths = result.problems.map(\.path)
        #expect(paths == ["clip.mov", "empty.jpg", "raw.CR2", "text.jpg"])
        let reasons = Dictionary(uniqueKeysWithValues: result.problems.map { ($0.path, $0.reason) })
        #expect(reasons["empty.jpg"] == ImagingError.empty.description)
        #expect(reasons["clip.mov"]?.contains("video") == true)
        #expect(reasons["raw.CR2"]?.contains("RAW") == true)
        #expect(reasons["text.jpg"]?.isEmpty == false)
    }

    @Test("a photo above the pixel limit is refused from its header")
    func pixelLimit() throws {
        let folder = try PhotoFolder()
        try folder.photo("big.jpg", width: 200, height: 100)
        try folder.photo("small.jpg", width: 20, height: 10)
        let result = try GalleryScanner(limits: DecodeLimits(maxPixels: 10_000), concurrency: 1)
            .scan(sourceDirectory: folder.root.path, title: "T")
        #expect(result.root.photos.map(\.fileName) == ["small.jpg"])
        #expect(result.problems.map(\.path) == ["big.jpg"])
    }

    @Test("symbolic links: a cycle ends, a link out of the folder is not published")
    func symbolicLinks() throws {
        let folder = try PhotoFolder()
        let outside = try PhotoFolder()
        try outside.photo("private.jpg")
        try folder.photo("Album/a.jpg")
        try folder.link("Album/loop", to: folder.root.appendingPathComponent("Album").path)
        try folder.link("Album/escape.jpg", to: outside.root.appendingPathComponent("private.jpg").path)
        try folder.link("Album/same.jpg", to: folder.root.appendingPathComponent("Album/a.jpg").path)
        let result = try folder.scan()
        let album = try #require(result.root.albums.first)
        #expect(album.albums.isEmpty)
        #expect(album.photos.map(\.fileName) == ["a.jpg", "same.jpg"])
        #expect(result.problems.map(\.path) == ["Album/escape.jpg"])
        #expect(result.problems.first?.reason.contains("outside") == true)
    }

    @Test("a missing or non-folder source is an error that names it")
    func badSource() throws {
        let folder = try PhotoFolder()
        try folder.photo("a.jpg")
        let missing = folder.root.appendingPathComponent("nope").path
        #expect(throws: GalleryError.sourceMissing(missing)) {
            try GalleryScanner().scan(sourceDirectory: missing, title: "T")
        }
        let file = folder.root.appendingPathComponent("a.jpg").path
        #expect(throws: GalleryError.sourceNotADirectory(file)) {
            try GalleryScanner().scan(sourceDirectory: file, title: "T")
        }
        #expect(GalleryError.sourceMissing(missing).description.contains(missing))
    }

    @Test("a photo is a value: a changed copy leaves the original as it was; equal fields are equal photos")
    func photoIsAValue() {
        let info = ImageInfo(format: .jpeg, pixelWidth: 4, pixelHeight: 3, orientation: .up, displayWidth: 4, displayHeight: 3,
                             metadata: PhotoMetadata(dateTaken: nil, description: nil, artist: nil, hasGPS: false))
        let original = GalleryPhoto(sourcePath: "/x/a.jpg", relativePath: "a.jpg", fileName: "a.jpg", fileSize: 1, modificationTime: 0, info: info)
        var copy = original
        #expect(copy == original)
        copy.captionText = "changed"
        copy.inode = 7
        copy.sidecar = XMPMetadata(title: "t")
        #expect(original.captionText == nil && original.inode == 0 && original.sidecar == nil)
        #expect(copy.captionText == "changed" && copy.inode == 7 && copy.sidecar?.title == "t")
        #expect(copy != original)
        // Made apart with the same fields: equal, and hashed alike.
        var twin = GalleryPhoto(sourcePath: "/x/a.jpg", relativePath: "a.jpg", fileName: "a.jpg", fileSize: 1, modificationTime: 0, info: info)
        twin.captionText = "changed"
        twin.inode = 7
        twin.sidecar = XMPMetadata(title: "t")
        #expect(twin == copy)
        #expect(Set([twin, copy, original]).count == 2)
        // Changed on other threads at once, each its own copy.
        let changed = parallelMap(Array(0..<64), jobs: 4) { index -> GalleryPhoto in
            var photo = original
            photo.fileSize = index
            return photo
        }
        #expect(changed.map(\.fileSize) == Array(0..<64))
        #expect(original.fileSize == 1)
    }

    @Test("EXIF dates become readable dates; a zeroed date is no date")
    func captureDate() {
        func photo(_ date: String?) -> GalleryPhoto {
            GalleryPhoto(
                sourcePath: "/x/a.jpg", relativePath: "a.jpg", fileName: "a.jpg", fileSize: 1, modificationTime: 0,
                info: ImageInfo(
                    format: .jpeg, pixelWidth: 1, pixelHeight: 1, orientation: .up, displayWidth: 1, displayHeight: 1,
                    metadata: PhotoMetadata(dateTaken: date, description: nil, artist: nil, hasGPS: false)))
        }
        #expect(photo("2024:05:06 07:08:09").captureDate == "2024-05-06 07:08:09")
        #expect(photo("0000:00:00 00:00:00").captureDate == nil)
        #expect(photo(nil).captureDate == nil)
        #expect(photo("2024:05:06 07:08:09").stem == "a")
    }
}

@Suite("Work on another thread")
struct BackgroundWorkTests {
    @Test("the work runs while the caller goes on, and its value is given once it ends")
    func runsAlongside() {
        // The work waits for the caller: it can only see the signal if it runs on a thread of
        // its own (run by `init` itself, it would give up after 5 s).
        let callerWent = DispatchSemaphore(value: 0)
        let work = BackgroundWork { () -> Int in
            callerWent.wait(timeout: .now() + 5) == .success ? 42 : -1
        }
        callerWent.signal()
        #expect(work.wait() == 42)
    }
}
