import Foundation
import Gallery
import GRDB
import Imaging
import Testing
import TestSupport

@testable import Catalog
@testable import SiteGenerator

/// A build whose stamp (``BuildStamp``) is what the last complete build recorded finds the site
/// up to date and stops there; any change to what the site is made from, or to the output
/// folder, makes it build in full, and that build ends like a clean one.
@Suite("Up-to-date builds")
struct UpToDateTests {
    /// A photo folder with two albums, a caption, a file that is not a photo (skipped with a
    /// message) and an XMP sidecar that cannot be read (a warning).
    func makeSource() throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        for index in 0..<4 {
            var image = try Image(width: 300 + 10 * index, height: 200)
            image.fill(x: 0, y: 0, width: 300 + 10 * index, height: 200, red: UInt8(50 * index), green: 90, blue: 160)
            try source.write((index % 2 == 0 ? "A/" : "B/") + "photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        try source.write("A/photo 0.txt", "A caption")
        try source.write("B/notes.pdf", "%PDF-1.4 not a photo")
        try source.write("B/photo 1.xmp", "<x:xmpmeta")
        return source
    }

    func options(_ source: TemporaryFolder, _ output: String, title: String = "T") -> SiteOptions {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output, title: title,
                                  imageFormat: .jpeg(quality: 82), jobs: 2)
        options.tileWidths = [100, 200]
        options.photoWidths = [300]
        return options
    }

    /// Builds; returns the report and the warnings and skipped files it reported, in order.
    func build(_ options: SiteOptions) async throws -> (BuildReport, [String]) {
        let events = Events()
        let report = try await SiteBuilder(options: options).build { event in events.list.withLock { $0.append(event) } }
        let said = events.list.withLock { list in
            list.compactMap { event -> String? in
                switch event {
                case .warning(let text): "warning: " + text
                case .skipped(let problem): "skipped: " + problem.description
                case .scanned(let photos, let albums): "found \(photos) in \(albums)"
                default: nil
                }
            }
        }
        return (report, said)
    }

    /// What a clean build of `source` with `options` makes, in a new output folder.
    func cleanBuild(_ options: SiteOptions) async throws -> [String: String] {
        let output = try TemporaryFolder()
        var clean = options
        clean.outputDirectory = output.path
        clean.catalogPath = output.path + "-catalog.sqlite"
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        _ = try await SiteBuilder(options: clean).build()
        return try snapshot(output.path)
    }

    @Test("the stamp's walk keeps every folder's entries as the scan would read them")
    func stampListsFolders() throws {
        let source = try makeSource()
        try source.write(".hidden/x.jpg", [1, 2, 3])
        let root = URL(fileURLWithPath: source.path).resolvingSymlinksInPath().path
        let output = try TemporaryFolder()
        let stamp = try #require(BuildStamp.inputs(options: options(source, output.path), source: root, theme: ""))
        #expect(stamp.listings.count == 4)
        for folder in [root, root + "/A", root + "/B", root + "/.hidden"] {
            let entries = try #require(stamp.listings.take(folder), "\(folder)")
            #expect(entries.map(\.name) == (try FileManager.default.contentsOfDirectory(atPath: folder)).sorted())
            for entry in entries {
                let reference = try #require(FileStatus(path: folder + "/" + entry.name))
                #expect(entry.status?.kind == reference.kind && entry.status?.identity == reference.identity, "\(entry.name)")
            }
        }
        #expect(stamp.listings.count == 0)
    }

