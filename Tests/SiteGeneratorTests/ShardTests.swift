import Foundation
import Imaging
import Testing
import TestSupport

@testable import SiteGenerator

/// Which shard a photo belongs to, and where a job learns its shard.
@Suite("Shard assignment")
struct ShardAssignmentTests {
    @Test("K/N is read, and shards that do not exist are refused with a reason")
    func parsing() throws {
        #expect(try ShardSpec(parsing: "2/4", environment: [:]) == ShardSpec(index: 2, count: 4))
        #expect(try ShardSpec(parsing: "0/1", environment: [:]) == ShardSpec(index: 0, count: 1))
        #expect(try ShardSpec(parsing: "1/3", environment: [:]).assignment == .content)
        #expect(throws: ShardSpecError.indexOutOfRange(index: 4, count: 4)) { try ShardSpec(parsing: "4/4", environment: [:]) }
        #expect(throws: ShardSpecError.badCount(0)) { try ShardSpec(parsing: "0/0", environment: [:]) }
        #expect(throws: ShardSpecError.indexOutOfRange(index: -1, count: 3)) { try ShardSpec(parsing: "-1/3", environment: [:]) }
        for bad in ["", "2", "2/", "/4", "a/b", "1/2/3", "1.5/4"] {
            #expect(throws: ShardSpecError.unreadable(bad)) { try ShardSpec(parsing: bad, environment: [:]) }
        }
    }

    @Test("auto takes the shard from a Slurm array, a Kubernetes Indexed Job or CASCADE_SHARD")
    func environment() throws {
        let slurm = ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"]
        #expect(try ShardSpec(parsing: "auto", environment: slurm) == ShardSpec(index: 3, count: 4))
        // --array=1-8: task ids from 1.
        let fromOne = ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"]
        #expect(try ShardSpec(parsing: "auto", environment: fromOne) == ShardSpec(index: 0, count: 8))
        // --array=0-30:10: ids 0, 10, 20, 30.
        let stepped = ["SLURM_ARRAY_TASK_ID": "20", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "10"]
        #expect(try ShardSpec(parsing: "auto", environment: stepped) == ShardSpec(index: 2, count: 4))
        #expect(throws: ShardSpecError.irregularArray(task: 25, minimum: 0, step: 10)) {
            try ShardSpec(parsing: "auto", environment: stepped.merging(["SLURM_ARRAY_TASK_ID": "25"]) { $1 })
        }
        #expect(throws: ShardSpecError.self) { try ShardSpec(parsing: "auto", environment: ["SLURM_ARRAY_TASK_ID": "1"]) }
        let kubernetes = ["JOB_COMPLETION_INDEX": "5", "CASCADE_SHARD_COUNT": "6"]
        #expect(try ShardSpec(parsing: "auto", environment: kubernetes) == ShardSpec(index: 5, count: 6))
        #expect(throws: ShardSpecError.self) { try ShardSpec(parsing: "auto", environment: ["JOB_COMPLETION_INDEX": "5"]) }
        #expect(try ShardSpec(parsing: "auto", environment: ["CASCADE_SHARD": "1/2"]) == ShardSpec(index: 1, count: 2))
        #expect(throws: ShardSpecError.noScheduler) { try ShardSpec(parsing: "auto", environment: ["HOME": "/root"]) }
    }

    @Test("every content hash is in exactly one shard, and the shards are about equal", arguments: [1, 2, 3, 4, 7, 100])
    func partition(count: Int) throws {
        let shards = try (0..<count).map { try ShardSpec(index: $0, count: count) }
        var sizes = [Int](repeating: 0, count: count)
        let hashes = (0..<20_000).map { contentHash(Array("photo \($0)".utf8)) }
        for hash in hashes {
            let owners = shards.filter { $0.contains(contentHash: hash) }
            #expect(owners.count == 1, "\(hash) is in \(owners.count) shards")
            if let owner = owners.first { sizes[owner.index] += 1 }
        }
        let expected = Double(hashes.count) / Double(count)
        // Binomial spread: 6 standard deviations at most.
        let tolerance = 6 * (expected * (1 - 1 / Double(count))).squareRoot() + 1
        for size in sizes { #expect(abs(Double(size) - expected) <= tolerance, "shard sizes \(sizes)") }
        // By path too: every path in exactly one shard.
        for path in (0..<2_000).map({ "album \($0 % 7)/photo \($0).jpg" }) {
            #expect(shards.filter { $0.contains(path: path) }.count == 1)
        }
        // The same hash always lands in the same shard.
        #expect(hashes.map { ShardSpec.slot(of: $0, count: count) } == hashes.map { ShardSpec.slot(of: $0, count: count) })
    }
}

