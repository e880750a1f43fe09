import ArgumentParser
import Foundation
import SketchEase

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
    var inputs: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the PNGs (created if missing).", valueName: "dir"))
    var out: String

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags

    @Flag(name: .shortAndLong, help: "Also take photos from sub-folders.")
    var recursive = false

    @Option(name: .shortAndLong, help: "Photos processed at the same time.")
    var jobs: Int = 1

    @Flag(help: "Replace outputs that already exist.")
    var overwrite = false

    @Flag(help: "Keep the photo's metadata (EXIF, GPS location, XMP) in the PNG.")
    var keepMetadata = false

    @Option(help: "PNG compression level, 0 (fastest) to 9 (smallest).")
    var compression: Int = 6

    @Option(help: "Refuse photos with more pixels than this (0 = no limit).")
    var maxPixels: Int = Photo.defaultPixelLimit

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard (0...9).contains(compression) else { throw ValidationError("--compression must be 0...9") }
        guard maxPixels >= 0 else { throw ValidationError("--max-pixels must be 0 or more") }
    }

    func run() throws {
        let chosenStyle = try style.style()
        let options = BatchOptions(
            outputFolder: out, style: chosenStyle, detection: detection.options, render: try style.renderOptions(),
            export: ExportOptions(keepMetadata: keepMetadata, compression: compression, overwrite: overwrite),
            jobs: jobs, pixelLimit: maxPixels)
        let (files, problems) = InputCollector.collect(inputs, recursive: recursive)
        for problem in problems { Terminal.error(problem.description) }
        if files.isEmpty && problems.isEmpty {
            Terminal.warn("no photos found in \(inputs.joined(separator: " "))\(recursive ? "" : " (use --recursive for sub-folders)")")
        }
        let detectionFlags = detection
        _ = try detectionFlags.openDetector() // fail early, warn once about the fallback
        let runner = BatchRunner(options: options) {
            try DetectorLocator.open(modelPath: detectionFlags.model).detector
        }
        let bar = ProgressBar(total: files.count)
        var report = try runner.run(files) { done, _, entry in
            if case .failed(let error) = entry.outcome {
                bar.clear()
                Terminal.error(error.description)
            }
            bar.update(done: done, label: (entry.input as NSString).lastPathComponent)
        }
        bar.clear()
        report.inputProblems = problems
        Terminal.printErr(report.summary)
        if !report.succeeded {
            if report.failures.count > 1 {
                Terminal.printErr("failed:")
                for f in report.failures { Terminal.printErr("  \(f.description)") }
            }
            throw ExitCode.failure
        }
    }
}
