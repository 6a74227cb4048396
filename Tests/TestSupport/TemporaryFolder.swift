import Foundation

/// A temporary folder for a test, removed with the value.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL
    /// The folder's path.
    public var path: String { url.path }

    /// The cache folder of this test process: builds that keep their catalog in the default
    /// place (`$XDG_CACHE_HOME/cascade`) keep it here, not in the user's `~/.cache`. Set once,
    /// before the first temporary folder (and so the first build) is made.
    private static let testCache: Void = {
        setenv("XDG_CACHE_HOME", cachePath, 1)
        atexit { try? FileManager.default.removeItem(atPath: TemporaryFolder.cachePath) }
    }()
    private static var cachePath: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cascade-test-cache-\(getpid())").path
    }

    /// Makes a new, empty folder.
    public init() throws {
        Self.testCache
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cascade-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the folder, and the catalog tests keep beside it (`<path>-catalog.sqlite`, with
    /// SQLite's journal files), which would otherwise be left in the temporary folder.
    deinit {
        try? FileManager.default.removeItem(at: url)
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + "-catalog.sqlite" + suffix) }
    }

    /// Writes `data` to `relative` (a path inside the folder), making the folders on the way.
    public func write(_ relative: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// Writes `bytes` to `relative`.
    public func write(_ relative: String, _ bytes: [UInt8]) throws {
        try write(relative, Data(bytes))
    }

    /// Writes `text` (UTF-8) to `relative`.
    public func write(_ relative: String, _ text: String) throws {
        try write(relative, Data(text.utf8))
    }

    /// The text (UTF-8) of `relative`.
    public func read(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The bytes of `relative`.
    public func data(_ relative: String) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(relative))
    }

    /// Makes the folder `relative` (and the folders on the way).
    public func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    /// Makes a symbolic link at `relative` to `destination` (as written, relative or absolute).
    public func link(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path + "/" + relative, withDestinationPath: destination)
    }

    /// Removes `relative`.
    public func remove(_ relative: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(relative))
    }
}
