import Foundation
import Imaging
import Synchronization
import Testing
import TestSupport

@testable import Catalog
@testable import SiteGenerator

/// The build as a list of named steps (``BuildStep``) run by a ``StepRunner``: in order, each
/// step's time reported under its stage's name, cancellation between steps, and what a step
/// lets go of freed by the runner.
@Suite("Build steps and their runner")
struct BuildStepTests {
    /// A context of a few steps: what they did, in order, and a value one of them lets go of.
    struct Context {
        var log: [String] = []
        var held: [Int]?
    }

    /// A step that notes its name in the context's log.
    static func noting(_ name: String, timing: BuildStep<Context>.Timing = .own) -> BuildStep<Context> {
        BuildStep(name, timing: timing) { (context: inout Context) throws(SiteError) in context.log.append(name) }
    }

    /// The stages' names of `events`, in order.
    static func stages(_ events: Events) -> [String] {
        events.list.withLock { list in
            list.compactMap { event in
                if case .stage(let name, _, _) = event { return name }
                return nil
            }
        }
    }

    @Test("Steps run in order; each timed step, and each group, reports one stage; a skipped or untimed step none of its own")
    func orderAndStages() async throws {
        let events = Events()
        var runner = StepRunner<Context>(progress: { event in events.list.withLock { $0.append(event) } })
        var context = Context()
        let skipped = BuildStep<Context>.withOutcome("skipped") { (context: inout Context) throws(SiteError) -> BuildStep<Context>.Outcome in
            context.log.append("skipped")
            return .skipped
        }
        let ended = try await runner.run([
            Self.noting("a"),
            Self.noting("b", timing: .withNext),
            .group("g", [Self.noting("c"), Self.noting("d")]),
            skipped,
            Self.noting("e"),
            Self.noting("f", timing: .withNext),
        ], on: &context)
        #expect(!ended)
        #expect(context.log == ["a", "b", "c", "d", "skipped", "e", "f"])
        // "b" is timed with the group's stage; "c" and "d" as the group; "f", last, is not timed.
        #expect(Self.stages(events) == ["a", "g", "e"])
    }

    @Test("A step that ends the build reports its stage and no later step runs")
    func endsBuild() async throws {
        let events = Events()
        var runner = StepRunner<Context>(progress: { event in events.list.withLock { $0.append(event) } })
        var context = Context()
        let check = BuildStep<Context>.withOutcome("check") { (context: inout Context) throws(SiteError) -> BuildStep<Context>.Outcome in
            context.log.append("check")
            return .endsBuild(stage: "nothing to do")
        }
        let ended = try await runner.run([Self.noting("a"), check, Self.noting("b")], on: &context)
        #expect(ended)
        #expect(context.log == ["a", "check"])
        #expect(Self.stages(events) == ["a", "nothing to do"])
    }

    @Test("A cancelled build stops before the next step: the step under way ends, the next does not begin")
    func cancellation() async throws {
        let events = Events()
        let task = Task { () throws(SiteError) -> Context in
            var runner = StepRunner<Context>(progress: { event in events.list.withLock { $0.append(event) } })
            var context = Context()
            let cancelling = BuildStep<Context>("cancelling") { (context: inout Context) throws(SiteError) in
                withUnsafeCurrentTask { $0?.cancel() }
                context.log.append("cancelling")
            }
            _ = try await runner.run([Self.noting("a"), cancelling, Self.noting("b"), Self.noting("c")], on: &context)
            return context
        }
        let result = await task.result
        #expect(throws: SiteError.cancelled) { try result.get() }
        #expect(Self.stages(events) == ["a", "cancelling"])
    }

    @Test("What a step lets go of is taken out of the context after it and handed to the runner to free")
    func release() async throws {
        let freed = Mutex<[[Int]]>([])
        var runner = StepRunner<Context>(progress: { _ in }, free: { value in
            freed.withLock { $0.append(value as! [Int]) }
        })
        var context = Context()
        let holding = BuildStep<Context>("holding", releasing: { $0.held.take() }) { (context: inout Context) throws(SiteError) in
            context.held = [1, 2, 3]
            context.log.append("holding")
        }
        let after = BuildStep<Context>("after") { (context: inout Context) throws(SiteError) in
            context.log.append(context.held == nil ? "after: let go of" : "after: still held")
        }
        _ = try await runner.run([holding, after], on: &context)
        #expect(context.log == ["holding", "after: let go of"])
        #expect(freed.withLock { $0 } == [[1, 2, 3]])
    }