/// The store: entries complete or absent, whoever writes them, however often, and at once.
@Suite("Rendition store")
struct RenditionStoreTests {
    func images(_ sizes: [[Int]]) -> StoredImages {
        StoredImages(
            width: 400 * sizes.count, height: 300 * sizes.count, color: "#102030",
            renditions: sizes.indices.map { StoredImages.Size(width: 400 * ($0 + 1), height: 300 * ($0 + 1)) },
            formats: ["jpg"], fileSizes: sizes, warnings: [])
    }

    func files(_ sizes: [[Int]], byte: UInt8) -> [[[UInt8]]] {
        sizes.map { $0.map { [UInt8](repeating: byte, count: $0) } }
    }

    /// What the store gives back of `key`, without what it adds to check the entry by.
    func stored(_ store: RenditionStore, _ key: String) -> StoredImages? {
        guard var images = store.lookup(key) else { return nil }
        #expect(images.key == key && images.fileHashes?.count == images.renditions.count)
        images.key = nil
        images.fileHashes = nil
        return images
    }

    @Test("an entry is stored once: a second put changes nothing")
    func putTwice() throws {
        let folder = try TemporaryFolder()
        let store = try RenditionStore(root: folder.path + "/store", create: true)
        let sizes = [[10], [20]]
        #expect(try store.put("abc", images: images(sizes), encoded: files(sizes, byte: 1)))
        #expect(try !store.put("abc", images: images(sizes), encoded: files(sizes, byte: 2)))
        #expect(stored(store, "abc") == images(sizes))
        #expect(FileManager.default.contents(atPath: store.filePath("abc", width: 800, ext: "jpg")) == Data(repeating: 1, count: 20))
        #expect(store.lookup("abd") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/store/tmp").isEmpty)
    }

