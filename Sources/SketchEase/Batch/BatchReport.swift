/// What happened to each photo of a batch.
public struct BatchReport: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Written, with this many faces found, of which `small` are too small to sketch well.
        case written(output: String, faces: Int, small: Int)
        case skipped(output: String)
        case failed(PhotoError)
    }

    public struct Entry: Sendable {
        public var input: String
        /// The photo's path relative to its folder (what shards are chosen by).
        public var relativePath: String
        public var outcome: Outcome
        /// Wall time for this photo.
        public var seconds: Double
        public var stages: StageTimes = .init()
        /// The photo's transparent parts were put onto white: its result's format (JPEG) has no alpha.
        public var flattened = false
    }

    public var entries: [Entry] = []
    /// Inputs rejected before processing (a missing path, an unreadable folder).
    public var inputProblems: [PhotoError] = []
    /// Photos never started because the batch was stopped (Ctrl-C).
    public var notStarted = 0

    /// Photos whose transparency was lost to the results' format (JPEG): put onto white.
    public var flattened: [String] { entries.filter(\.flattened).map(\.input) }

    public var written: Int { entries.filter { if case .written = $0.outcome { true } else { false } }.count }
    public var skipped: Int { entries.filter { if case .skipped = $0.outcome { true } else { false } }.count }
    public var failures: [PhotoError] {
        inputProblems + entries.compactMap { if case .failed(let e) = $0.outcome { e } else { nil } }
    }
    /// Photos written as they were, no face having been found in them.
    public var withoutFaces: [String] {
        entries.compactMap { if case .written(_, 0, _) = $0.outcome { $0.input } else { nil } }
    }
    /// (photo, how many of its faces are too small to sketch well), for photos with any.
    public var withSmallFaces: [(input: String, small: Int)] {
        entries.compactMap { if case .written(_, _, let small) = $0.outcome, small > 0 { ($0.input, small) } else { nil } }
    }

    public var succeeded: Bool { totals.succeeded }

    /// "3 written, 1 skipped (output exists; --overwrite replaces), 2 failed".
    public var summary: String { totals.summary }

    public var totals: BatchTotals {
        BatchTotals(written: written, skipped: skipped, failed: failures.count, notStarted: notStarted)
    }
}

/// How many photos of a batch (or of several shards of it) came to what: one summary line.
public struct BatchTotals: Sendable, Equatable, Codable {
    public var written: Int
    public var skipped: Int
    public var failed: Int
    public var notStarted: Int

    enum CodingKeys: String, CodingKey { case written, skipped, failed, notStarted = "not_started" }

    public var succeeded: Bool { failed == 0 && notStarted == 0 }

    /// "3 written, 1 skipped (output exists; --overwrite replaces), 2 failed".
    public var summary: String {
        var parts = ["\(written) written"]
        if skipped > 0 { parts.append("\(skipped) skipped (output exists; --overwrite replaces)") }
        if failed > 0 { parts.append("\(failed) failed") }
        if notStarted > 0 { parts.append("\(notStarted) not started") }
        return parts.joined(separator: ", ")
    }
}