    @Test("A site's build reports its stages in order; a second build, with nothing changed, one")
    func siteStages() async throws {
        let source = try TemporaryFolder()
        for index in 0..<3 {
            var image = try Image(width: 300 + 10 * index, height: 200)
            image.fill(x: 0, y: 0, width: 300 + 10 * index, height: 200, red: UInt8(60 * index), green: 90, blue: 160)
            try source.write("A/photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        let output = try TemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output.path + "-catalog.sqlite") }
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  imageFormat: .jpeg(quality: 82), jobs: 2)
        options.tileWidths = [100]
        options.photoWidths = [300]
        options.catalogPath = output.path + "-catalog.sqlite"
        // (A base URL: the sitemap and the feed are written, in the pages' stage.)
        options.baseURL = "https://example.com/"
        let first = Events()
        _ = try await SiteBuilder(options: options).build { event in first.list.withLock { $0.append(event) } }
        #expect(Self.stages(first) == ["up-to-date check", "catalog read", "scan", "plan", "images", "pages", "clean-up and catalog"])
        #expect(FileManager.default.fileExists(atPath: output.path + "/sitemap.xml"))
        let second = Events()
        let report = try await SiteBuilder(options: options).build { event in second.list.withLock { $0.append(event) } }
        #expect(report.upToDate)
        #expect(Self.stages(second) == ["up to date"])
    }

    @Test("The up-to-date check and the image plan write nothing; the staging step forgets the last build, links the files a move takes and prepares the catalog")
    func planThenStaging() async throws {
        let source = try TemporaryFolder()
        for index in 0..<2 {
            var image = try Image(width: 300 + 10 * index, height: 200)
            image.fill(x: 0, y: 0, width: 300 + 10 * index, height: 200, red: UInt8(90 * index), green: 90, blue: 160)
            try source.write("A/photo \(index).jpg", try image.encoded(as: .jpeg(quality: 85)))
        }
        let output = try TemporaryFolder()
        let catalogPath = output.path + "-catalog.sqlite"
        defer { try? FileManager.default.removeItem(atPath: catalogPath) }
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T",
                                  imageFormat: .jpeg(quality: 82), jobs: 2)
        options.tileWidths = [100]
        options.photoWidths = [300]
        options.catalogPath = catalogPath
        _ = try await SiteBuilder(options: options).build()
        // Renamed: its images are moved.
        try FileManager.default.moveItem(atPath: source.path + "/A/photo 0.jpg", toPath: source.path + "/A/renamed.jpg")

        // The steps up to the plan, on their own.
        let (sourcePath, outputPath) = try OutputSafety.resolve(source: source.path, output: output.path)
        let catalog = try Catalog(path: catalogPath, source: sourcePath, output: outputPath) { Issue.record("\($0)") }
        var context = BuildContext(options: options, source: sourcePath, output: outputPath, theme: try Theme(overrides: nil),
                                   jobs: 2, catalog: catalog, catalogReadAhead: nil, progress: { _ in })
        var runner = StepRunner<BuildContext>(progress: { _ in })
        _ = try await runner.run([.upToDateCheck, .readCatalog, .scan, .planImages], on: &context)
        let temporary = outputPath + "/" + SiteWriter.temporaryFolder
        func staged() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] }
        func recorded(_ path: String) throws -> Bool { try catalog.snapshotAndFileSet(fileSet: false).manifest.photos[path] != nil }
        let plan = try #require(context.imagePlan)
        #expect(plan.toStage.count == 1)
        #expect(plan.staged.isEmpty)
        #expect(staged().isEmpty)
        #expect(try recorded("A/photo 0.jpg"), "the plan told the catalog")
        #expect(catalog.lastBuild() != nil, "the check and the plan keep the last build's summary")

        _ = try await runner.run([.stageImages], on: &context)
        #expect(catalog.lastBuild() == nil, "staging, the first write, forgets it")
        #expect(context.imagePlan.staged.count == 2)
        #expect(staged().count == 2)
        #expect(try !recorded("A/photo 0.jpg"))
        SiteWriter(root: outputPath).removeTemporaryFiles()
    }
}
