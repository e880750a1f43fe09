import Foundation
import SketchEase
import Video

/// The `--report` file of `video`: per clip, frames, speed, stage times and peak memory.
struct ClipStats: Encodable {
    struct Clip: Encodable {
        var input: String
        var output: String
        var status: String
        var error: String?
        var frames: Int?
        var width: Int?
        var height: Int?
        var duration: Double?
        var seconds: Double?
        var fps: Double?
        /// Seconds of video per second of work.
        var realtime: Double?
        var tracks: Int?
        var detections: Int?
        var stages: ClipStageTimes?
        var streams: [String]?
    }

    var clips: [Clip]
    /// The process's peak resident memory, MB.
    var peakMemoryMB: Double

    init(outcomes: [ClipOutcome]) {
        clips = outcomes.map { o in
            var clip = Clip(input: o.input, output: o.output, status: "failed")
            switch o.result {
            case .written(let r):
                clip.status = "written"
                clip.frames = r.frames; clip.width = r.frameSize.width; clip.height = r.frameSize.height
                clip.duration = r.duration; clip.seconds = r.seconds
                clip.fps = r.framesPerSecond; clip.realtime = r.seconds > 0 ? r.duration / r.seconds : nil
                clip.tracks = r.tracks; clip.detections = r.detections; clip.stages = r.stages; clip.streams = r.streamNotes
            case .skipped: clip.status = "skipped"
            case .failed(let line): clip.error = line
            }
            return clip
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        peakMemoryMB = Double(usage.ru_maxrss) / 1024
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try OutputFile.write(try encoder.encode(self), to: path, named: true)
    }
}