    @Test("the photo folder's fingerprint is the same whether its sub-folders are walked one or several at a time")
    func parallelFingerprint() throws {
        let source = try makeSource()
        try source.write("A/Deeper/photo 9.jpg", [1, 2, 3])
        let serial = try #require(TreeFingerprint(root: source.path, identities: true, jobs: 1)).hex
        #expect(try #require(TreeFingerprint(root: source.path, identities: true, listing: true, jobs: 2)).hex == serial)
        #expect(try #require(TreeFingerprint(root: source.path, identities: false, jobs: 3)).hex
            == (try #require(TreeFingerprint(root: source.path, identities: false, jobs: 1))).hex)
        try source.write("A/Deeper/photo 9.jpg", [1, 2, 3, 4])
        #expect(try #require(TreeFingerprint(root: source.path, identities: true, jobs: 2)).hex != serial)
        try FileManager.default.createSymbolicLink(atPath: source.path + "/B/link.jpg", withDestinationPath: "notes.pdf")
        #expect(TreeFingerprint(root: source.path, identities: true, jobs: 2) == nil)
    }

    @Test("a rebuild with nothing changed is up to date and says what the full build said")
    func nothingChanged() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        let (first, firstSaid) = try await build(options(source, output.path))
        #expect(!first.upToDate)
        #expect(firstSaid.contains { $0.hasPrefix("skipped: B/notes.pdf") })
        #expect(firstSaid.contains { $0.hasPrefix("warning: B/photo 1.xmp") })
        let site = try snapshot(output.path)

        let (second, secondSaid) = try await build(options(source, output.path))
        #expect(second.upToDate)
        #expect(secondSaid == firstSaid)
        #expect(second.albums == first.albums && second.photos == first.photos && second.pages == first.pages)
        #expect(second.skipped == first.skipped)
        #expect(second.photosReused == first.photos && second.photosMade == 0 && second.pagesWritten == 0)
        #expect(try snapshot(output.path) == site)

        // A full build (the album-key test hook turns the stamp off) says the same again.
        var full = options(source, output.path)
        full.verifyAlbumKeys = true
        let (third, thirdSaid) = try await build(full)
        #expect(!third.upToDate)
        #expect(thirdSaid == firstSaid)
        #expect(third.pagesWritten == 0 && third.imagesWritten == 0)
    }

