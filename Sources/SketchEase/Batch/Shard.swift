import Foundation

/// One of N parts of a batch, so that N independent runs (on several machines, under any
/// scheduler) share the photos: each photo belongs to exactly one shard, by a stable hash of its
/// path relative to the folder it was found in, whatever the listing order or the machine.
/// N runs over the same inputs write disjoint outputs that together equal one run.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw ShardError("the number of shards must be at least 1 (got \(count))") }
        guard (1...count).contains(index) else {
            throw ShardError("shard \(index) of \(count) does not exist: shards are numbered 1 to \(count)")
        }
        self.index = index; self.count = count
    }

    /// "K/N" (K from 1 to N), "auto" or "auto/N": `auto` takes the index (and count) from a
    /// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, counted from 0; N from "auto/N") or a
    /// Slurm array (`SLURM_ARRAY_TASK_ID` relative to `SLURM_ARRAY_TASK_MIN`, and
    /// `SLURM_ARRAY_TASK_COUNT`).
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let first = parts.first else { throw ShardError("expected K/N, auto or auto/N (got '\(text)')") }
        let givenCount: Int? = parts.count == 2 ? Int(parts[1]) : nil
        if parts.count == 2, givenCount == nil { throw ShardError("expected K/N, auto or auto/N (got '\(text)')") }
        if first != "auto" {
            guard let k = Int(first), let n = givenCount else { throw ShardError("expected K/N, auto or auto/N (got '\(text)')") }
            try self.init(index: k, count: n)
            return
        }
        if let job = environment["JOB_COMPLETION_INDEX"] {
            guard let i = Int(job) else { throw ShardError("JOB_COMPLETION_INDEX is not a number ('\(job)')") }
            guard let n = givenCount else {
                throw ShardError("a Kubernetes job does not say how many shards there are: use --shard auto/N (N = completions)")
            }
            try self.init(index: i + 1, count: n)
        } else if let task = environment["SLURM_ARRAY_TASK_ID"] {
            let low = Int(environment["SLURM_ARRAY_TASK_MIN"] ?? "0") ?? 0
            guard let id = Int(task), let n = givenCount ?? environment["SLURM_ARRAY_TASK_COUNT"].flatMap(Int.init) else {
                throw ShardError("SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT are not numbers")
            }
            try self.init(index: id - low + 1, count: n)
        } else {
            throw ShardError("--shard auto needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm array)")
        }
    }

    /// Whether `file` is this shard's to do.
    public func contains(_ file: InputFile) -> Bool {
        Int(Self.hash(file.relativePath) % UInt64(count)) == index - 1
    }

    /// FNV-1a, 64 bits, of the UTF-8 bytes: the same for a path on every machine and version.
    static func hash(_ text: String) -> UInt64 {
        FNV1a.of(text.utf8)
    }

    public var description: String { "\(index)/\(count)" }
}

/// A `--shard` value that cannot be used, in one line.
public struct ShardError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
