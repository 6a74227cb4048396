import Foundation
import Testing
import TestSupport

@testable import SiteGenerator

/// The output folder's stamp (``OutputStamp``) covers every entry and each file's size and
/// times, and finds, against an earlier walk's records, exactly the files changed since.
@Suite("Output folder stamps")
struct OutputStampTests {
    /// A tree like a site's: files at the top, nested folders, an empty folder, a link.
    func makeTree() throws -> TemporaryFolder {
        let tree = try TemporaryFolder()
        try tree.write("index.html", "<p>home</p>")
        try tree.write("frames.json", "[]")
        for album in ["a", "b"] {
            for index in 0..<20 { try tree.write("\(album)/photo-\(index).html", "page \(index)") }
            for index in 0..<20 { try tree.write("\(album)/thumbs/photo-\(index)-400.jpg", "image \(index)") }
        }
        try tree.write("a/pages/2.html", "page 2")
        try tree.makeFolder("empty")
        try tree.link("a/link.html", to: "photo-0.html")
        return tree
    }

    /// Waits until the file system's clock has moved on from the last change of `path`'s file
    /// (a new file's change time is later than it): a change made from then on gives the file
    /// other times. (A state waited for, not a time.)
    static func waitForClock(after path: String) throws {
        var target = stat()
        guard stat(path, &target) == 0 else { throw CocoaError(.fileNoSuchFile) }
        let probe = (path as NSString).deletingLastPathComponent + "/.clock-probe"
        defer { unlink(probe) }
        while true {
            try Data().write(to: URL(fileURLWithPath: probe))
            var status = stat()
            guard stat(probe, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
            if (status.st_ctim.tv_sec, status.st_ctim.tv_nsec) > (target.st_ctim.tv_sec, target.st_ctim.tv_nsec) { return }
        }
    }

    @Test("the stamp is the same whatever the number of jobs, and again when nothing changed")
    func stable() throws {
        let tree = try makeTree()
        let folders = 7  // the root, a, a/thumbs, a/pages, b, b/thumbs, empty (not the link)
        let first = try #require(OutputStamp(root: tree.path, jobs: 2, keepFiles: true))
        #expect(first.folders.count == folders)
        #expect(first.folders["a/thumbs"]?.files.count == 20)
        #expect(try #require(OutputStamp(root: tree.path, jobs: 1)).hex == first.hex)
        let compared = try #require(OutputStamp(root: tree.path, jobs: 2, reference: first.folders))
        #expect(compared.hex == first.hex)
        #expect(compared.changedFiles.isEmpty)
    }

    /// Each change: the stamp differs, and the files it names changed are exactly the ones
    /// changed or added (a removed file is not named: it is missing, which the build sees).
    @Test("any change to the entries or to a file in place is seen, and the changed files named", arguments: [
        "add a file deep down", "remove a file", "rename a file", "a file replaced by a folder", "a new folder with files",
        "a folder removed", "a link added", "a file truncated in place", "a file edited in place to the same size",
        "a file touched", "a file replaced by a copy with its times",
    ])
    func change(_ change: String) throws {
        let tree = try makeTree()
        let before = try #require(OutputStamp(root: tree.path, jobs: 2, keepFiles: true))
        // (The tree was written just now: a change in the same tick of the clock could leave a
        // file's times as they were.)
        // (Its last file written.)
        try Self.waitForClock(after: tree.path + "/a/pages/2.html")
        var changed: [String] = []
        switch change {
        case "add a file deep down":
            try tree.write("a/thumbs/photo-99-400.jpg", "new")
            changed = ["a/thumbs/photo-99-400.jpg"]
        case "remove a file": try tree.remove("b/photo-3.html")
        case "rename a file":
            try FileManager.default.moveItem(atPath: tree.path + "/index.html", toPath: tree.path + "/home.html")
            changed = ["home.html"]
        case "a file replaced by a folder":
            try tree.remove("a/photo-4.html")
            try tree.write("a/photo-4.html/inside.txt", "x")
            changed = ["a/photo-4.html/inside.txt"]
        case "a new folder with files":
            try tree.write("empty/new/deeper/file.txt", "x")
            changed = ["empty/new/deeper/file.txt"]
        case "a folder removed": try tree.remove("a/pages")
        case "a link added": try tree.link("b/link.html", to: "photo-1.html")
        case "a file truncated in place":
            let handle = try #require(FileHandle(forWritingAtPath: tree.path + "/b/thumbs/photo-7-400.jpg"))
            try handle.truncate(atOffset: 2)
            try handle.close()
            changed = ["b/thumbs/photo-7-400.jpg"]
        case "a file edited in place to the same size":
            let handle = try #require(FileHandle(forWritingAtPath: tree.path + "/b/photo-5.html"))
            try handle.write(contentsOf: Data("PAGE".utf8))
            try handle.close()
            changed = ["b/photo-5.html"]
        case "a file touched":
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: tree.path + "/frames.json")
            changed = ["frames.json"]
        case "a file replaced by a copy with its times":
            // (As `cp -p` does: the time given back to the nanosecond, with utimensat.)
            let path = tree.path + "/a/photo-2.html"
            var original = stat()
            #expect(stat(path, &original) == 0)
            try tree.remove("a/photo-2.html")
            try tree.write("a/photo-2.html", "page 2")
            var times = [original.st_atim, original.st_mtim]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            // (The same size and time: taken for the same file, as a backup restored with its
            // times; nothing changed.)
        default: Issue.record("unknown change \(change)")
        }
        let after = try #require(OutputStamp(root: tree.path, jobs: 2, reference: before.folders))
        #expect((after.hex != before.hex) == (change != "a file replaced by a copy with its times"), "\(change)")
        #expect(after.changedFiles.sorted() == changed, "\(change)")
    }

