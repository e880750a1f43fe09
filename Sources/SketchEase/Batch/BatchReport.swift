/// What happened to each photo of a batch.
public struct BatchReport: Sendable {
    public enum Outcome: Sendable, Equatable {
        case written(output: String, faces: Int)
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

    public var written: Int { entries.filter { if case .written = $0.outcome { true } else { false } }.count }
    public var skipped: Int { entries.filter { if case .skipped = $0.outcome { true } else { false } }.count }
    public var failures: [PhotoError] {
        inputProblems + entries.compactMap { if case .failed(let e) = $0.outcome { e } else { nil } }
    }

    public var succeeded: Bool { failures.isEmpty }

    /// "3 written, 1 skipped (already there), 2 failed".
    public var summary: String {
        var parts = ["\(written) written"]
        if skipped > 0 { parts.append("\(skipped) skipped (output exists; --overwrite replaces)") }
        if !failures.isEmpty { parts.append("\(failures.count) failed") }
        return parts.joined(separator: ", ")
    }
}
