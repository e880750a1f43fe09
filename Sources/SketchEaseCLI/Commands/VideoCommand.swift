import ArgumentParser
import FFmpeg
import Foundation
import SketchEase
import Video

struct VideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Sketch the faces in video clips (or a camera), each face followed through the clip.",
        discussion: """
            Each clip gives OUT/<name>.mp4 (or --format's suffix): H.264, every frame with its \
            own timestamp, the sound and subtitles copied as they are, the same length and frame \
            count as the clip; location and device metadata are left out unless --keep-metadata. \
            Faces are tracked: each keeps its number for as long as it is in the clip (see \
            `sketchease detect CLIP --json`), its style does not blink when the detector misses \
            it for a moment, and fades in and out as it comes and goes.

            Examples:
              sketchease video party.mp4 --out out/ -f pencil
              sketchease video clips/ --recursive --out out/
              sketchease video talk.mov --plan tracks.json --out out/
              sketchease video shoot.mp4 -f none --background-filter chroma --background-param image=beach.mp4 --out out/
              sketchease video /dev/video0 --duration 60 --out out/     (record a camera)
            """
    )

    @Argument(help: ArgumentHelp("Clips and folders of clips (or a camera such as /dev/video0).", valueName: "input"))
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the clips (created if missing).", valueName: "dir"))
    var out: String

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags
    @OptionGroup var tracking: TrackingFlags
    @OptionGroup var encoding: EncodingFlags
    @OptionGroup var live: LiveSourceFlags

    @Flag(name: .shortAndLong, help: "Also take clips from sub-folders.")
    var recursive = false

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Clips processed at the same time.",
        discussion: "Each clip already keeps every core busy (decoding, tracking, styling and encoding run side by side); more than one helps only with many short clips."))
    var jobs: Int = 1

    @Flag(help: "Also write OUT/<name>.compare.<ext>: the clip and the result side by side.")
    var compare = false

    @Flag(help: "Replace outputs that already exist.")
    var overwrite = false

    @Flag(help: "Keep the clip's metadata (GPS location, device make and model, dates).")
    var keepMetadata = false

    @Option(help: ArgumentHelp(
        "Styles per tracked face from a JSON plan (see docs/editing.md); its clips are processed too.",
        discussion: "A clip's faces are named by track id (as `sketchease detect CLIP --json` lists them) or by a box on a frame.",
        valueName: "plan.json"))
    var plan: String?

    @OptionGroup var limits: PixelLimitFlag

    @OptionGroup var sharding: ShardFlag

    @Option(help: ArgumentHelp("Write what happened to each clip (frames, fps, stage times, memory, error) and the totals as JSON.",
                               discussion: "The reports of a sharded job's shards combine with `sketchease report-merge`.",
                               valueName: "file"),
            completion: .file(extensions: ["json"]))
    var report: String?

    func validate() throws {
        guard !inputs.isEmpty || plan != nil else { throw ValidationError("give clips, folders, a camera or --plan") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        // Every face of every frame allocates and frees the same few buffers: kept in the heap
        // instead of mapped afresh each time, which cost a quarter of the styling in page faults.
        try? VipsRuntime.keepFreedMemoryForReuse()
        let options = ClipOptions(
            detection: detection.options, tracking: tracking.settings, render: try style.renderOptions(),
            encoding: encoding.settings(keepMetadata: keepMetadata),
            styles: TrackStyles(others: try style.style()), overwrite: overwrite,
            pixelLimit: limits.maxPixels, duration: live.duration)
        if let report { try Terminal.failing { try OutputFile.checkNamed(report) } }
        var jobsList: [Job] = []
        var problems: [String] = []
        let suffix = "." + options.encoding.format.fileExtension
        let planned: BatchPlan?
        do { planned = try plan.map(BatchPlan.read) } catch { throw ValidationError("\(error)") }
        let files = inputs.filter { !live.isLive($0) }
        let format = options.encoding.format.fileExtension
        var collected = ClipFiles.collect(files, recursive: recursive, outputFolder: out, outputSuffix: format)
        if let planned {
            collected.files = InputCollector.disambiguated(planned.inputFiles + collected.files.filter { planned.entry(for: $0.path) == nil },
                                                           outputSuffix: format)
        }
        let selection = try sharding.select(collected.files, noun: "clip")
        collected.files = selection.files
        for problem in collected.problems { problems.append(problem.description) }
        for input in inputs where live.isLive(input) {
            let name = input.hasPrefix("/dev/") ? (input as NSString).lastPathComponent : "live"
            jobsList.append(Job(source: live.source(input), output: (out as NSString).appendingPathComponent(name + suffix)))
        }
        for clip in collected.files {
            let entry = planned?.entry(for: clip.path).map { PlannedClip(entry: $0, plan: planned!.file) }
            jobsList.append(Job(source: live.source(clip.path), output: (out as NSString).appendingPathComponent(clip.outputStem + suffix),
                                plan: entry))
        }
        if compare {
            for i in jobsList.indices { jobsList[i].comparison = ComparisonImage.path(forExport: jobsList[i].output) }
        }
        for problem in problems { Terminal.error(problem) }
        if jobsList.isEmpty && problems.isEmpty {
            Terminal.warn("no clips found in \(inputs.joined(separator: " "))\(recursive ? "" : " (use --recursive for sub-folders)")")
        }
        do {
            try OutputFolder.prepare(out)
        } catch let error as PhotoError {
            Terminal.error(error.description)
            throw ExitCode.failure
        }
        let renderer = ClipRenderer(options: options, makeDetector: try detection.detectors())
        let stop = StopRequest()
        let inputsAreLive = jobsList.contains { $0.source.isLive }
        let interrupt = Interrupt {
            Terminal.printErr(inputsAreLive
                ? "\nstopping: finishing the recording (Ctrl-C again to quit at once)"
                : "\nstopping after the clips under way, starting no other (Ctrl-C again to quit at once)")
            stop.request()
        }
        defer { interrupt.cancel() }
        let bar = ClipProgressBar()
        let pool = JobRunner(jobs: jobs, inputs: jobsList.count, stop: stop)
        let showProgress = pool.workers == 1
        let started = try pool.run(jobsList, prepare: {}, work: { job, _ in
            let name = (job.source.path as NSString).lastPathComponent
            let progress: @Sendable (ClipProgress) -> Void = { p in if showProgress { bar.update(p, name: name) } }
            let outcome = Self.process(job, renderer: renderer, stop: stop, progress: progress)
            bar.clear()
            Self.announce(outcome, comparison: job.comparison, encoding: options.encoding)
            return outcome
        })
        // Clips not started after a stop request are said as such, never opened.
        let outcomes = zip(jobsList, started).map { job, outcome in
            outcome ?? ClipOutcome(input: job.source.path, output: job.output, result: .notStarted)
        }
        // The summary is the report's own count: "2 written, 1 failed, 1 not started".
        let stats = ClipStats(outcomes: outcomes, problems: problems, shard: selection.shard)
        if let report { try stats.write(to: report) }
        Terminal.printErr(stats.totals.counts)
        if let notStarted = stats.totals.notStarted, notStarted > 0 {
            Terminal.printErr("interrupted: \(Terminal.count(notStarted, "clip")) not started; run the same command again to do "
                + "the rest (finished clips are kept)")
            throw ExitCode(130)
        }
        if stats.totals.failed > 0 { throw ExitCode.failure }
    }

    /// One clip to write.
    struct Job: Sendable {
        var source: MediaSource
        var output: String
        /// Its plan entry, if the plan lists it.
        var plan: PlannedClip? = nil
        /// Where the side-by-side comparison goes (--compare).
        var comparison: String? = nil
    }

    static func process(_ job: Job, renderer: ClipRenderer, stop: StopRequest,
                        progress: @escaping @Sendable (ClipProgress) -> Void) -> ClipOutcome {
        let (source, output) = (job.source, job.output)
        // A stop ends a recording, whose file is then completed. A clip read from a file is
        // finished whole: cut short, it would be kept under its real name and the next run,
        // told to "do the rest", would skip it (a second Ctrl-C quits with nothing written).
        let stop = source.isLive ? stop : StopRequest()
        do {
            var renderer = renderer
            var tracks: ClipTracks?
            if let plan = job.plan {
                if plan.needsTracks {
                    // Boxes in the plan: find the tracks first, then draw them as the plan says.
                    let found = try renderer.track(source, follow: plan.follows, stop: stop, progress: progress).tracks
                    (tracks, renderer.options.styles) = try plan.resolve(found)
                } else {
                    renderer.options.styles = plan.styles
                }
            }
            let report = try renderer.render(source, to: output, tracks: tracks, comparison: job.comparison, stop: stop, progress: progress)
            if let missing = job.plan?.missing(in: report.trackIDs) { Terminal.warn(missing) }
            return ClipOutcome(input: source.path, output: output, result: .written(report))
        } catch let error as PhotoError where error.reason == .outputExists {
            return ClipOutcome(input: source.path, output: output, result: .skipped)
        } catch {
            let line = (error as? MediaError)?.description ?? PhotoError(path: source.path, wrapping: error).description
            return ClipOutcome(input: source.path, output: output, result: .failed(line))
        }
    }

    /// What each written file weighs, and for GIF and WebP the size and rate it was held to:
    /// "out/clip.gif: 2.7 MB (480×360, at most 10 frames a second; --max-size, --max-fps)".
    static func sizeLines(_ report: ClipReport, output: String, comparison: String?, encoding: EncodingSettings) -> [String] {
        var lines: [String] = []
        for (path, panels) in [(output, 1), (comparison, 2)] {
            guard let path, let bytes = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else { continue }
            var line = "\(path): \(PhotoError.byteCount(bytes))"
            if encoding.isShareFormat {
                let (w, h) = report.frameSize
                let size = encoding.outputSize(width: w * panels, height: h, reference: (w, h))
                let rate = encoding.maxFrameRate.map { "at most \(Rounding.text($0, places: $0 == $0.rounded() ? 0 : 1)) frames a second" }
                    ?? "every frame"
                line += " (\(size.width)×\(size.height), \(rate); --max-size, --max-fps)"
            }
            lines.append(line)
        }
        return lines
    }

    static func announce(_ outcome: ClipOutcome, comparison: String?, encoding: EncodingSettings) {
        switch outcome.result {
        case .written(let report):
            if let warning = report.damageWarning { Terminal.warn(warning) }
            for line in sizeLines(report, output: outcome.output, comparison: comparison, encoding: encoding) { Terminal.printErr(line) }
            for note in report.streamNotes where !note.hasSuffix(": copied") { Terminal.warn("\(outcome.input): \(note)") }
        case .failed(let line):
            Terminal.error(line)
        case .skipped, .notStarted:
            break
        }
    }
}

/// What became of one clip.
struct ClipOutcome: Sendable {
    enum Result: Sendable {
        case written(ClipReport)
        case skipped
        case failed(String)
        /// Not begun: the job was stopped first.
        case notStarted
    }
    var input: String
    var output: String
    var result: Result
}
