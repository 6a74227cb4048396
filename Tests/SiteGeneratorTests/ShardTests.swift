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
            width: 900, height: 600, color: "#102030",
            renditions: sizes.indices.map { StoredImages.Size(width: 400 * ($0 + 1), height: 300 * ($0 + 1)) },
            formats: ["jpg"], fileSizes: sizes, warnings: [])
    }

    func files(_ sizes: [[Int]], byte: UInt8) -> [[[UInt8]]] {
        sizes.map { $0.map { [UInt8](repeating: byte, count: $0) } }
    }

    @Test("an entry is stored once: a second put changes nothing")
    func putTwice() throws {
        let folder = try TemporaryFolder()
        let store = try RenditionStore(root: folder.path + "/store", create: true)
        let sizes = [[10], [20]]
        #expect(try store.put("abc", images: images(sizes), encoded: files(sizes, byte: 1)))
        #expect(try !store.put("abc", images: images(sizes), encoded: files(sizes, byte: 2)))
        #expect(store.lookup("abc") == images(sizes))
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
        #expect(store.lookup("same") == images(sizes))
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
        #expect(store.lookup("abc") == images(sizes))
        #expect(store.summary().entries == 1 && store.summary().damaged == 0)
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

    @Test("the store may not overlap the photo folder or lie in the output folder")
    func storePlace() async throws {
        let source = try makeSource(1)
        let work = try TemporaryFolder()
        await #expect(throws: SiteError.self) { try await shard(source, store: source.path + "/store", 0, of: 1) }
        await #expect(throws: SiteError.self) { try await final(source, output: work.path + "/site", store: work.path + "/site/store") }
        #expect(!FileManager.default.fileExists(atPath: source.path + "/store"))
    }
}