    @Test("a folder that cannot be walked has no stamp")
    func unreadable() throws {
        let tree = try makeTree()
        let gone = tree.path + "/missing"
        #expect(OutputStamp(root: gone) == nil)
    }

    /// The stamp at the end of a build, updated from the walk at its start by listing again
    /// only the folders the build touched, is the one a whole walk finds: with files changed,
    /// added and removed, a folder made two levels deep, a folder deleted, another emptied.
    @Test("a stamp updated from an earlier walk and the touched folders is the whole walk's")
    func updated() throws {
        let tree = try makeTree()
        let start = try #require(OutputStamp(root: tree.path, jobs: 2, keepFiles: true))
        try Self.waitForClock(after: tree.path + "/a/thumbs/photo-3-400.jpg")
        try tree.write("a/thumbs/photo-3-400.jpg", "image 3, made again")
        try tree.write("a/thumbs/photo-30-400.jpg", "a new image")
        try tree.remove("a/photo-4.html")
        try tree.write("c/d/e/page.html", "a new album's page")
        try tree.remove("a/pages")
        for index in 0..<20 { try tree.remove("b/thumbs/photo-\(index)-400.jpg") }
        let touched: Set<String> = ["a/thumbs", "a", "c/d/e", "a/pages", "b/thumbs"]
        let whole = try #require(OutputStamp(root: tree.path, jobs: 2, keepFiles: true))
        #expect(whole.hex != start.hex)

        let updated = try #require(OutputStamp(root: tree.path, updating: start.folders, touched: touched))
        #expect(updated.hex == whole.hex)
        #expect(updated.folders.mapValues(\.sums) == whole.folders.mapValues(\.sums))
        #expect(updated.folders.mapValues(\.files) == whole.folders.mapValues(\.files))
        #expect(updated.folders["a/pages"] == nil && updated.folders["c/d/e"]?.files.count == 1)

        // A touched folder left out is taken as the start found it: that stamp is another.
        let partial = try #require(OutputStamp(root: tree.path, updating: start.folders, touched: touched.subtracting(["a/thumbs"])))
        #expect(partial.hex != whole.hex)
        // A touched folder reached through a link is not listed: the caller walks instead.
        try tree.link("linked", to: "a")
        #expect(OutputStamp(root: tree.path, updating: start.folders, touched: ["linked/thumbs"]) == nil)
    }
}
