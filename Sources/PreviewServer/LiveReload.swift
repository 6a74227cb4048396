import Foundation
import Synchronization

/// The live-reload channel between the preview server and the open pages.
///
/// Every page the preview server sends gets a small script (``LiveReload/scriptPath``) that
/// long-polls ``LiveReload/pollPath`` with the version the page was served at. The request
/// is answered as soon as the version differs, or after a timeout with the same version, and
/// the script reloads the page when the answer differs from its own version. Call
/// ``signal()`` after every successful rebuild.
///
/// A version is a random token of this server's run plus a counter, so pages opened before the
/// server restarted reload too once it is back.
public final class LiveReload: Sendable {
    /// The reserved path prefix: requests below it never reach the site's files. No site file
    /// can be there: a slug never holds a `.`, and names starting with `.cascade` are never
    /// served (``SiteFileOpener``).
    public static let reservedPrefix = "/.cascade/"
    /// The long-poll endpoint: `GET /.cascade/reload?version=V` answers `{"version":"W"}`.
    public static let pollPath = "/.cascade/reload"
    /// The script the preview server adds to every HTML page it serves.
    public static let scriptPath = "/.cascade/live-reload.js"
    /// The prefix of earlier releases (`/__cascade/`), which an album named `__cascade` can
    /// take: it still answers, for pages opened before an upgrade, where the site has nothing
    /// at the path asked for.
    static let legacyPrefix = "/__cascade/"

    private struct State {
        var counter = 0
        var closed = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Threads in ``waitForVersion(after:timeout:clientHasGone:)`` (held reload polls).
        var waitingThreads = 0
    }

    private let run: String
    private let state = Mutex(State())
    /// Wakes the preview server's threads that hold reload polls (see ``waitForVersion``).
    private let condition = NSCondition()

    /// Creates a channel at its first version.
    public init() {
        run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// The current version: changes at every ``signal()``.
    public var version: String {
        state.withLock { "\(run)-\($0.counter)" }
    }

    /// Tells every waiting page to reload (call after a successful rebuild).
    public func signal() {
        let waiters = state.withLock { state in
            state.counter += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
        wakeThreads()
    }

    /// Answers every waiting poll now and every later one at once (for shutting down).
    public func close() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
        wakeThreads()
    }

    /// Waits until the version differs from `known`, the timeout passes, the channel is closed
    /// or the task is cancelled, and returns the version then.
    public func nextVersion(after known: String?, timeout: Duration) async -> String {
        guard let known, known == version else { return version }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSignal(after: known) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return version
    }

    /// Blocks the calling thread until the version differs from `known`, the timeout passes,
    /// the channel is closed or `clientHasGone` (asked about once a second) says so; returns
    /// the version then. For the preview server's connection threads.
    func waitForVersion(after known: String?, timeout: Duration, clientHasGone: () -> Bool) -> String {
        guard let known, known == version else { return version }
        let deadline = ContinuousClock.now + timeout
        condition.lock()
        defer { condition.unlock() }
        // Counted under the condition's lock: a signal seen after the count went up wakes
        // this thread or is seen by its next check of the version.
        state.withLock { $0.waitingThreads += 1 }
        defer { state.withLock { $0.waitingThreads -= 1 } }
        while version == known, !isClosed, !clientHasGone() {
            let remaining = deadline - .now
            guard remaining > .zero else { break }
            let slice = min(remaining, .seconds(1))
            let seconds = Double(slice.components.seconds) + Double(slice.components.attoseconds) / 1e18
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        return version
    }

    private func wakeThreads() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Suspends until the next ``signal()`` (or ``close()``, or cancellation), unless the
    /// version already differs from `known`.
    private func waitForSignal(after known: String) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.closed || "\(run)-\(state.counter)" != known || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// The `<script>` element added to served pages.
    func scriptTag() -> String {
        #"<script src="\#(Self.scriptPath)" data-version="\#(version)" defer></script>"#
    }

    /// Adds the live-reload script to an HTML page: before its last `</body>`, or at its end.
    func inject(into html: Data) -> Data {
        let tag = Data((scriptTag() + "\n").utf8)
        let closing = Data("</body>".utf8)
        // Search case-insensitively from the end: `</BODY>` is valid HTML too.
        let lowered = Data(html.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 })
        guard let range = lowered.range(of: closing, options: .backwards) else { return html + tag }
        var result = html
        result.insert(contentsOf: tag, at: range.lowerBound)
        return result
    }

    /// The script's text: poll, reload when the version changes, retry after a second when the
    /// server is away.
    static let script = """
        // Added by `cascade serve` only; the written site never contains it.
        (function () {
          "use strict";
          var script = document.currentScript;
          var version = script ? script.getAttribute("data-version") : null;
          function poll(delay) {
            setTimeout(function () {
              fetch("\(pollPath)?version=" + encodeURIComponent(version || ""), { cache: "no-store" })
                .then(function (response) {
                  if (!response.ok) throw new Error("HTTP " + response.status);
                  return response.json();
                })
                .then(function (answer) {
                  if (version !== null && answer.version !== version) { location.reload(); return; }
                  version = answer.version;
                  poll(answer.closing ? 1000 : 0);
                })
                .catch(function () { poll(1000); });
            }, delay);
          }
          poll(0);
        })();

        """

    /// Whether ``close()`` was called.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// How many waits for a new version are under way (tasks in ``nextVersion(after:timeout:)``
    /// that are suspended, threads holding reload polls): for tests, which wait until a poll is
    /// held before they signal, instead of sleeping and hoping it is.
    var waitingCount: Int { state.withLock { $0.waiters.count + $0.waitingThreads } }
}
