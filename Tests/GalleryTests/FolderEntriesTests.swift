import Foundation
import Imaging
import Testing
import TestSupport

@testable import Gallery

@Suite("Folder entries")
struct FolderEntriesTests {
    /// Names whose extension is easy to get wrong: several dots, a leading or trailing dot, a
    /// dot followed by a combining accent, letters outside the BMP, upper case.
    static let names = [
        "IMG_1.JPG", "a.b.c", "archive.tar.gz", ".hidden", ".hidden.jpg", "trailing.", "noextension",
        "e\u{0301}te\u{0301}.jpe\u{0301}g", "x.\u{0301}png", "\u{1D49C}\u{1D49C}.heic", "..x", "space in name .png",
    ]

    @Test("a name's extension is what NSString's pathExtension says it is")
    func extensionsAsFoundation() {
        for name in Self.names + ["..", ".", "", "a..", "a..b"] {
            #expect(pathExtension(name) == (name as NSString).pathExtension, "\(name)")
        }
    }

    @Test("a folder's entries and their status are what FileManager and lstat say, in byte order")
    func entriesAsFoundation() throws {
        let folder = try TemporaryFolder()
        for (index, name) in Self.names.enumerated() { try folder.write(name, [UInt8](repeating: 7, count: index)) }
        try FileManager.default.createDirectory(atPath: folder.path + "/Sub album", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.jpg", withDestinationPath: "IMG_1.JPG")

        let entries = try #require(FolderEntries.read(folder.path))
        let expected = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(entries.map(\.name) == expected)
        for entry in entries {
            let status = try #require(entry.status, "\(entry.name)")
            let reference = try #require(FileStatus(path: folder.path + "/" + entry.name))
            #expect(status.kind == reference.kind && status.identity == reference.identity, "\(entry.name)")
        }
        #expect(entries.first { $0.name == "link.jpg" }?.status?.kind == .symbolicLink)
        #expect(entries.first { $0.name == "Sub album" }?.status?.kind == .directory)
        #expect(FolderEntries.read(folder.path + "/missing") == nil)
    }

    @Test("a name that is not UTF-8 is listed without a status: the scan reports it")
    func latin1Name() throws {
        let folder = try TemporaryFolder()
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array("-latin1.jpg".utf8)
        let path = folder.path + "/" + String(decoding: name, as: UTF8.self)
        let descriptor = (Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]).withUnsafeBufferPointer { buffer in
            open(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        try #require(descriptor >= 0)
        close(descriptor)
        let entries = try #require(FolderEntries.read(folder.path))
        #expect(entries.count == 1)
        #expect(entries.first?.name == (path as NSString).lastPathComponent)
        #expect(entries.first?.status == nil)
    }

    @Test("a scan takes the entries of the folders it is given instead of reading those folders")
    func scanTakesListings() throws {
        let folder = try TemporaryFolder()
        var image = try Image(width: 40, height: 30)
        image.fill(x: 0, y: 0, width: 40, height: 30, red: 200, green: 80, blue: 40)
        let jpeg = try image.encoded(as: .jpeg(quality: 80))
        for name in ["a.jpg", "b.jpg", "Sub/c.jpg"] { try folder.write(name, jpeg) }
        let root = URL(fileURLWithPath: folder.path).standardizedFileURL.resolvingSymlinksInPath().path
        let scanner = GalleryScanner(options: ScanOptions(sort: .name, concurrency: 2))

        // The root's entries as they were before b.jpg came; Sub is not listed, and is read.
        let listings = FolderListings()
        listings.add(folder: root, entries: try #require(FolderEntries.read(root)).filter { $0.name != "b.jpg" })
        let listed = try scanner.scan(sourceDirectory: folder.path, title: "T", listings: listings)
        #expect(listed.root.photos.map(\.fileName) == ["a.jpg"])
        #expect(listed.root.albums.flatMap(\.photos).map(\.fileName) == ["c.jpg"])
        #expect(listings.count == 0)

        let read = try scanner.scan(sourceDirectory: folder.path, title: "T")
        #expect(read.root.photos.map(\.fileName) == ["a.jpg", "b.jpg"])
    }
}
