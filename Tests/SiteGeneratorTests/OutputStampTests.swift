import Foundation
import Testing
import TestSupport

@testable import SiteGenerator

/// The output folder's stamp taken with the last walk's records (``OutputStamp``) is the stamp
/// of a walk of every entry, whatever changed since, while folders that did not change are not
/// read again.
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

    /// The stamp of a walk of every entry.
    func fullWalk(_ tree: TemporaryFolder) throws -> String {
        try #require(TreeFingerprint(root: tree.path, identities: false, jobs: 2)).hex
    }

    /// Waits until the folders written so far are older than ``OutputStamp/settleTime``.
    func settle() async throws {
        try await Task.sleep(for: .seconds(OutputStamp.settleTime + 0.1))
    }

    @Test("the stamp is a full walk's; a folder is trusted once settled, and then not read again")
    func sameAsAFullWalk() async throws {
        let tree = try makeTree()
        let folders = 7  // the root, a, a/thumbs, a/pages, b, b/thumbs, empty (not the link)
        let first = try #require(OutputStamp(root: tree.path, earlier: nil, jobs: 2))
        #expect(first.hex == (try fullWalk(tree)))
        #expect(first.foldersRead == folders)
        #expect(first.folders.count == folders)
        // Read just after they were written: none is trusted yet.
        #expect(first.folders.values.allSatisfy { $0.identity == nil })
        let again = try #require(OutputStamp(root: tree.path, earlier: first.folders, jobs: 1))
        #expect(again.hex == first.hex)
        #expect(again.foldersRead == folders)
        try await settle()
        let settled = try #require(OutputStamp(root: tree.path, earlier: again.folders, jobs: 2))
        #expect(settled.hex == first.hex)
        #expect(settled.folders.values.allSatisfy { $0.identity != nil })
        let cached = try #require(OutputStamp(root: tree.path, earlier: settled.folders, jobs: 2))
        #expect(cached.hex == first.hex)
        #expect(cached.foldersRead == 0)
        #expect(cached.folders == settled.folders)
    }

    /// Each change made to a settled tree: the next stamp, taken with the last walk's records,
    /// is a full walk's, differs from the one before, and reads only the folders changed.
    @Test("any change to the entries of a settled folder is seen", arguments: [
        "add a file deep down", "remove a file", "rename a file", "a file replaced by a folder", "a new folder with files",
        "a folder removed", "a link added", "a file left where it was, written again",
    ])
    func change(_ change: String) async throws {
        let tree = try makeTree()
        let taken = try #require(OutputStamp(root: tree.path, earlier: nil, jobs: 2))
        try await settle()
        let before = try #require(OutputStamp(root: tree.path, earlier: taken.folders, jobs: 2))
        #expect(before.folders.values.allSatisfy { $0.identity != nil })
        var changesEntries = true
        switch change {
        case "add a file deep down": try tree.write("a/thumbs/photo-99-400.jpg", "new")
        case "remove a file": try tree.remove("b/photo-3.html")
        case "rename a file":
            try FileManager.default.moveItem(atPath: tree.path + "/index.html", toPath: tree.path + "/home.html")
        case "a file replaced by a folder":
            try tree.remove("a/photo-4.html")
            try tree.write("a/photo-4.html/inside.txt", "x")
        case "a new folder with files": try tree.write("empty/new/deeper/file.txt", "x")
        case "a folder removed": try tree.remove("a/pages")
        case "a link added": try tree.link("b/link.html", to: "photo-1.html")
        case "a file left where it was, written again":
            try tree.write("b/photo-5.html", "another page")
            changesEntries = false
        default: Issue.record("unknown change \(change)")
        }
        let after = try #require(OutputStamp(root: tree.path, earlier: before.folders, jobs: 2))
        #expect(after.hex == (try fullWalk(tree)), "\(change): not the stamp of a full walk")
        #expect((after.hex != before.hex) == changesEntries, "\(change)")
        #expect(after.foldersRead <= 3, "\(change): \(after.foldersRead) folders read")
    }

    @Test("a change right after a walk, in a folder written just before it, is seen")
    func racyFolder() throws {
        let tree = try makeTree()
        // Written and walked within the same tick of the clock the file system stamps folders
        // with, as the end of a build does: its times may not change again when a file is
        // removed right after the walk.
        try tree.write("b/thumbs/photo-50-400.jpg", "new")
        let walked = try #require(OutputStamp(root: tree.path, earlier: nil, jobs: 1))
        try tree.remove("b/thumbs/photo-1-400.jpg")
        let after = try #require(OutputStamp(root: tree.path, earlier: walked.folders, jobs: 1))
        #expect(after.hex != walked.hex)
        #expect(after.hex == (try fullWalk(tree)))
    }

    @Test("a folder that cannot be walked has no stamp")
    func unreadable() throws {
        let tree = try makeTree()
        let gone = tree.path + "/missing"
        #expect(OutputStamp(root: gone, earlier: nil) == nil)
    }
}
