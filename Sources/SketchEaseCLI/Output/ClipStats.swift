import Foundation
import SketchEase
import Video

/// The `--report` file of `video`: per clip, frames, speed, stage times and peak memory, and the
/// totals. The reports of a sharded clip job's shards add up with `report-merge`, as photo reports do.
struct ClipStats: Codable {
    static let format = "sketchease-video-report"
    static let currentVersion = 1
    /// A clip's status when the job was stopped before it began.
    static let notStarted = "not started"

    struct Clip: Codable {
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
        /// Faces on frames: each tracked face counted once for every frame it is on.
        var faceFrames: Int?
        /// Of those, the faces laid as drawn on an earlier frame (they had only moved since).
        var carriedFaceFrames: Int?
        var stages: ClipStageTimes?
        var streams: [String]?
    }

    /// What the clips add up to.
    struct Totals: Codable, Equatable {
        var written = 0
        var skipped = 0
        /// Clips that failed, and inputs that could not be used at all (a missing path).
        var failed = 0
        /// Clips never begun: the job was stopped first (nil when none, as in reports
        /// written before it was counted).
        var notStarted: Int?
        /// Frames written.
        var frames = 0
        /// Seconds of video written.
        var duration = 0.0
        /// Seconds of work, summed over the clips (clips processed side by side overlap).
        var seconds = 0.0

        /// "3 written, 1 failed".
        var counts: String {
            var parts = ["\(written) written"]
            if skipped > 0 { parts.append("\(skipped) skipped (output exists; --overwrite replaces)") }
            if failed > 0 { parts.append("\(failed) failed") }
            if let notStarted, notStarted > 0 { parts.append("\(notStarted) not started") }
            return parts.joined(separator: ", ")
        }

        /// "300 frames, 10.0 s of video in 25.2 s of work (11.9 fps)".
        var amounts: String {
            String(format: "%d frames, %.1f s of video in %.1f s of work", frames, duration, seconds)
                + (seconds > 0 ? String(format: " (%.1f fps)", Double(frames) / seconds) : "")
        }
    }

    var format = ClipStats.format
    var version = ClipStats.currentVersion
    /// "2/7" for one shard's report, nil for a whole job (or a merge of every shard).
    var shard: String?
    var totals: Totals
    var clips: [Clip]
    /// Inputs that could not be used before any clip was opened: every shard meets them, so a
    /// merge counts each once.
    var inputProblems: [String]
    /// The process's peak resident memory, MB (of a merge: the largest shard's).
    var peakMemoryMB: Double

    enum CodingKeys: String, CodingKey {
        case format, version, shard, totals, clips, inputProblems = "input_problems", peakMemoryMB
    }

    init(outcomes: [ClipOutcome], problems: [String] = [], shard: Shard? = nil) {
        self.shard = shard?.description
        inputProblems = problems
        clips = outcomes.map { o in
            var clip = Clip(input: o.input, output: o.output, status: "failed")
            switch o.result {
            case .written(let r):
                clip.status = "written"
                clip.frames = r.frames; clip.width = r.frameSize.width; clip.height = r.frameSize.height
                clip.duration = r.duration; clip.seconds = r.seconds
                clip.fps = r.framesPerSecond; clip.realtime = r.seconds > 0 ? r.duration / r.seconds : nil
                clip.tracks = r.tracks; clip.detections = r.detections; clip.faceFrames = r.faceFrames
                clip.carriedFaceFrames = r.carriedFaceFrames; clip.stages = r.stages; clip.streams = r.streamNotes
            case .skipped: clip.status = "skipped"
            case .notStarted: clip.status = Self.notStarted
            case .failed(let line): clip.error = line
            }
            return clip
        }
        totals = Self.totals(of: clips, problems: problems.count)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        peakMemoryMB = Double(usage.ru_maxrss) / 1024
    }

    static func totals(of clips: [Clip], problems: Int) -> Totals {
        var totals = Totals()
        for clip in clips {
            switch clip.status {
            case "written":
                totals.written += 1
                totals.frames += clip.frames ?? 0
                totals.duration += clip.duration ?? 0
                totals.seconds += clip.seconds ?? 0
            case "skipped": totals.skipped += 1
            case notStarted: totals.notStarted = (totals.notStarted ?? 0) + 1
            default: totals.failed += 1
            }
        }
        totals.failed += problems
        totals.duration = Rounding.decimals(totals.duration, 3)
        totals.seconds = Rounding.decimals(totals.seconds, 3)
        return totals
    }

    /// The reports of several shards as one: every clip once, input problems once, the totals of
    /// all. Throws, naming it, when two reports hold the same clip (shards of different jobs).
    static func merged(_ reports: [(file: String, report: ClipStats)]) throws -> ClipStats {
        var seen: [String: String] = [:]
        var clips: [Clip] = [], problems: [String] = []
        var peak = 0.0
        for (file, report) in reports {
            for clip in report.clips {
                if let earlier = seen[clip.input] {
                    throw SessionError(path: file, reason: .invalid(
                        "\(clip.input) is also in \(earlier): were these shards of different jobs?"))
                }
                seen[clip.input] = file
                clips.append(clip)
            }
            for problem in report.inputProblems where !problems.contains(problem) { problems.append(problem) }
            peak = max(peak, report.peakMemoryMB)
        }
        clips.sort { NaturalOrder.precedes($0.input, $1.input) }
        return ClipStats(shard: nil, totals: totals(of: clips, problems: problems.count), clips: clips,
                         inputProblems: problems, peakMemoryMB: peak)
    }

    private init(shard: String?, totals: Totals, clips: [Clip], inputProblems: [String], peakMemoryMB: Double) {
        self.shard = shard; self.totals = totals; self.clips = clips
        self.inputProblems = inputProblems; self.peakMemoryMB = peakMemoryMB
    }

    static func read(from path: String) throws -> ClipStats {
        let data = try VersionedJSON.load(path, format: format, supported: currentVersion)
        do {
            return try JSONDecoder().decode(ClipStats.self, from: data)
        } catch {
            throw SessionError(path: path, reason: .invalid(VersionedJSON.describe(error)))
        }
    }

    func write(to path: String) throws {
        try OutputFile.write(try JSONEncoder.readable.encode(self), to: path, named: true)
    }
}
