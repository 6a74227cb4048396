import Foundation
import Testing
import TestSupport

@testable import Imaging

@Suite("Source files: opened as the scan found them, sizes checked before reading")
struct SourceFileTests {
    /// The inode `lstat` gives, as the scan records it.
    func inode(_ path: String) -> UInt64 {
        var status = stat()
        _ = lstat(path, &status)
        return UInt64(status.st_ino)
    }

    @Test("a photo swapped for a link to an outside file after the scan is refused, not read")
    func swappedForLink() throws {
        let folder = try TemporaryFolder()
        try folder.write("photos/holiday.jpg", [0xFF, 0xD8, 0xFF, 0xE0])
        try folder.write("outside/secret.jpg", Array("the secret".utf8))
        let photo = folder.path + "/photos/holiday.jpg"
        let scanned = inode(photo)
        #expect(try SourceFile.open(photo, inode: scanned).readAll() == Data([0xFF, 0xD8, 0xFF, 0xE0]))
        // The swap, as a hostile user makes it between the scan and the read.
        try FileManager.default.removeItem(atPath: photo)
        try FileManager.default.createSymbolicLink(atPath: photo, withDestinationPath: folder.path + "/outside/secret.jpg")
        #expect(throws: SourceFileError.replacedByLink) { try SourceFile.open(photo, inode: scanned) }
        #expect(SourceFileError.replacedByLink.description == "the file was replaced by a link during the build; not read")
    }

    /// Where the scan finds `path` and its folder, as the walk records it.
    func scanned(_ path: String) -> ScannedFile {
        var file = stat()
        var folder = stat()
        _ = lstat(path, &file)
        _ = lstat((path as NSString).deletingLastPathComponent, &folder)
        return ScannedFile(device: UInt64(file.st_dev), inode: UInt64(file.st_ino),
                           folderDevice: UInt64(folder.st_dev), folderInode: UInt64(folder.st_ino))
    }

    @Test("an album folder swapped for a link after the scan is refused, even to the very same file")
    func folderSwappedForLink() throws {
        let folder = try TemporaryFolder()
        try folder.write("photos/album/holiday.jpg", [0xFF, 0xD8, 0xFF, 0xE0])
        try FileManager.default.createDirectory(atPath: folder.path + "/outside", withIntermediateDirectories: true)
        let photo = folder.path + "/photos/album/holiday.jpg"
        // The same file under the same name in the link's folder: the file's own check passes,
        // only the folder's refuses it.
        #expect(link(photo, folder.path + "/outside/holiday.jpg") == 0)
        let found = scanned(photo)
        #expect(try SourceFile.open(photo, scanned: found).readAll() == Data([0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(rename(folder.path + "/photos/album", folder.path + "/photos/moved") == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/photos/album", withDestinationPath: folder.path + "/outside")
        #expect(throws: SourceFileError.folderReplacedByLink) { try SourceFile.open(photo, scanned: found) }
        #expect(SourceFileError.folderReplacedByLink.description == "its folder was replaced by a link during the build; not read")
        // A folder above it swapped for a link leads to another folder: refused as well.
        try FileManager.default.removeItem(atPath: folder.path + "/photos/album")
        #expect(rename(folder.path + "/photos/moved", folder.path + "/photos/album") == 0)
        #expect(rename(folder.path + "/photos", folder.path + "/photos-moved") == 0)
        try folder.write("elsewhere/album/.keep", [])
        #expect(link(folder.path + "/photos-moved/album/holiday.jpg", folder.path + "/elsewhere/album/holiday.jpg") == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/photos", withDestinationPath: folder.path + "/elsewhere")
        #expect(throws: SourceFileError.folderReplaced) { try SourceFile.open(photo, scanned: found) }
    }

    @Test("an album folder replaced by another folder, or by a file, after the scan is refused")
    func folderReplaced() throws {
        let folder = try TemporaryFolder()
        try folder.write("album/holiday.jpg", [1, 2, 3])
        try folder.write("other/.keep", [])
        let photo = folder.path + "/album/holiday.jpg"
        #expect(link(photo, folder.path + "/other/holiday.jpg") == 0)
        let found = scanned(photo)
        #expect(rename(folder.path + "/album", folder.path + "/moved") == 0)
        #expect(rename(folder.path + "/other", folder.path + "/album") == 0)
        #expect(throws: SourceFileError.folderReplaced) { try SourceFile.open(photo, scanned: found) }
        try FileManager.default.removeItem(atPath: folder.path + "/album")
        try folder.write("album", [0])
        #expect(throws: SourceFileError.folderReplaced) { try SourceFile.open(photo, scanned: found) }
    }

    @Test("a file on another device than the scan's is refused, whatever its inode")
    func otherDevice() throws {
        let folder = try TemporaryFolder()
        try folder.write("holiday.jpg", [1, 2, 3])
        let photo = folder.path + "/holiday.jpg"
        var found = scanned(photo)
        #expect(try SourceFile.open(photo, scanned: found).readAll() == Data([1, 2, 3]))
        found.device &+= 1
        #expect(throws: SourceFileError.replaced) { try SourceFile.open(photo, scanned: found) }
        // The folder unknown to the scan (its inode 0): the file alone is checked.
        found.device &-= 1
        found.folderInode = 0
        #expect(try SourceFile.open(photo, scanned: found).readAll() == Data([1, 2, 3]))
    }

