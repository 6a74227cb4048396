import Foundation
import GalleryConfig
import Testing
import TestSupport

@Suite struct ConfigurationSizeTests {
    @Test func aHugeConfigurationFileIsRefusedWithoutReadingIt() throws {
        let folder = try TemporaryFolder()
        // A sparse file: 10 GB long, nothing written, so the test needs neither disk nor time.
        let path = folder.path + "/cascade.yml"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("title: Big\n".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 10 << 30)
        try handle.close()
        #expect {
            try SiteConfiguration.load(folder: folder.path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.kind == .unreadable && error.description.contains("larger than 4 MB") && error.file == path
        }
    }

    @Test func aFileJustUnderTheLimitIsRead() throws {
        let folder = try TemporaryFolder()
        let comment = "# " + String(repeating: "x", count: 1000) + "\n"
        let text = "title: Big\n" + String(repeating: comment, count: (SiteConfiguration.maximumFileSize - 100) / comment.utf8.count)
        try folder.write("cascade.yml", text)
        #expect(try SiteConfiguration.load(folder: folder.path).title == "Big")
    }
}
