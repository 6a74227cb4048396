import Foundation
import Testing
import TestSupport

@testable import SourceWatching

/// A snapshot read again only in the folders that events name (``SourceSnapshot/refresh(_:willList:)``)
/// must be what a whole new snapshot is: the watcher of a large library relies on it.
@Suite struct SnapshotRefreshTests {
    /// The folder of a relative path ("" for the top).
    static func parent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// Random edits of a small tree (files added, rewritten, deleted and renamed; folders made
    /// with files in them, removed and renamed); after each, the snapshot
    /// read again in the folders whose entries the edit changed equals a new snapshot, and so
    /// does what it says changed.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func readingTheTouchedFoldersAgainGivesANewSnapshot(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: seed)
        try folder.write("top.jpg", "t")
        try folder.write("a/x.jpg", "x")
        try folder.write("a/b/y.jpg", "y")
        try folder.write("c/z.jpg", "z")
        var snapshot = try SourceSnapshot.take(of: folder.path)
        var editsSeen = 0
        for step in 0..<60 {
            let before = snapshot
            let now = try SourceSnapshot.take(of: folder.path).entries
            let folders = [""] + now.filter { $0.value.isDirectory }.map(\.key).sorted()
            let files = now.filter { !$0.value.isDirectory }.map(\.key).sorted()
            let someFolder = folders[random.int(0...folders.count - 1)]
            let inSomeFolder = someFolder.isEmpty ? "" : someFolder + "/"
            // The folders whose entries change (what inotify names).
            var touched: Set<String> = []
            switch random.int(0...5) {
            case 0:
                try folder.write(inSomeFolder + "new-\(step).jpg", "n")
                touched.insert(someFolder)
            case 1:
                guard let file = files.randomElement(using: &random) else { continue }
                try folder.write(file, String(repeating: "m", count: step + 2))
                touched.insert(Self.parent(file))
            case 2:
                guard let file = files.randomElement(using: &random) else { continue }
                try folder.remove(file)
                touched.insert(Self.parent(file))
            case 3:
                try folder.write(inSomeFolder + "album-\(step)/p.jpg", "p")
                try folder.write(inSomeFolder + "album-\(step)/deeper/q.jpg", "q")
                try folder.write(inSomeFolder + "album-\(step)/.hidden/r.jpg", "r")
                touched.insert(someFolder)
            case 4:
                guard !someFolder.isEmpty else { continue }
                try folder.remove(someFolder)
                touched.insert(Self.parent(someFolder))
            default:
                // A folder (or, from the top, a file) renamed, within its folder.
                let renamed = someFolder.isEmpty ? files.randomElement(using: &random) : someFolder
                guard let renamed else { continue }
                let target = Self.parent(renamed).isEmpty ? "renamed-\(step)" : Self.parent(renamed) + "/renamed-\(step)"
                try FileManager.default.moveItem(atPath: folder.path + "/" + renamed, toPath: folder.path + "/" + target)
                touched.insert(Self.parent(renamed))
            }
            editsSeen += 1
            let paths = Set(touched.map { $0.isEmpty ? folder.path : folder.path + "/" + $0 })
            var toldOf: [String] = []
            let read = try #require(snapshot.refresh(paths) { toldOf.append($0) }, "step \(step)")
            let fresh = try SourceSnapshot.take(of: folder.path)
            #expect(snapshot == fresh, "step \(step)")
            #expect(snapshot.entries == fresh.entries, "step \(step)")
            #expect(snapshot.changes(since: before, in: read) == fresh.changes(since: before), "step \(step)")
            // Only folders that are new are told of (to be watched before they are read).
            for path in toldOf {
                let relative = String(path.dropFirst(folder.path.count + 1))
                #expect(fresh.entries[relative]?.isDirectory == true, "\(relative)")
                #expect(before.entries[relative] != fresh.entries[relative], "\(relative) was listed already")
            }
        }
        #expect(editsSeen > 40)
    }

    /// Only the named folders are read again, with the folders new in them; a path that is not
    /// a listed folder asks for a new snapshot.
    @Test func onlyTheNamedFoldersAreRead() throws {
        let folder = try TemporaryFolder()
        for album in 0..<5 { try folder.write("album-\(album)/photo.jpg", "p") }
        var snapshot = try SourceSnapshot.take(of: folder.path)
        try folder.write("album-2/other.jpg", "o")
        try folder.write("album-2/new/inner.jpg", "i")
        let before = snapshot
        var toldOf: [String] = []
        let read = snapshot.refresh([folder.path + "/album-2"]) { toldOf.append($0) }
        #expect(read == ["album-2", "album-2/new"])
        #expect(toldOf == [folder.path + "/album-2/new"])
        let change = snapshot.changes(since: before, in: read ?? [])
        #expect(change.added == ["album-2/new", "album-2/new/inner.jpg", "album-2/other.jpg"])
        #expect(snapshot.refresh([folder.path + "/elsewhere"]) { _ in } == nil)
    }

    /// A link to a folder already listed is an entry, and the folder is not listed again
    /// through it; a link to a folder outside is listed (and told of, to be watched).
    @Test func linksAreFollowedOnce() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try folder.write("album/a.jpg", "a")
        try outside.write("b.jpg", "b")
        var snapshot = try SourceSnapshot.take(of: folder.path)
        let before = snapshot
        try folder.link("again", to: folder.path + "/album")
        try folder.link("album/up", to: "..")
        try folder.link("outside", to: outside.path)
        var toldOf: [String] = []
        let read = try #require(snapshot.refresh([folder.path, folder.path + "/album"]) { toldOf.append($0) })
        #expect(toldOf == [folder.path + "/outside"])
        let change = snapshot.changes(since: before, in: read)
        #expect(change.added == ["again", "album/up", "outside", "outside/b.jpg"])
        #expect(change.removed == [] && change.modified == [])
        #expect(snapshot.entries["again/a.jpg"] == nil && snapshot.entries["album/up/album"] == nil)
    }
}

@Suite struct WatcherFolderEventTests {
    /// A folder renamed is seen as its files moving, and a change inside it afterwards is seen
    /// under its new name (its watch now stands for the new path).
    @Test func aRenamedFolderIsFollowed() async throws {
        let folder = try TemporaryFolder()
        try folder.write("album/a.jpg", "a")
        try folder.write("other/b.jpg", "b")
        let watcher = try RecordingWatcher(folder.path)
        // Watched before the rename, so that the rename is seen as events on the watches.
        try await watcher.firstLook()
        try FileManager.default.moveItem(atPath: folder.path + "/album", toPath: folder.path + "/renamed")
        let moved = try await watcher.change(1)
        #expect(moved?.added == ["renamed", "renamed/a.jpg"])
        #expect(moved?.removed == ["album", "album/a.jpg"])
        try folder.write("renamed/c.jpg", "c")
        #expect(try await watcher.change(2)?.added == ["renamed/c.jpg"])
        try folder.remove("other")
        #expect(try await watcher.change(3)?.removed == ["other", "other/b.jpg"])
        try folder.write("renamed/deep/er/d.jpg", "d")
        #expect(try await watcher.change(4)?.added == ["renamed/deep", "renamed/deep/er", "renamed/deep/er/d.jpg"])
        try folder.write("renamed/deep/er/e.jpg", "e")
        #expect(try await watcher.change(5)?.added == ["renamed/deep/er/e.jpg"])
        await watcher.stop()
    }
}
