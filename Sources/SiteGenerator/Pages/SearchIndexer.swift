import Foundation

/// The program that makes the site's search index: Pagefind, as a command and its first
/// arguments. Found (``locate(environment:)``) as `pagefind` on the `PATH`, else as the Python
/// package `pagefind_bin` (PyPI's `pagefind-bin`, which installs no `pagefind` command, only
/// the module) run by the `python3` on the `PATH`.
public struct SearchIndexer: Sendable, Hashable {
    /// The program (absolute) and the arguments before Pagefind's own.
    public var command: [String]

    /// An indexer run as `command` followed by Pagefind's arguments.
    public init(command: [String]) {
        self.command = command
    }

    /// Pagefind from the `PATH` of `environment`: the `pagefind` command, else `python3 -m
    /// pagefind_bin` when that Python has the module; nil when neither is there.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> SearchIndexer? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ name: String) -> String? {
            folders.lazy.map { ($0.isEmpty ? "." : $0) + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if let pagefind = find("pagefind") { return SearchIndexer(command: [pagefind]) }
        guard let python = find("python3") else { return nil }
        // (Asked without importing it: the module's import does nothing, but a check should not
        // depend on that.)
        let check = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('pagefind_bin') else 1)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", check]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return SearchIndexer(command: [python, "-m", "pagefind_bin"])
    }

    /// What a user without Pagefind is told to do.
    public static let installHint = "install Pagefind (pip install pagefind-bin, or put the pagefind program on the PATH), or set search: false in cascade.yml"
}
