import ArgumentParser
import Foundation
import SketchEase
import Synchronization

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Sketch every face in photos or folders of photos.",
        discussion: """
            Each input photo gives OUT/<name>.png (or .jpg, .webp with --format). Existing outputs \
            are kept unless --overwrite is given, so an interrupted batch can simply be run again; \
            Ctrl-C stops after the photos in flight. Photos are never written over, whatever the \
            options: --overwrite replaces only files SketchEase wrote. A photo that cannot be read \
            is reported and the batch goes on; the exit status is 1 if any photo failed.
            """
    )

    @OptionGroup var input: InputFlags

    @Option(help: ArgumentHelp("Per-photo, per-face styles from a JSON plan (see docs/editing.md); its photos are processed too.", valueName: "plan.json"),
            completion: .file(extensions: ["json"]))
    var plan: String?

    @Flag(help: "Also write OUT/<name>.compare.png: the original and the result side by side.")
    var compare = false

    // Optional for the parser so that a misspelt option is reported as such ("did you mean
    // '--out'?") rather than as a missing --out; validate() requires it.
    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the results (created if missing; required).", valueName: "dir"),
            completion: .directory)
    var out: String?

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags

    @Option(name: .shortAndLong, parsing: .unconditional, help: ArgumentHelp(
        "Photos processed at the same time; they share the cores.",
        discussion: "The default is one per core, at most one per 2 GiB of memory. --jobs 1 uses the least memory."))
    var jobs: Int = BatchOptions.defaultJobs

    @Flag(help: "Replace results that already exist (only ever files SketchEase wrote).")
    var overwrite = false

    @Flag(help: "Keep the photo's metadata (EXIF, GPS location, XMP) in the results.")
    var keepMetadata = false

    @Flag(name: .shortAndLong, help: "Print a line for every photo: faces found and where the result went.")
    var verbose = false

    @OptionGroup var export: ExportFlags

    @OptionGroup var limits: PixelLimitFlag

    @Option(help: ArgumentHelp(
        "Write what happened to each photo (status, faces, timings, error) and the totals as JSON.",
        discussion: "The reports of the shards of one batch combine with `sketchease report-merge`.",
        valueName: "file"),
            completion: .file(extensions: ["json"]))
    var report: String?

    @OptionGroup var sharding: ShardFlag

    @Option(help: ArgumentHelp("With -f mask: a folder of sticker pictures (eye.png, nose.png, mouth.png, beard.png, with alpha) to use instead of the built-in drawings.", valueName: "dir"),
            completion: .directory)
    var stickers: String?

    func validate() throws {
        guard !input.inputs.isEmpty || plan != nil else { throw ValidationError("give photos, folders or --plan") }
        guard out != nil else { throw ValidationError("missing --out DIR: the folder for the results") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
        if let stickers { _ = try StickerOption.apply(folder: stickers, to: try style.style()) }
    }

    func run() throws {
        let out = out!
        var chosenStyle = try style.style()
        if let stickers { chosenStyle = try StickerOption.apply(folder: stickers, to: chosenStyle) }
        var options = BatchOptions(
            outputFolder: out, style: chosenStyle, detection: detection.options, render: try style.renderOptions(),
            export: export.options(keepMetadata: keepMetadata, overwrite: overwrite), jobs: jobs, pixelLimit: limits.maxPixels)
        options.compare = compare
        // Before any work: the results' folder must take files, and the plan must be sound.
        try Terminal.failing { try OutputFolder.prepare(out) }
        if let report { try Terminal.failing { try OutputFile.checkNamed(report) } }
        if let plan { options.plan = try Terminal.failing { try BatchPlan.read(from: plan) } }
        let suffix = options.export.format.fileExtension
        let collection = input.collect(outputFolders: [out], outputSuffix: suffix)
        var files = collection.files
        if let plan = options.plan {
            files = InputCollector.disambiguated(plan.inputFiles + files.filter { plan.entry(for: $0.path) == nil }, outputSuffix: suffix)
        }
        let part: Shard?
        (part, files) = try sharding.select(files, noun: "photo")
        for problem in collection.problems { Terminal.error(problem.description) }
        if files.isEmpty && collection.problems.isEmpty {
            Terminal.warn("no photos found in \(input.inputs.joined(separator: " "))"
                + (collection.unsearchedFolders.isEmpty ? "" : " (use --recursive for sub-folders)"))
        }
        let (report, took) = try runBatch(files, options: options, detection: detection, shard: part,
                                          inputProblems: collection.problems)
        printSummary(report, took: took, collection: collection)
        Self.noteRenamed(files, format: options.export.format)
        if report.notStarted > 0 { throw ExitCode(130) }
        if !report.succeeded { throw ExitCode.failure }
    }

    /// Runs the batch with a progress bar and Ctrl-C handling; the report and how long it took.
    private func runBatch(_ files: [InputFile], options: BatchOptions, detection: DetectionFlags,
                          shard: Shard?, inputProblems: [PhotoError]) throws -> (BatchReport, String) {
        let bar = ProgressBar(total: files.count)
        let stop = StopRequest()
        let interrupt = Interrupt {
            stop.request()
            bar.clear()
            Terminal.printErr("stopping after the photos in flight… (Ctrl-C again to quit at once)")
        }
        defer { interrupt.cancel() }
        let runner = BatchRunner(options: options, makeDetector: try detection.detectors())
        let verbose = verbose
        var report = try Terminal.failing {
            try runner.run(files, stop: stop) { done, _, entry in
                if case .failed(let error) = entry.outcome {
                    bar.clear()
                    Terminal.error(error.description)
                } else if verbose {
                    bar.clear()
                    Terminal.printErr(Self.line(for: entry))
                }
                bar.update(done: done, label: (entry.input as NSString).lastPathComponent)
            }
        }
        bar.clear()
        report.inputProblems = inputProblems
        if let path = self.report {
            try Terminal.failing { try BatchReportFile(report: report, shard: shard).write(to: path) }
        }
        return (report, bar.summary(done: report.entries.count))
    }

    /// `-v`: "group.jpg: 3 faces → out/group.png".
    static func line(for entry: BatchReport.Entry) -> String {
        switch entry.outcome {
        case .written(let output, let faces, let small):
            let note = small > 0 ? " (\(small) too small to sketch well)" : ""
            return "\(entry.input): \(faces) face\(faces == 1 ? "" : "s")\(note) → \(output)"
        case .skipped(let output): return "\(entry.input): kept \(output) (it exists; --overwrite replaces it)"
        case .failed(let error): return error.description
        }
    }

    /// Photos whose results would have shared a name: which result each got, and the rule.
    static func noteRenamed(_ files: [InputFile], format: ImageFormat) {
        let renamed = files.filter(\.renamed)
        guard !renamed.isEmpty else { return }
        Terminal.printErr("\(Terminal.count(renamed.count, "photo")) would have had another photo's result name, so "
            + "\(renamed.count == 1 ? "its result takes" : "their results take") the photo's whole name "
            + "(a photo already in .\(format.fileExtension) keeps the plain one): "
            + renamed.map { "\(($0.path as NSString).lastPathComponent) → \($0.outputName(format))" }.joined(separator: ", "))
    }

    private func printSummary(_ report: BatchReport, took: String, collection: InputCollection) {
        Terminal.printErr(report.summary + "; " + took)
        let noFace = report.withoutFaces
        if !noFace.isEmpty {
            // With a background style the rest of the photo is drawn all the same.
            let written = style.backgroundFilter == nil ? "written unchanged" : "only the background drawn"
            Terminal.printErr("no face found in \(Terminal.count(noFace.count, "photo")) (\(written)): \(Terminal.names(noFace))")
        }
        let small = report.withSmallFaces
        if !small.isEmpty {
            let faces = small.map(\.small).reduce(0, +)
            Terminal.printErr("\(Terminal.count(faces, "face")) in \(Terminal.count(small.count, "photo")) "
                + "\(faces == 1 ? "is" : "are") under \(Rounding.pixels(FaceQualityThresholds().minimumFaceSize)) px "
                + "and may not sketch well (`sketchease report` shows them): \(Terminal.names(small.map(\.input)))")
        }
        let flattened = report.flattened
        if !flattened.isEmpty {
            Terminal.printErr("\(Terminal.count(flattened.count, "photo")) had transparent parts, put onto white: JPEG has none "
                + "(--format png or webp keeps them): \(Terminal.names(flattened))")
        }
        Terminal.noteLeftOut(collection)
        if report.failures.count > 1 {
            Terminal.printErr("failed:")
            for f in report.failures { Terminal.printErr("  \(f.description)") }
        }
        if report.notStarted > 0 {
            Terminal.printErr("interrupted: \(report.notStarted) not started; run the same command again to do "
                + "the rest (finished results are kept)")
        }
    }
}