    @Test("a copy takes the file as large as it was opened, block by block, and keeps its holes")
    func copy() throws {
        let folder = try TemporaryFolder()
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        try folder.write("clip.mp4", bytes)
        let path = folder.path + "/clip.mp4"
        // A hole of 64 blocks, then a last byte.
        #expect(truncate(path, 10_000 + 64 * 4096) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: [9])
        try handle.close()
        let file = try SourceFile.open(path, scanned: scanned(path))
        // Grown after it was opened: the copy stops at the size it had.
        let grow = try #require(FileHandle(forWritingAtPath: path))
        try grow.seekToEnd()
        try grow.write(contentsOf: [1, 2, 3])
        try grow.close()
        let copyPath = folder.path + "/copy.mp4"
        let output = open(copyPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(output >= 0)
        #expect(file.copy(to: output, blockSize: 4096) == 0)
        close(output)
        let copied = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copyPath)))
        #expect(copied == bytes + [UInt8](repeating: 0, count: 64 * 4096) + [9])
        var status = stat()
        _ = stat(copyPath, &status)
        #expect(Int(status.st_blocks) * 512 < 64 * 4096, "the hole is kept: \(status.st_blocks) blocks")
    }

    @Test("an XMP sidecar swapped for a link after the scan is not read")
    func sidecarSwappedForLink() throws {
        let folder = try TemporaryFolder()
        try folder.write("outside/secret.xmp", xmpPacket("", attributes: #"xmp:Rating="4""#))
        let sidecar = folder.path + "/IMG_1.xmp"
        try FileManager.default.createSymbolicLink(atPath: sidecar, withDestinationPath: folder.path + "/outside/secret.xmp")
        #expect(throws: XMPError.unreadable(SourceFileError.replacedByLink.description)) { try XMPReader.read(fileAtPath: sidecar) }
        #expect(try XMPReader.read(fileAtPath: folder.path + "/outside/secret.xmp").rating == 4)
    }

    @Test("a photo replaced by another file (a rename over it) after the scan is refused")
    func replacedByAnother() throws {
        let folder = try TemporaryFolder()
        try folder.write("holiday.jpg", [1, 2, 3])
        try folder.write("other.jpg", [4, 5, 6])
        let photo = folder.path + "/holiday.jpg"
        let scanned = inode(photo)
        #expect(rename(folder.path + "/other.jpg", photo) == 0)
        #expect(throws: SourceFileError.replaced) { try SourceFile.open(photo, inode: scanned) }
        // Without the scan's inode (a photo made in a test) the file is read.
        #expect(try SourceFile.open(photo, inode: nil).readAll() == Data([4, 5, 6]))
    }

    @Test("a file larger than the limit is refused before anything is read; a folder or FIFO is not read")
    func sizes() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/sparse.jpg"
        try folder.write("sparse.jpg", [0xFF, 0xD8, 0xFF])
        #expect(truncate(path, 3 << 30) == 0)  // 3 GiB, a hole: reading it whole would take 3 GiB
        let file = try SourceFile.open(path, inode: nil)
        #expect(file.size == 3 << 30)
        #expect(throws: SourceFileError.tooLarge(size: 3 << 30, limit: SourceFile.maximumPhotoSize)) { try file.readAll() }
        #expect(SourceFileError.tooLarge(size: 3 << 30, limit: SourceFile.maximumPhotoSize).description
            == "the file is 3.2 GB, larger than the 2.1 GB a photo may be")
        #expect(throws: SourceFileError.notRegularFile) { try SourceFile.open(folder.path, inode: nil) }
        #expect(mkfifo(folder.path + "/pipe.jpg", 0o600) == 0)
        #expect(throws: SourceFileError.notRegularFile) { try SourceFile.open(folder.path + "/pipe.jpg", inode: nil) }
    }

    @Test("a large file is streamed in blocks, and hashes as the whole")
    func stream() throws {
        let folder = try TemporaryFolder()
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try folder.write("clip.mp4", bytes)
        var seen: [UInt8] = []
        var blocks = 0
        let file = try SourceFile.open(folder.path + "/clip.mp4", inode: nil)
        let finished = file.stream(blockSize: 4096) { block in
            seen += block
            blocks += 1
        }
        #expect(finished)
        #expect(seen == bytes)
        #expect(blocks == 3)
    }
}

@Suite("Checked numbers from files")
struct CheckedNumberTests {
    @Test("values that would trap a conversion are refused with the field named", arguments: ["1e19", "9.3e18", "-1e300", "nan", "inf", "-inf", "x", ""])
    func refused(text: String) {
        #expect(throws: FieldValueProblem.self) { try CheckedNumber.integer(text, field: "xmp:Rating", in: -1...5).get() }
    }

    @Test("values in range are taken, rounded")
    func taken() throws {
        #expect(try CheckedNumber.integer(" 4.6 ", field: "f", in: -1...5).get() == 5)
        #expect(try CheckedNumber.integer(-90.0, field: "rotate", in: -360...360).get() == -90)
        #expect(try CheckedNumber.integer(UInt16(5), field: "EXIF Rating", in: -1...5).get() == 5)
        #expect(throws: FieldValueProblem(field: "EXIF Rating", value: "65535", range: "-1…5")) {
            try CheckedNumber.integer(UInt16(65535), field: "EXIF Rating", in: -1...5).get()
        }
        #expect(FieldValueProblem(field: "EXIF Rating", value: "65535", range: "-1…5").description
            == "its EXIF Rating (65535) is not a number in -1…5")
        #expect(throws: FieldValueProblem.self) { try CheckedNumber.double(.nan, field: "f", in: 0...1).get() }
        #expect(try CheckedNumber.double(0.5, field: "f", in: 0...1).get() == 0.5)
    }
}
