import ArgumentParser
import Foundation
import SketchEase
import Synchronization

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Sketch every face in photos or folders of photos, writing PNGs.",
        discussion: """
            Each input photo gives OUT/<name>.png. Existing outputs are kept unless --overwrite \
            is given, so an interrupted batch can simply be run again. A photo that cannot be \
            read is reported and the batch goes on; the exit status is 1 if any photo failed.
            """
    )

    @Argument(help: ArgumentHelp("Photos and folders of photos.", valueName: "input"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Per-photo, per-face styles from a JSON plan (see the README); its photos are processed too.", valueName: "plan.json"))
    var plan: String?

    @Flag(help: "Also write OUT/<name>.compare.png: the original and the result side by side.")
    var compare = false

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the PNGs (created if missing).", valueName: "dir"))
    var out: String

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags

    @Flag(name: .shortAndLong, help: "Also take photos from sub-folders.")
    var recursive = false

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Photos processed at the same time; they share the cores.",
        discussion: "The default is one per core, at most one per 2 GiB of memory. --jobs 1 uses the least memory."))
    var jobs: Int = BatchOptions.defaultJobs

    @Flag(help: "Replace outputs that already exist.")
    var overwrite = false

    @Flag(help: "Keep the photo's metadata (EXIF, GPS location, XMP) in the PNG.")
    var keepMetadata = false

    @OptionGroup var png: CompressionFlag

    @OptionGroup var limits: PixelLimitFlag

    @Option(help: ArgumentHelp("Write per-photo timings (decode, detect, filter, encode) as JSON.", valueName: "file"))
    var stats: String?

    @Option(help: ArgumentHelp("With -f mask: a folder of sticker pictures (eye.png, nose.png, mouth.png, beard.png, with alpha) to use instead of the built-in drawings.", valueName: "dir"))
    var stickers: String?

    func validate() throws {
        guard !inputs.isEmpty || plan != nil else { throw ValidationError("give photos, folders or --plan") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        var chosenStyle = try style.style()
        if let stickers { chosenStyle = try StickerOption.apply(folder: stickers, to: chosenStyle) }
        var options = BatchOptions(
            outputFolder: out, style: chosenStyle, detection: detection.options, render: try style.renderOptions(),
            export: ExportOptions(keepMetadata: keepMetadata, compression: png.compression, overwrite: overwrite),
            jobs: jobs, pixelLimit: limits.maxPixels)
        var (files, problems) = InputCollector.collect(inputs, recursive: recursive)
        if let plan {
            options.plan = try loadPlan(plan)
            files = options.plan!.inputFiles + files.filter { options.plan!.entry(for: $0.path) == nil }
        }
        options.compare = compare
        for problem in problems { Terminal.error(problem.description) }
        if files.isEmpty && problems.isEmpty {
            Terminal.warn("no photos found in \(inputs.joined(separator: " "))\(recursive ? "" : " (use --recursive for sub-folders)")")
        }
        let detectionFlags = detection
        let bar = ProgressBar(total: files.count)
        // Opened here to fail early and warn once about the fallback; the first worker uses it.
        let opened = Mutex<OpenCVFaceDetector?>(try detectionFlags.openDetector())
        let runner = BatchRunner(options: options) {
            try opened.withLock { first in defer { first = nil }; return first }
                ?? DetectorLocator.open(modelPath: detectionFlags.model).detector
        }
        var report: BatchReport
        do {
            report = try runner.run(files) { done, _, entry in
                if case .failed(let error) = entry.outcome {
                    bar.clear()
                    Terminal.error(error.description)
                }
                bar.update(done: done, label: (entry.input as NSString).lastPathComponent)
            }
        } catch let error as PhotoError {
            bar.clear()
            Terminal.error(error.description)
            throw ExitCode.failure
        }
        bar.clear()
        report.inputProblems = problems
        if let stats { try BatchStats(report: report).write(to: stats) }
        Terminal.printErr(report.summary)
        if !report.succeeded {
            if report.failures.count > 1 {
                Terminal.printErr("failed:")
                for f in report.failures { Terminal.printErr("  \(f.description)") }
            }
            throw ExitCode.failure
        }
    }

    private func loadPlan(_ path: String) throws -> BatchPlan {
        do { return try BatchPlan.read(from: path) } catch { throw ValidationError("\(error)") }
    }
}
