import Dispatch
import Synchronization

/// One named step of a build: a body over the build's context, which the steps before it
/// filled in and which it fills in for the steps after it. Steps are run in order by a
/// ``StepRunner`` (the shape of Publish's `PublishingStep` and `PublishingPipeline`): what is
/// common to every step (its time for `--verbose`, cancellation, freeing what is no longer
/// needed) is the runner's, so that a step's body is only its own work.
struct BuildStep<Context>: Sendable {
    /// What a step's body found.
    enum Outcome: Sendable {
        /// The step did its work.
        case done
        /// The step had nothing to do (the search index of a site without one): it has no line
        /// of its own in `--verbose` output, its little time goes into the next step's.
        case skipped
        /// The build ends here, with nothing more to do (the site is up to date); the step's
        /// time is reported under `stage`.
        case endsBuild(stage: String)
    }

    /// How a step's time is reported (``BuildEvent/stage(_:seconds:processorSeconds:)``).
    enum Timing: Sendable {
        /// On a line of its own, under the step's name.
        case own
        /// With the next timed step's (what `--verbose` has always shown as one stage).
        case withNext
    }

    typealias Body = @Sendable (inout Context) async throws(SiteError) -> Outcome
    /// Takes out of the context what the build no longer needs once the step is done (a large
    /// library's earlier records): the runner frees it on another thread.
    typealias Release = @Sendable (inout Context) -> (any Sendable)?

    fileprivate enum Kind: Sendable {
        case operation(Body, Release?)
        /// Steps timed as one stage, under the group's name.
        case group([BuildStep])
    }

    /// The step's name: the label of its time in `--verbose` output.
    let name: String
    let timing: Timing
    fileprivate let kind: Kind

    private init(_ name: String, timing: Timing, releasing: Release?, outcome body: @escaping Body) {
        self.name = name
        self.timing = timing
        kind = .operation(body, releasing)
    }

    /// A step that always does its work.
    init(
        _ name: String, timing: Timing = .own, releasing: Release? = nil,
        body: @escaping @Sendable (inout Context) async throws(SiteError) -> Void
    ) {
        self.init(name, timing: timing, releasing: releasing, outcome: { (context: inout Context) async throws(SiteError) -> Outcome in
            try await body(&context)
            return .done
        })
    }

    /// A step whose body may end the build or have nothing to do (``Outcome``).
    static func withOutcome(_ name: String, timing: Timing = .own, releasing: Release? = nil, body: @escaping Body) -> BuildStep {
        BuildStep(name, timing: timing, releasing: releasing, outcome: body)
    }

    private init(group name: String, _ steps: [BuildStep]) {
        self.name = name
        timing = .own
        kind = .group(steps)
    }

    /// `steps`, run in order, timed as one stage named `name`.
    static func group(_ name: String, _ steps: [BuildStep]) -> BuildStep {
        BuildStep(group: name, steps)
    }
}

/// Runs a build's steps in order over one context (``BuildStep``). After each step it reports
/// the step's time through a ``StageClock`` (for `--verbose`), frees on another thread what the
/// step let go of, and stops the build when its task was cancelled: a step that has begun
/// runs to its end, the next one does not begin.
struct StepRunner<Context> {
    private var clock: StageClock
    private let progress: @Sendable (BuildEvent) -> Void
    /// How what the steps let go of is freed (on another thread; the tests watch it).
    private let free: @Sendable (any Sendable) -> Void

    /// A runner whose clock starts now: the first step's time counts from here (a build's
    /// checks of its options and its lock come before its first step).
    init(progress: @escaping @Sendable (BuildEvent) -> Void,
         free: @escaping @Sendable (any Sendable) -> Void = { releaseInBackground($0) }) {
        clock = StageClock()
        self.progress = progress
        self.free = free
    }

    /// One step of the list, as it is run: with the stage its time ends, if any.
    private struct Runnable {
        var name: String
        var body: BuildStep<Context>.Body
        var release: BuildStep<Context>.Release?
        /// The stage whose time ends with this step: its own name, or its group's when it is
        /// the group's last.
        var lap: String?
        /// Whether `lap` is the step's own (not its group's): a skipped step has no line.
        var ownLap: Bool
    }

    private static func runnable(_ steps: [BuildStep<Context>]) -> [Runnable] {
        steps.flatMap { step -> [Runnable] in
            switch step.kind {
            case .operation(let body, let release):
                return [Runnable(name: step.name, body: body, release: release,
                                 lap: step.timing == .own ? step.name : nil, ownLap: true)]
            case .group(let members):
                var runnable = Self.runnable(members).map { member in
                    var member = member
                    member.lap = nil
                    return member
                }
                if !runnable.isEmpty {
                    runnable[runnable.count - 1].lap = step.name
                    runnable[runnable.count - 1].ownLap = false
                }
                return runnable
            }
        }
    }

    /// Runs `steps` in order over `context`. Returns whether a step ended the build
    /// (``BuildStep/Outcome/endsBuild(stage:)``); throws ``SiteError/cancelled`` when the task
    /// was cancelled before a step began.
    mutating func run(_ steps: [BuildStep<Context>], on context: inout Context) async throws(SiteError) -> Bool {
        for step in Self.runnable(steps) {
            if Task.isCancelled { throw .cancelled }
            let outcome = try await step.body(&context)
            switch outcome {
            case .endsBuild(let stage):
                progress(clock.lap(stage))
            case .skipped where step.ownLap:
                break
            case .done, .skipped:
                if let lap = step.lap { progress(clock.lap(lap)) }
            }
            if let release = step.release, let value = release(&context) { free(value) }
            if case .endsBuild = outcome { return true }
        }
        return false
    }
}

/// Lets go of `value` on another thread: it is held by a box the thread empties, so its last
/// reference is dropped there whichever of the two threads gets there first.
func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
    HeldForRelease(consume value).releaseInBackground()
}

/// A value on its way to be freed on another thread: the box is all the caller keeps.
final class HeldForRelease<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>
    init(_ value: consuming Value) { self.value = Mutex(value) }
    /// Frees the value (on the thread that calls this).
    func release() { value.withLock { $0 = nil } }
    /// Frees the value on another thread.
    func releaseInBackground() { DispatchQueue.global(qos: .utility).async { self.release() } }
}
