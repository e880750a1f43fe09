import Foundation

/// The `--report` file of a batch, or of one shard of it: what happened to each photo (status,
/// faces, timings, the error), and the totals. The reports of N shards merge into the summary
/// one run over all the photos would have given.
public struct BatchReportFile: Sendable, Equatable, Codable {
    public static let format = "sketchease-batch-report"
    public static let currentVersion = 1

    public struct Photo: Sendable, Equatable, Codable {
        public var input: String
        /// Relative to the folder it was found in: the same in every shard's report.
        public var relativePath: String
        public var output: String?
        /// "written", "skipped" or "failed".
        public var status: String
        public var faces: Int?
        /// Faces too small to sketch well.
        public var small: Int?
        public var seconds: Double
        public var stages: StageTimes
        public var error: String?

        enum CodingKeys: String, CodingKey { case input, relativePath = "relative_path", output, status, faces, small, seconds, stages, error }
    }

    public var format = BatchReportFile.format
    public var version = BatchReportFile.currentVersion
    /// "2/7" for one shard's report, nil for a whole batch (or a merge of every shard).
    public var shard: String?
    public var totals: BatchTotals
    public var photos: [Photo]
    /// Inputs that could not be used before any photo was opened (a missing path): every shard
    /// meets them, so a merge counts each once.
    public var inputProblems: [String]

    enum CodingKeys: String, CodingKey { case format, version, shard, totals, photos, inputProblems = "input_problems" }

    public init(report: BatchReport, shard: Shard?) {
        self.shard = shard?.description
        totals = report.totals
        inputProblems = report.inputProblems.map(\.description)
        photos = report.entries.map { entry in
            var photo = Photo(input: entry.input, relativePath: entry.relativePath, status: "failed",
                              seconds: Rounding.decimals(entry.seconds, 3), stages: entry.stages)
            switch entry.outcome {
            case .written(let output, let faces, let small):
                photo.status = "written"; photo.output = output; photo.faces = faces; photo.small = small
            case .skipped(let output):
                photo.status = "skipped"; photo.output = output
            case .failed(let error):
                photo.error = error.description
            }
            return photo
        }
    }

    /// The reports of several shards as one: every photo once, input problems once, the totals
    /// of all. Throws, naming it, when two reports disagree (one photo in two shards).
    public static func merged(_ reports: [(file: String, report: BatchReportFile)]) throws -> BatchReportFile {
        var photos: [String: (file: String, photo: Photo)] = [:]
        var problems: [String] = []
        var notStarted = 0
        for (file, report) in reports {
            for photo in report.photos {
                if let earlier = photos[photo.input] {
                    throw SessionError(path: file, reason: .invalid(
                        "\(photo.input) is also in \(earlier.file): were these shards of different batches?"))
                }
                photos[photo.input] = (file, photo)
            }
            for problem in report.inputProblems where !problems.contains(problem) { problems.append(problem) }
            notStarted += report.totals.notStarted
        }
        let all = photos.values.map(\.photo).sorted { NaturalOrder.precedes($0.relativePath, $1.relativePath) }
        func count(_ status: String) -> Int { all.filter { $0.status == status }.count }
        var merged = BatchReportFile(shard: nil, totals: BatchTotals(written: count("written"), skipped: count("skipped"),
                                                                     failed: count("failed") + problems.count, notStarted: notStarted),
                                     photos: all, inputProblems: problems)
        merged.version = currentVersion
        return merged
    }

    init(shard: String?, totals: BatchTotals, photos: [Photo], inputProblems: [String]) {
        self.shard = shard; self.totals = totals; self.photos = photos; self.inputProblems = inputProblems
    }

    /// Writes the report to the file the person named (`--report`, `report-merge --out`): an
    /// earlier report of SketchEase's there is replaced, anything else is kept (`OutputFile`).
    public func write(to path: String) throws {
        try OutputFile.write(try JSONEncoder.readable.encode(self), to: path, named: true)
    }

    public static func read(from path: String) throws -> BatchReportFile {
        let data = try VersionedJSON.load(path, format: format, supported: currentVersion)
        do {
            return try JSONDecoder().decode(BatchReportFile.self, from: data)
        } catch {
            throw SessionError(path: path, reason: .invalid(VersionedJSON.describe(error)))
        }
    }
}
