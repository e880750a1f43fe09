import Foundation
import SketchEase

/// The `--stats` file: per-photo wall time and stage times, for the benchmark.
struct BatchStats: Encodable {
    struct Photo: Encodable {
        var input: String
        var status: String
        var faces: Int?
        var seconds: Double
        var stages: StageTimes
    }

    var photos: [Photo]

    init(report: BatchReport) {
        photos = report.entries.map { entry in
            var status = "failed", faces: Int?
            switch entry.outcome {
            case .written(_, let n, _): status = "written"; faces = n
            case .skipped: status = "skipped"
            case .failed: break
            }
            return Photo(input: entry.input, status: status, faces: faces, seconds: entry.seconds, stages: entry.stages)
        }
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder.readable
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