    /// One change between builds: the next build is not up to date, ends like a clean build,
    /// and the one after it is up to date again.
    @Test("any change to the photos, the settings or the output folder makes a full build", arguments: [
        "rewrite a photo with the same bytes", "edit a caption", "add a hidden file", "add a photo", "rename a photo",
        "delete an image of the site", "delete a page of the site", "add a file of the user's to the site",
        "change the title", "leave a temporary folder in the site",
        "truncate an image of the site", "edit a page of the site to the same size", "touch a page of the site",
        "truncate an image and edit a page of the site, and change the title",
    ])
    func change(_ change: String) async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        var settings = options(source, output.path)
        _ = try await build(settings)
        #expect(try await build(settings).0.upToDate)
        let site = try snapshot(output.path)
        switch change {
        case "rewrite a photo with the same bytes":
            try source.write("A/photo 0.jpg", try source.data("A/photo 0.jpg"))
        case "edit a caption":
            try source.write("A/photo 0.txt", "Another caption")
        case "add a hidden file":
            try source.write("B/.DS_Store", "x")
        case "add a photo":
            try source.write("B/photo 9.jpg", try source.data("A/photo 0.jpg"))
        case "rename a photo":
            try FileManager.default.moveItem(atPath: source.path + "/A/photo 2.jpg", toPath: source.path + "/A/photo 5.jpg")
        case "delete an image of the site":
            let image = try #require(site.keys.filter { $0.hasSuffix(".jpg") }.sorted().first)
            try output.remove(image)
        case "delete a page of the site":
            try output.remove("a/index.html")
        case "add a file of the user's to the site":
            try output.write("about.html", "<p>mine</p>")
        case "change the title":
            settings.title = "Another title"
        case "leave a temporary folder in the site":
            try output.write(SiteWriter.temporaryFolder + "/12-3", "half a file")
        case "truncate an image of the site":
            try truncateImage(site, in: output)
        case "edit a page of the site to the same size":
            try editPage(site, in: output)
        case "touch a page of the site":
            let page = output.path + "/b/index.html"
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: page)
        case "truncate an image and edit a page of the site, and change the title":
            try truncateImage(site, in: output)
            try editPage(site, in: output)
            settings.title = "Another title"
        default:
            Issue.record("unknown change \(change)")
        }
        let (rebuilt, _) = try await build(settings)
        #expect(!rebuilt.upToDate, "\(change): the build was taken for up to date")
        var expected = try await cleanBuild(settings)
        if change == "add a file of the user's to the site" {
            #expect(try output.read("about.html") == "<p>mine</p>")
            expected["about.html"] = try snapshot(output.path)["about.html"]
        }
        #expect(try snapshot(output.path) == expected, "\(change): the site differs from a clean build")
        #expect(try await build(settings).0.upToDate, "\(change): the build after it was not up to date")
    }

    /// Truncates, in place (the same inode), the first image of the site `site`.
    func truncateImage(_ site: [String: String], in output: TemporaryFolder) throws {
        let image = try #require(site.keys.filter { $0.hasSuffix(".jpg") }.sorted().first)
        let handle = try #require(FileHandle(forWritingAtPath: output.path + "/" + image))
        try handle.truncate(atOffset: 100)
        try handle.close()
    }

    /// Changes, in place and to the same size, a photo's page of the site `site`.
    func editPage(_ site: [String: String], in output: TemporaryFolder) throws {
        let page = try #require(site.keys.filter { $0.hasPrefix("a/photo") && $0.hasSuffix(".html") }.sorted().first)
        let bytes = try output.data(page)
        // (A change in the same tick of the clock as the build that wrote it would keep its times.)
        try OutputStampTests.waitForClock(after: output.path + "/" + page)
        let handle = try #require(FileHandle(forWritingAtPath: output.path + "/" + page))
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "x"), count: 16))
        try handle.close()
        #expect(try output.data(page).count == bytes.count)
    }

    @Test("a photo folder with a symbolic link in it is always built in full")
    func symbolicLink() async throws {
        let source = try makeSource()
        try source.link("A/link.jpg", to: "photo 0.jpg")
        let output = try TemporaryFolder()
        _ = try await build(options(source, output.path))
        let (second, _) = try await build(options(source, output.path))
        #expect(!second.upToDate)
        #expect(second.pagesWritten == 0 && second.imagesWritten == 0)
    }

    @Test("a build that goes in full forgets the stamp before it changes anything")
    func stampForgotten() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        var settings = options(source, output.path)
        settings.catalogPath = output.path + "-catalog.sqlite"
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        _ = try await build(settings)
        let catalog = try Catalog(path: output.path + "-catalog.sqlite") { Issue.record("\($0)") }
        let recorded = try #require(catalog.lastBuild())
        #expect(recorded.photos == 4 && recorded.albums == 3)
        // A new photo whose images cannot be made: the build goes in full and, since a photo
        // failed, records no stamp (the photo is tried again next time).
        try source.write("A/broken.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
                         + [0xFF, 0xC0, 0, 17, 8, 0, 100, 0, 100, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        let (rebuilt, _) = try await build(settings)
        #expect(!rebuilt.upToDate)
        #expect(rebuilt.skipped.contains { $0.path == "A/broken.jpg" })
        #expect(catalog.lastBuild() == nil)
        #expect(!(try await build(settings).0.upToDate))
    }

    @Test("each folder's own fingerprint changes with its entries and files, and not with its sub-folders' or its siblings'")
    func folderFingerprints() throws {
        let source = try makeSource()
        try source.write("A/Deeper/photo 9.jpg", [1, 2, 3])
        func folders(jobs: Int = 2) throws -> [String: String] {
            try #require(TreeFingerprint(root: source.path, identities: true, listing: true, jobs: jobs)?.folders?.all)
        }
        func changed(_ before: [String: String], _ after: [String: String]) -> [String] {
            Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        }
        let start = try folders()
        #expect(start.keys.sorted() == ["", "A", "A/Deeper", "B"])
        #expect(try folders(jobs: 1) == start)
        // Unless asked for the listings (the build's walk), a walk keeps none.
        #expect(TreeFingerprint(root: source.path, identities: true, jobs: 2)?.folders == nil)
        try source.write("A/Deeper/photo 9.jpg", [1, 2, 3, 4])
        let deeper = try folders()
        #expect(changed(start, deeper) == ["A/Deeper"])
        try source.write("B/photo 5.jpg", [5])
        let added = try folders()
        #expect(changed(deeper, added) == ["B"])
        try FileManager.default.moveItem(atPath: source.path + "/B", toPath: source.path + "/C")
        #expect(changed(added, try folders()) == ["", "B", "C"])
    }

    @Test("a build reports the folders whose inputs changed since the last complete build, and none when it cannot tell")
    func changedFolders() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        var settings = options(source, output.path)
        settings.catalogPath = output.path + "-catalog.sqlite"  // (removed with the folder)
        #expect(try await build(settings).0.changedFolders == nil)  // (no build before it)
        #expect(try await build(settings).0.changedFolders == [])  // (up to date)
        try source.write("A/photo 0.txt", "Another caption, longer")
        #expect(try await build(settings).0.changedFolders == ["A"])
        try source.write("B/photo 5.txt", "A caption without its photo")
        try source.write("C/photo 6.jpg", try source.data("A/photo 0.jpg"))
        #expect(try await build(settings).0.changedFolders == ["", "B", "C"])
        // An image of the site deleted is not a change to the photo folder.
        let thumbs = try FileManager.default.contentsOfDirectory(atPath: output.path + "/a/thumbs")
        try FileManager.default.removeItem(atPath: output.path + "/a/thumbs/" + thumbs[0])
        let repaired = try await build(settings).0
        #expect(!repaired.upToDate && repaired.changedFolders == [])
        settings.title = "Another title"
        #expect(try await build(settings).0.changedFolders == ["", "A", "B", "C"])
        try FileManager.default.removeItem(atPath: source.path + "/C")
        #expect(try await build(settings).0.changedFolders == ["", "C"])
        // The summary of a build that did not record its folders (an earlier release's).
        try source.write("A/photo 0.txt", "A caption")
        let queue = try DatabaseQueue(path: output.path + "-catalog.sqlite")
        try queue.inDatabase { db in try db.execute(sql: "DELETE FROM last_build_folder") }
        #expect(try await build(settings).0.changedFolders == nil)
        #expect(try await build(settings).0.changedFolders == [])
    }

    @Test("an album whose folder and images' folder did not change keeps its photos' images without working out their files, and ends like a clean build")
    func settledAlbums() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        let settings = options(source, output.path)
        /// Builds; returns the report and what the scan said of the settled photos.
        func rebuild() async throws -> (report: BuildReport, plan: [String]) {
            let events = Events()
            let report = try await SiteBuilder(options: settings).build { event in events.list.withLock { $0.append(event) } }
            #expect(try snapshot(output.path) == (try await cleanBuild(settings)))
            return (report, events.logs(startingWith: "settled: "))
        }
        let first = try await rebuild()
        #expect(first.plan.isEmpty)  // (no build before it: nothing is known to be settled)
        // A caption of A changed: B (and its two photos) did not. (The photo folder itself has
        // no photos, and no images' folder.)
        try source.write("A/photo 0.txt", "Another caption, longer")
        let caption = try await rebuild()
        #expect(caption.plan == ["settled: 2 photos as the last build left them, in 1 of 3 albums"])
        #expect(caption.report.photosMade == 0)
        // An image of B deleted: B is not settled, and the image is made again.
        let thumbs = output.path + "/b/thumbs/"
        let image = try #require(try FileManager.default.contentsOfDirectory(atPath: thumbs).sorted().first)
        try FileManager.default.removeItem(atPath: thumbs + image)
        try source.write("A/photo 0.txt", "A caption")
        let deleted = try await rebuild()
        #expect(deleted.plan == ["settled: 0 photos as the last build left them, in 0 of 3 albums"])
        #expect(deleted.report.photosMade == 1 && FileManager.default.fileExists(atPath: thumbs + image))
        // A photo of B replaced by another (B changed): A is settled.
        var image2 = try Image(width: 320, height: 180)
        image2.fill(x: 0, y: 0, width: 320, height: 180, red: 10, green: 200, blue: 30)
        try source.write("B/photo 1.jpg", try image2.encoded(as: .jpeg(quality: 85)))
        let replaced = try await rebuild()
        #expect(replaced.plan == ["settled: 2 photos as the last build left them, in 1 of 3 albums"])
        #expect(replaced.report.photosMade == 1)
        // A new album whose name comes first takes A's folder in the site: A's folder in the
        // photo folder did not change, nor did the site's `a/thumbs/`, yet A's photos move.
        var older = try Image(width: 300, height: 200)
        older.fill(x: 0, y: 0, width: 300, height: 200, red: 200, green: 20, blue: 30)
        try source.write("(A)/photo 7.jpg", try older.encoded(as: .jpeg(quality: 85)))
        let sibling = try await rebuild()
        #expect(sibling.plan == ["settled: 2 photos as the last build left them, in 1 of 4 albums"])
        #expect(FileManager.default.fileExists(atPath: output.path + "/a-2/photo-0.html"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/a/photo-7.html"))
    }
}

