import Support
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

@testable import Gallery

@Suite("Directory entries")
struct DirectoryEntryNameTests {
    /// An entry laid out as `readdir`'s buffer holds it (header, name, NUL, padded to 8 bytes)
    /// so that it ends exactly where a readable page meets an unreadable one: reading more of
    /// it than the name faults. The name of the last entry of a real buffer can sit there.
    @Test("an entry's name is read up to its NUL and never past the entry, even at the end of a page")
    func entryEndingAPage() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let region = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(region != MAP_FAILED)
        defer { munmap(region, 2 * page) }
        try #require(mprotect(region + page, page, PROT_NONE) == 0)
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        for name in ["a", "photo-000123.jpg", "Été à la mer.heic"] {
            let bytes = Array(name.utf8)
            let length = (offset + bytes.count + 1 + 7) / 8 * 8
            let start = region + page - length
            start.initializeMemory(as: UInt8.self, repeating: 0, count: length)
            (start + offset).copyMemory(from: bytes, byteCount: bytes.count)
            #expect(directoryEntryName(start.assumingMemoryBound(to: dirent.self)) == bytes)
        }
    }

    @Test("a real folder's names come out as FileManager lists them")
    func realFolder() throws {
        let folder = try TemporaryFolder()
        let names = ["a.jpg", "Été.heic", String(repeating: "n", count: 200) + ".png", "sub"]
        for name in names { try folder.write(name, "x") }
        let directory = try #require(opendir(folder.path))
        defer { closedir(directory) }
        try FileManager.default.removeItem(atPath: folder.path + "/sub")
        try FileManager.default.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: false)
        var read: [String] = []
        while let entry = readdir(directory) {
            let name = String(decoding: directoryEntryName(entry), as: UTF8.self)
            if name == "." || name == ".." { continue }
            read.append(name)
            let type = directoryEntryType(entry)
            #expect(type == UInt8(name == "sub" ? DT_DIR : DT_REG) || type == UInt8(DT_UNKNOWN), "\(name)")
        }
        #expect(read.sorted() == names.sorted())
        #expect(read.sorted() == (try FileManager.default.contentsOfDirectory(atPath: folder.path)).sorted())
    }
}
