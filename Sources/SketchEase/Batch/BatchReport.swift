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
        public var outcome: Outcome
        /// Wall time for this photo.
        public var seconds: Double
        public var stages: StageTimes = .init()
    }

    public var entries: [Entry] = []
    /// Inputs rejected before processing (a missing path, an unreadable folder).
    public var inputProblems: [PhotoError] = []
    /// Photos never started because the batch was stopped (Ctrl-C).
    public var notStarted = 0

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

    public var succeeded: Bool { failures.isEmpty && notStarted == 0 }

    /// "3 written, 1 skipped (already there), 2 failed".
    public var summary: String {
        var parts = ["\(written) written"]
        if skipped > 0 { parts.append("\(skipped) skipped (output exists; --overwrite replaces)") }
        if !failures.isEmpty { parts.append("\(failures.count) failed") }
        if notStarted > 0 { parts.append("\(notStarted) not started") }
        return parts.joined(separator: ", ")
    }
}