    @Test("many writers of the same entry at once leave one complete entry")
    func concurrentPuts() async throws {
        let folder = try TemporaryFolder()
        let store = try RenditionStore(root: folder.path + "/store", create: true)
        let sizes = [[50_000], [120_000], [300_000]]
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for writer in 0..<8 {
                group.addTask { try store.put("same", images: images(sizes), encoded: files(sizes, byte: UInt8(writer))) }
            }
            var count = 0
            for try await wasAdded in group where wasAdded { count += 1 }
            return count
        }
        #expect(added >= 1)
        #expect(stored(store, "same") == images(sizes))
        // The files all come from one writer: never a mix.
        let bytes = try (0..<3).map { try Data(contentsOf: URL(fileURLWithPath: store.filePath("same", width: 400 * ($0 + 1), ext: "jpg"))) }
        #expect(Set(bytes.map { $0.first! }).count == 1)
        #expect(bytes.allSatisfy { Set($0).count == 1 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/store/tmp").isEmpty)
        #expect(store.entries().map(\.key) == ["same"])
    }

    @Test("a writer killed midway leaves nothing that counts; a damaged entry is replaced")
    func killedAndDamaged() throws {
        let folder = try TemporaryFolder()
        let store = try RenditionStore(root: folder.path + "/store", create: true)
        let sizes = [[10], [20]]
        // What a killed writer leaves: a half-written entry in tmp/.
        try folder.write("store/tmp/host-1-1/400.jpg", [UInt8](repeating: 9, count: 3))
        #expect(store.lookup("abc") == nil)
        #expect(store.entries().isEmpty)
        #expect(try store.put("abc", images: images(sizes), encoded: files(sizes, byte: 1)))
        // A file of the entry lost its bytes (a crash on a file system that lost them):
        // the entry does not count, and the next put replaces it.
        try Data([1]).write(to: URL(fileURLWithPath: store.filePath("abc", width: 800, ext: "jpg")))
        #expect(store.lookup("abc") == nil)
        #expect(store.summary().damaged == 1)
        #expect(try store.put("abc", images: images(sizes), encoded: files(sizes, byte: 3)))
        #expect(stored(store, "abc") == images(sizes))
        #expect(store.summary().entries == 1 && store.summary().damaged == 0)
    }

    @Test("a file changed to the same size, or two entries swapped, make the entries damaged")
    func sameSizeDamage() throws {
        let folder = try TemporaryFolder()
        let store = try RenditionStore(root: folder.path + "/store", create: true)
        let sizes = [[10], [20]]
        #expect(try store.put("one", images: images(sizes), encoded: files(sizes, byte: 1)))
        #expect(try store.put("two", images: images(sizes), encoded: files(sizes, byte: 2)))
        #expect(store.summary().damaged == 0 && store.summary().entries == 2)
        // The two entries' folders swapped: each is whole, but holds the other's images.
        let (one, two) = (store.entryPath("one"), store.entryPath("two"))
        try FileManager.default.moveItem(atPath: one, toPath: one + ".x")
        try FileManager.default.moveItem(atPath: two, toPath: one)
        try FileManager.default.moveItem(atPath: one + ".x", toPath: two)
        #expect(store.lookup("one") == nil && store.lookup("two") == nil)
        #expect(store.summary().damaged == 2 && store.summary().damagedKeys == ["one", "two"])
        guard case .damaged(let reason) = store.check("one") else { Issue.record("not damaged"); return }
        #expect(reason.contains("another photo"))
        // Put back, then one byte of a file changed, its size the same.
        try FileManager.default.moveItem(atPath: one, toPath: one + ".x")
        try FileManager.default.moveItem(atPath: two, toPath: one)
        try FileManager.default.moveItem(atPath: one + ".x", toPath: two)
        #expect(store.summary().damaged == 0)
        try Data([1, 1, 1, 1, 1, 7, 1, 1, 1, 1]).write(to: URL(fileURLWithPath: store.filePath("one", width: 400, ext: "jpg")))
        #expect(store.lookup("one", verify: false) != nil)
        #expect(store.lookup("one") == nil)
        #expect(store.summary().damaged == 1 && store.summary().entries == 1)
        // gc --verify removes it, even for a kept site; plain gc does not.
        try store.recordSite(output: "/site", keys: ["one", "two"])
        #expect(try store.collectGarbage(keep: ["/site"]).entriesRemoved == 0)
        let collected = try store.collectGarbage(keep: ["/site"], verify: true)
        #expect(collected.damagedRemoved == ["one"] && collected.entriesKept == 1)
        #expect(store.summary().damaged == 0 && store.entries().map(\.key) == ["two"])
    }

    @Test("a value read from the store that is not possible makes the entry damaged", arguments: [
        "width 0", "width -5", "width 2^63-1", "height 0", "colour url()", "colour upper case", "colour short",
        "an image wider than the photo", "an image of height 0", "widths not ascending", "an extension with a slash",
        "no file hashes", "not the photo's size",
    ])
    func impossibleValues(_ change: String) throws {
        let folder = try TemporaryFolder()
        let store = try RenditionStore(root: folder.path + "/store", create: true)
        let sizes = [[10], [20]]
        #expect(try store.put("abc", images: images(sizes), encoded: files(sizes, byte: 1)))
        #expect(store.lookup("abc", display: (800, 600)) != nil)
        let path = store.entryPath("abc") + "/images.json"
        var values = try JSONDecoder().decode(StoredImages.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        var display: (width: Int, height: Int)? = nil
        switch change {
        case "width 0": values.width = 0
        case "width -5": values.width = -5
        case "width 2^63-1": values.width = Int.max
        case "height 0": values.height = 0
        case "colour url()": values.color = "url(https://example.com/x)"
        case "colour upper case": values.color = "#A0B0C0"
        case "colour short": values.color = "#abc"
        case "an image wider than the photo": values.renditions[1].width = 801
        case "an image of height 0": values.renditions[0].height = 0
        case "widths not ascending": values.renditions[0].width = 800
        case "an extension with a slash": values.formats = ["../jpg"]
        case "no file hashes": values.fileHashes = nil
        case "not the photo's size": display = (801, 600)
        default: Issue.record("unknown change \(change)")
        }
        try JSONEncoder().encode(values).write(to: URL(fileURLWithPath: path))
        #expect(store.lookup("abc", display: display) == nil, "\(change)")
        #expect(store.summary().damaged == (display == nil ? 1 : 0), "\(change)")
    }

    @Test("a folder that is not a store is neither written into nor collected")
    func notAStore() throws {
        let folder = try TemporaryFolder()
        try folder.write("mine/notes.txt", "keep me")
        #expect(throws: SiteError.self) { try RenditionStore(root: folder.path + "/mine", create: true) }
        #expect(throws: SiteError.self) { try ShardBuilder.collectGarbage(store: folder.path + "/mine", keep: [folder.path]) }
        #expect(try folder.read("mine/notes.txt") == "keep me")
    }
}

