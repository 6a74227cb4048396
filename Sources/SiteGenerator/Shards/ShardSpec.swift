/// One shard of a build split over several machines or jobs: shard `index` of `count`
/// (0-based). A photo belongs to exactly one shard, chosen by its content hash, so the same
/// content (a copy, a renamed photo) always lands in the same shard, whichever machine scans it,
/// and the shards need no coordination.
///
/// With ``Assignment/path`` a photo's shard is chosen by its path instead: then a shard reads
/// only its own photos (for an archive on a shared file system, reading every photo once per
/// shard is what a content hash costs), at the price of a copy of a photo at two paths being
/// made by two shards (the store keeps one).
public struct ShardSpec: Sendable, Equatable, CustomStringConvertible {
    /// What chooses a photo's shard.
    public enum Assignment: String, Sendable, CaseIterable {
        /// The photo's content hash: every shard reads every photo to hash it.
        case content
        /// The photo's path in the photo folder: every shard reads only its own photos.
        case path
    }

    /// The shard, from 0 to `count - 1`.
    public let index: Int
    /// How many shards the build is split into.
    public let count: Int
    /// What chooses a photo's shard.
    public var assignment: Assignment = .content

    /// The largest number of shards accepted.
    public static let maximumCount = 1_000_000

    /// Shard `index` of `count`.
    public init(index: Int, count: Int) throws(ShardSpecError) {
        guard (1...Self.maximumCount).contains(count) else { throw .badCount(count) }
        guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        self.index = index
        self.count = count
    }

    /// `K/N` as `--shard` takes it.
    public var description: String { "\(index)/\(count)" }

    /// Reads `--shard`: `K/N` (shard K of N, 0-based), or `auto` for the scheduler's
    /// environment (``init(environment:)``).
    public init(parsing text: String, environment: [String: String]) throws(ShardSpecError) {
        if text == "auto" {
            try self.init(environment: environment)
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { throw .unreadable(text) }
        try self.init(index: index, count: count)
    }

    /// The shard a scheduler gives the job, from its environment:
    /// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT`, counted from
    ///   `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP` when they are set
    ///   (`--array=1-8` and `--array=0-30:10` work);
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with the job's completions in
    ///   `CASCADE_SHARD_COUNT` (Kubernetes does not pass them on: the manifest sets it);
    /// - anything else (a CI matrix, GNU parallel): `CASCADE_SHARD=K/N`.
    public init(environment: [String: String]) throws(ShardSpecError) {
        if let shard = environment["CASCADE_SHARD"] {
            try self.init(parsing: shard, environment: [:])
            return
        }
        if let id = environment["SLURM_ARRAY_TASK_ID"] {
            guard let task = Int(id) else { throw .badVariable(name: "SLURM_ARRAY_TASK_ID", value: id) }
            guard let countText = environment["SLURM_ARRAY_TASK_COUNT"], let count = Int(countText) else {
                throw .badVariable(name: "SLURM_ARRAY_TASK_COUNT", value: environment["SLURM_ARRAY_TASK_COUNT"] ?? "(not set)")
            }
            let minimum = try Self.number(environment, "SLURM_ARRAY_TASK_MIN") ?? 0
            let step = try Self.number(environment, "SLURM_ARRAY_TASK_STEP") ?? 1
            guard step > 0, task >= minimum, (task - minimum) % step == 0 else {
                throw .irregularArray(task: task, minimum: minimum, step: step)
            }
            try self.init(index: (task - minimum) / step, count: count)
            return
        }
        if let completion = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(completion) else { throw .badVariable(name: "JOB_COMPLETION_INDEX", value: completion) }
            guard let countText = environment["CASCADE_SHARD_COUNT"], let count = Int(countText) else {
                throw .badVariable(name: "CASCADE_SHARD_COUNT", value: environment["CASCADE_SHARD_COUNT"] ?? "(not set; set it to the Job's completions)")
            }
            try self.init(index: index, count: count)
            return
        }
        throw .noScheduler
    }

    private static func number(_ environment: [String: String], _ name: String) throws(ShardSpecError) -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text) else { throw .badVariable(name: name, value: text) }
        return value
    }

    /// Whether the photo whose content hash (16 hex digits, ``contentHash(_:)``) is `hash`
    /// belongs to this shard.
    public func contains(contentHash hash: String) -> Bool {
        Self.slot(of: hash, count: count) == index
    }

    /// Whether the photo at `path` (relative to the photo folder) belongs to this shard, by
    /// its path (``Assignment/path``).
    public func contains(path: String) -> Bool {
        var hasher = FingerprintHasher()
        hasher.combine(path)
        return Self.slot(of: hasher.hex, count: count) == index
    }

    /// The shard of `hash` among `count`: the hash's 64 bits, mixed (SplitMix64's finaliser, so
    /// that every bit of the hash counts), modulo `count`.
    static func slot(of hash: String, count: Int) -> Int {
        var value = UInt64(hash, radix: 16) ?? {
            var hasher = FingerprintHasher()
            hasher.combine(hash)
            return UInt64(hasher.hex, radix: 16)!
        }()
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        value ^= value >> 31
        return Int(value % UInt64(count))
    }
}

/// Why a shard cannot be told.
public enum ShardSpecError: Error, CustomStringConvertible, Equatable, Sendable {
    case unreadable(String)
    case badCount(Int)
    case indexOutOfRange(index: Int, count: Int)
    case badVariable(name: String, value: String)
    case irregularArray(task: Int, minimum: Int, step: Int)
    case noScheduler

    public var description: String {
        switch self {
        case .unreadable(let text): "--shard must be K/N (shard K of N, counted from 0) or auto, not \(text)"
        case .badCount(let count): "the shard count must be from 1 to \(ShardSpec.maximumCount), not \(count)"
        case .indexOutOfRange(let index, let count): "shard \(index) does not exist among \(count) shards (they are 0 to \(count - 1))"
        case .badVariable(let name, let value): "\(name) must be a whole number, not \(value)"
        case .irregularArray(let task, let minimum, let step):
            "Slurm array task \(task) is not one of \(minimum), \(minimum + step), ...: give the array as a range (--array=0-7 or 0-70:10)"
        case .noScheduler:
            "--shard auto found no shard in the environment: run it as a Slurm job array (SLURM_ARRAY_TASK_ID), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX with CASCADE_SHARD_COUNT), or set CASCADE_SHARD=K/N"
        }
    }
}