/// Sharded builds: shards into a store, then a final build whose site is the one-machine site.
@Suite("Sharded builds")
struct ShardedBuildTests {
    /// A source with `count` photos in three albums, each different.
    func makeSource(_ count: Int = 12) throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        for index in 0..<count {
            let width = 300 + 37 * index
            let height = 200 + 53 * (index % 5)
            var image = try Image(width: width, height: height)
            image.fill(x: 0, y: 0, width: width, height: height, red: UInt8(20 * index % 256), green: 90, blue: 160)
            image.fill(x: 0, y: 0, width: width / 3, height: height / 2, red: 250, green: UInt8(11 * index % 256), blue: 10)
            try source.write(["A/", "B/", "A/C/"][index % 3] + "photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        return source
    }

    /// A Lightroom-style XMP sidecar with only a rating.
    static func ratingSidecar(_ rating: Int) -> String {
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\#(rating)"/></rdf:RDF></x:xmpmeta>"#
    }

    /// ``makeSource(_:)`` of six photos, with sidecars beside three: one rejected (-1), two rated.
    func makeSourceWithSidecars() throws -> TemporaryFolder {
        let source = try makeSource(6)
        try source.write("A/photo 0.xmp", Self.ratingSidecar(-1))
        try source.write("A/photo 3.xmp", Self.ratingSidecar(3))
        try source.write("B/photo 1.xmp", Self.ratingSidecar(5))
        return source
    }

    func options(_ source: TemporaryFolder, _ output: String, webp: Bool = false) -> SiteOptions {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output, title: "T", imageFormat: .jpeg(quality: 80), jobs: 2)
        options.tileWidths = [200, 400]
        options.photoWidths = [600]
        if webp { options.sourceFormats = [.webp(quality: 70)] }
        return options
    }

    func shard(
        _ source: TemporaryFolder, store: String, _ index: Int, of count: Int, webp: Bool = false, by assignment: ShardSpec.Assignment = .content
    ) async throws -> ShardReport {
        var spec = try ShardSpec(index: index, count: count)
        spec.assignment = assignment
        return try await ShardBuilder(options: options(source, "/unused", webp: webp), shard: spec, store: store).build()
    }

    func final(_ source: TemporaryFolder, output: String, store: String?, webp: Bool = false) async throws -> BuildReport {
        var options = options(source, output, webp: webp)
        options.storeDirectory = store
        return try await SiteBuilder(options: options).build()
    }

    func linkCount(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.referenceCount] as? NSNumber)?.intValue ?? 0
    }

    @Test("four shards and a final build make the one-machine site byte for byte, images hard-linked from the store", arguments: [false, true])
    func byteIdentical(webp: Bool) async throws {
        let source = try makeSource()
        let work = try TemporaryFolder()
        _ = try await final(source, output: work.path + "/plain", store: nil, webp: webp)
        var inShards = 0
        for index in 0..<4 {
            let report = try await shard(source, store: work.path + "/store", index, of: 4, webp: webp)
            #expect(report.photos == 12)
            #expect(report.photosMade == report.photosInShard && report.photosAlreadyStored == 0)
            inShards += report.photosInShard
        }
        #expect(inShards == 12)
        let report = try await final(source, output: work.path + "/site", store: work.path + "/store", webp: webp)
        #expect(report.photosMade == 0 && report.photosFromStore == 12)
        #expect(try snapshot(work.path + "/site") == snapshot(work.path + "/plain"))
        #expect(try !snapshot(work.path + "/site").isEmpty)
        // The images are the store's files, not copies.
        let images = files(in: work.path + "/site", withExtension: webp ? "webp" : "jpg")
        #expect(!images.isEmpty)
        for image in images { #expect(try linkCount(work.path + "/site/" + image) >= 2, "\(image) is a copy") }
        let summary = try ShardBuilder.summary(store: work.path + "/store")
        #expect(summary.entries == 12 && summary.damaged == 0 && summary.temporary == 0 && summary.sites == 1)
        #expect(summary.files == images.count * (webp ? 2 : 1))
    }

    /// Whether `/dev/shm` (a tmpfs) is another file system than the temporary folder's.
    static var sharedMemoryIsAnotherFileSystem: Bool {
        var shared = stat()
        var temporary = stat()
        return stat("/dev/shm", &shared) == 0 && stat(FileManager.default.temporaryDirectory.path, &temporary) == 0
            && shared.st_dev != temporary.st_dev
    }

    @Test("a store on another file system than the site: its images are copied", .enabled(if: sharedMemoryIsAnotherFileSystem))
    func copiedAcrossFileSystems() async throws {
        let source = try makeSource(4)
        let work = try TemporaryFolder()
        let store = "/dev/shm/cascade-test-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        _ = try await final(source, output: work.path + "/plain", store: nil)
        for index in 0..<2 { _ = try await shard(source, store: store, index, of: 2) }
        let report = try await final(source, output: work.path + "/site", store: store)
        #expect(report.photosFromStore == 4)
        #expect(try snapshot(work.path + "/site") == snapshot(work.path + "/plain"))
        let images = files(in: work.path + "/site", withExtension: "jpg")
        #expect(!images.isEmpty)
        for image in images { #expect(try linkCount(work.path + "/site/" + image) == 1) }
    }

    @Test("the final build makes what shards left undone, and a shard run again or twice at once changes nothing")
    func undoneAndRepeated() async throws {
        let source = try makeSource()
        let work = try TemporaryFolder()
        let store = work.path + "/store"
        _ = try await final(source, output: work.path + "/plain", store: nil)
        // Shard 1 of 3 twice at once, shard 0 once, shard 2 never.
        async let first = shard(source, store: store, 1, of: 3)
        async let second = shard(source, store: store, 1, of: 3)
        let (a, b) = try await (first, second)
        #expect(a.photosInShard == b.photosInShard)
        #expect(a.photosMade + a.photosAlreadyStored == a.photosInShard)
        let zero = try await shard(source, store: store, 0, of: 3)
        let again = try await shard(source, store: store, 0, of: 3)
        #expect(again.photosMade == 0 && again.photosAlreadyStored == zero.photosInShard)
        let stored = try ShardBuilder.summary(store: store).entries
        #expect(stored == a.photosInShard + zero.photosInShard)
        let report = try await final(source, output: work.path + "/site", store: store)
        #expect(report.photosFromStore == stored)
        #expect(report.photosMade == 12 - stored)
        #expect(try snapshot(work.path + "/site") == snapshot(work.path + "/plain"))
        // What the final build made is in the store as well.
        #expect(try ShardBuilder.summary(store: store).entries == 12)
        // A rebuild with nothing changed takes nothing from the store: the catalog keeps it all.
        let rebuild = try await final(source, output: work.path + "/site", store: store)
        #expect(rebuild.photosMade == 0 && rebuild.photosFromStore == 0 && rebuild.imagesWritten == 0)
    }

    @Test("shards by path read only their own photos, and make the same site")
    func byPath() async throws {
        let source = try makeSource()
        try source.write("A/not a photo.jpg", "text, not a JPEG")
        let work = try TemporaryFolder()
        _ = try await final(source, output: work.path + "/plain", store: nil)
        var inShards = 0
        var reportedBadFile = 0
        for index in 0..<3 {
            let report = try await shard(source, store: work.path + "/store", index, of: 3, by: .path)
            inShards += report.photosInShard
            #expect(report.photosMade == report.photosInShard)
            // Only the shard whose path it is reads the bad file (and says so).
            reportedBadFile += report.skipped.filter { $0.path == "A/not a photo.jpg" }.count
        }
        #expect(inShards == 12 && reportedBadFile == 1)
        let report = try await final(source, output: work.path + "/site", store: work.path + "/store")
        #expect(report.photosFromStore == 12 && report.photosMade == 0)
        #expect(try snapshot(work.path + "/site") == snapshot(work.path + "/plain"))
        // By content, every shard reads every file: each reports the bad file.
        var byContent = 0
        for index in 0..<3 {
            byContent += try await shard(source, store: work.path + "/store2", index, of: 3).skipped.filter { $0.path == "A/not a photo.jpg" }.count
        }
        #expect(byContent == 3)
    }

    @Test("the shards' records spare the final build reading the photos, and a photo changed since is read and made anew")
    func changedAfterShards() async throws {
        let source = try makeSource(8)
        let work = try TemporaryFolder()
        let store = work.path + "/store"
        for index in 0..<2 { _ = try await shard(source, store: store, index, of: 2) }
        let records = ShardScan(store: try RenditionStore(root: OutputSafety.realPath(store), create: false), source: OutputSafety.realPath(source.path)).load()
        #expect(records.count == 8)
        let photo = source.path + "/B/photo 1.jpg"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(records["B/photo 1.jpg"]?.contentHash == contentHash(bytes))
        // Changed after the shards ran: another picture of another size.
        var image = try Image(width: 640, height: 480)
        image.fill(x: 0, y: 0, width: 640, height: 480, red: 5, green: 250, blue: 5)
        try source.write("B/photo 1.jpg", try image.encoded(as: .jpeg(quality: 85)))
        // A new photo no shard saw.
        try source.write("B/new.jpg", try image.encoded(as: .jpeg(quality: 60)))
        _ = try await final(source, output: work.path + "/plain", store: nil)
        let report = try await final(source, output: work.path + "/site", store: store)
        #expect(report.photosFromStore == 7 && report.photosMade == 2)
        #expect(try snapshot(work.path + "/site") == snapshot(work.path + "/plain"))
        // Shards run again read only what changed, and the store then holds every photo.
        for index in 0..<2 { _ = try await shard(source, store: store, index, of: 2) }
        #expect(try ShardBuilder.summary(store: store).entries == 10)
    }

    @Test("shards run again read only the sidecars that changed, and a rejected photo stays out of every run")
    func sidecarsKept() async throws {
        let source = try makeSourceWithSidecars()
        let work = try TemporaryFolder()
        let store = work.path + "/store"
        func run() async throws -> (photos: Int, read: Int) {
            var (photos, read) = (0, 0)
            for index in 0..<2 {
                let report = try await shard(source, store: store, index, of: 2)
                photos = report.photos
                read += report.sidecarsRead
                #expect(report.sidecars == 3)  // (every shard takes every sidecar: the summary says how many it read)
            }
            return (photos, read)
        }
        // Shard 0 runs first and reads the three; it keeps those whose path falls in it, and
        // shard 1 after it reads the others. The rejected photo is no shard's.
        let zero = try ShardSpec(index: 0, count: 2)
        let sidecars = ["A/photo 0.xmp", "A/photo 3.xmp", "B/photo 1.xmp"]
        let keptByZero = sidecars.count { zero.contains(path: $0) }
        let first = try await run()
        #expect(first == (photos: 5, read: 3 + (3 - keptByZero)))
        // Run again: no sidecar is read, and the rejected photo is still left out (its rating
        // is the store's).
        let again = try await run()
        #expect(again == (photos: 5, read: 0))
        // One sidecar changed (the rejected photo accepted): only it is read again (by shard 1
        // too, unless shard 0 keeps it).
        try source.write("A/photo 0.xmp", Self.ratingSidecar(2))
        let changed = try await run()
        #expect(changed == (photos: 6, read: zero.contains(path: "A/photo 0.xmp") ? 1 : 2))
        // A store's sidecars file that cannot be read means reading the sidecars, not a failure.
        let scans = work.path + "/store/scans"
        for folder in try FileManager.default.contentsOfDirectory(atPath: scans) {
            for name in try FileManager.default.contentsOfDirectory(atPath: scans + "/" + folder) where name.hasSuffix(".sidecars.json") {
                try Data("{not json".utf8).write(to: URL(fileURLWithPath: scans + "/" + folder + "/" + name))
            }
        }
        let damaged = try await run()
        #expect(damaged == (photos: 6, read: 3 + (3 - keptByZero)))
    }

    @Test("the final build takes the sidecars' fields the shards kept, and its catalog keeps them for the next build")
    func finalBuildTakesTheStoresSidecars() async throws {
        let source = try makeSourceWithSidecars()
        let work = try TemporaryFolder()
        let store = work.path + "/store"
        for index in 0..<2 { _ = try await shard(source, store: store, index, of: 2) }
        var options = options(source, work.path + "/site")
        options.storeDirectory = store
        options.sidecarSettling = 0  // (the files were written just now)
        // No sidecar is read again: the store's fields leave the rejected photo out.
        let first = try await SiteBuilder(options: options).build()
        #expect(first.sidecarsRead == 0)
        #expect(first.photos == 5)
        // Built again without the store, the catalog has them.
        options.storeDirectory = nil
        let second = try await SiteBuilder(options: options).build()
        #expect(!second.upToDate)
        #expect(second.sidecarsRead == 0)
        #expect(second.photos == 5)
        // A sidecar changed since is read.
        try source.write("A/photo 0.xmp", Self.ratingSidecar(2))
        let third = try await SiteBuilder(options: options).build()
        #expect(third.sidecarsRead == 1)
        #expect(third.photos == 6)
    }

    @Test("gc keeps what the kept sites use and removes the rest; an unknown site removes nothing")
    func garbageCollection() async throws {
        let source = try makeSource(9)
        let other = try makeSource(3)
        // `other`'s photos differ from `source`'s: recolour them.
        for index in 0..<3 {
            var image = try Image(width: 500, height: 300 + index)
            image.fill(x: 0, y: 0, width: 500, height: 300 + index, red: 1, green: UInt8(200 - index), blue: 3)
            try other.write(["A/", "B/", "A/C/"][index % 3] + "photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        let work = try TemporaryFolder()
        let store = work.path + "/store"
        _ = try await final(source, output: work.path + "/one", store: store)
        _ = try await final(other, output: work.path + "/two", store: store)
        // A killed shard's leftovers, old enough to be collected.
        try work.write("store/tmp/old-1-1/400.jpg", "x")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: store + "/tmp/old-1-1")
        #expect(try ShardBuilder.summary(store: store).entries == 12)
        let before = try snapshot(store)

        #expect(throws: SiteError.self) { try ShardBuilder.collectGarbage(store: store, keep: [work.path + "/one", work.path + "/never-built"]) }
        #expect(try snapshot(store) == before)

        let result = try ShardBuilder.collectGarbage(store: store, keep: [work.path + "/one"])
        #expect(result.entriesRemoved == 3 && result.entriesKept == 9 && result.bytesFreed > 0)
        #expect(result.sitesForgotten == 1 && result.temporaryRemoved == 1)
        let summary = try ShardBuilder.summary(store: store)
        #expect(summary.entries == 9 && summary.temporary == 0 && summary.sites == 1)
        // The kept site still builds entirely from the store, and the removed site's images
        // are still in its own folder (hard links outlive the store's names).
        let rebuilt = try await final(source, output: work.path + "/three", store: store)
        #expect(rebuilt.photosMade == 0 && rebuilt.photosFromStore == 9)
        #expect(try snapshot(work.path + "/three") == snapshot(work.path + "/one"))
        #expect(!files(in: work.path + "/two", withExtension: "jpg").isEmpty)
    }

    /// The store entries of the photos at `paths` of `source`, made with the options of these tests.
    func entryKeys(_ source: TemporaryFolder, _ paths: [String]) throws -> [String] {
        let recipe = ImageRecipe(options: options(source, "/unused"))
        return try paths.map { path in
            let bytes = try [UInt8](source.data(path))
            return recipe.storeKey(hash: contentHash(bytes), size: bytes.count)
        }
    }

    @Test("damage in the store is found, reported, and made again: each photo gets its own images", arguments: [
        "two entries swapped", "a byte of an image changed", "a colour of url()", "a width of 0", "a width of 2^63-1",
    ])
    func damagedStore(_ damage: String) async throws {
        let source = try makeSource()
        let work = try TemporaryFolder()
        let store = work.path + "/store"
        _ = try await final(source, output: work.path + "/plain", store: nil)
        for index in 0..<2 { _ = try await shard(source, store: store, index, of: 2) }
        // Two photos wide enough for every width: the same images' widths, so that either's
        // entry would do for the other but for what the store now checks.
        let keys = try entryKeys(source, ["A/C/photo 11.jpg", "B/photo 10.jpg"])
        let (one, two) = (store + "/objects/" + keys[0].prefix(2) + "/" + keys[0], store + "/objects/" + keys[1].prefix(2) + "/" + keys[1])
        #expect(FileManager.default.fileExists(atPath: one) && FileManager.default.fileExists(atPath: two))
        var damaged = 1
        func edit(_ change: (inout [String: Any]) -> Void) throws {
            let url = URL(fileURLWithPath: one + "/images.json")
            var values = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            change(&values)
            try JSONSerialization.data(withJSONObject: values).write(to: url)
        }
        switch damage {
        case "two entries swapped":
            try FileManager.default.moveItem(atPath: one, toPath: one + ".x")
            try FileManager.default.moveItem(atPath: two, toPath: one)
            try FileManager.default.moveItem(atPath: one + ".x", toPath: two)
            damaged = 2
        case "a byte of an image changed":
            let image = try #require(try FileManager.default.contentsOfDirectory(atPath: one).filter { $0.hasSuffix(".jpg") }.sorted().first)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: one + "/" + image))
            bytes[bytes.count / 2] ^= 0x55
            // (Written in place: the file is not a new one.)
            let handle = try #require(FileHandle(forWritingAtPath: one + "/" + image))
            try handle.write(contentsOf: bytes)
            try handle.close()
        case "a colour of url()": try edit { $0["color"] = "url(https://example.com/track)" }
        case "a width of 0": try edit { $0["width"] = 0 }
        case "a width of 2^63-1": try edit { $0["width"] = Int.max }
        default: Issue.record("unknown damage \(damage)")
        }
        #expect(try ShardBuilder.summary(store: store).damaged == damaged, "\(damage)")
        let warnings = Events()
        var settings = options(source, work.path + "/site")
        settings.storeDirectory = store
        let report = try await SiteBuilder(options: settings).build { event in
            if case .warning = event { warnings.list.withLock { $0.append(event) } }
        }
        #expect(report.photosMade == damaged && report.photosFromStore == 12 - damaged, "\(damage)")
        #expect(try snapshot(work.path + "/site") == snapshot(work.path + "/plain"), "\(damage): the site is not the one-machine site")
        let said = warnings.list.withLock { $0.compactMap { event -> String? in if case .warning(let text) = event { text } else { nil } } }
        #expect(said.filter { $0.contains("damaged") }.count == damaged, "\(damage): \(said)")
        #expect(try !snapshot(work.path + "/site").values.contains { $0.contains("url(https://example.com") })
        // The damaged entries were replaced.
        #expect(try ShardBuilder.summary(store: store).damaged == 0)
    }

    @Test("the store may not overlap the photo folder or lie in the output folder")
    func storePlace() async throws {
        let source = try makeSource(1)
        let work = try TemporaryFolder()
        await #expect(throws: SiteError.self) { try await shard(source, store: source.path + "/store", 0, of: 1) }
        await #expect(throws: SiteError.self) { try await final(source, output: work.path + "/site", store: work.path + "/site/store") }
        #expect(!FileManager.default.fileExists(atPath: source.path + "/store"))
    }
}
