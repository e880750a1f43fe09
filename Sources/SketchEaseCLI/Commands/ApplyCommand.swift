import ArgumentParser
import Foundation
import SketchEase

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Re-export saved editing sessions, or carry out plans, without asking anything.",
        discussion: """
            A session (OUT/<name>.sketchease.json, written by `sketchease edit`) is rendered exactly \
            as it was left, into the session's folder or --out; the photo must be unchanged. \
            A plan (see `batch --plan` and the README) is detected and drawn like `batch --plan`, \
            into --out. Outputs are replaced.
            """
    )

    @Argument(help: ArgumentHelp("Session or plan files.", valueName: "session-or-plan.json"))
    var files: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the PNGs (default for a session: its own folder; required for a plan).", valueName: "dir"))
    var out: String?

    @Flag(help: "Also write <name>.compare.png: the original and the result side by side.")
    var compare = false

    @OptionGroup var detection: DetectionFlags

    @OptionGroup var limits: PixelLimitFlag

    func run() throws {
        var failures = 0
        for file in files {
            do {
                try apply(file)
            } catch {
                failures += 1
                Terminal.error("\(error)")
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    private func apply(_ file: String) throws {
        let session: SessionFile
        do {
            session = try SessionFile.read(from: file)
        } catch let error as SessionError where error.reason == .foreign(SessionFile.format) {
            do {
                return try applyPlan(try BatchPlan.read(from: file))
            } catch let planError as SessionError where planError.reason == .foreign(BatchPlan.format) {
                throw SessionError(path: file, reason: .foreign("SketchEase session or plan"))
            }
        }
        try session.checkSource(file: file)
        let history = try session.history(file: file)
        let photo = try Photo.load(path: session.source.path, pixelLimit: limits.maxPixels)
        let folder = out ?? (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        let target = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(session.output)
        let image = FilteredImage(photo: photo, history: history)
        try image.export(to: target, compositor: FaceCompositor(options: session.render),
                         options: ExportOptions(compression: session.compression, overwrite: true), compare: compare)
        print("\(target) (\(image.styledFaces.count) of \(image.faces.count) faces styled)")
    }

    private func applyPlan(_ plan: BatchPlan) throws {
        guard let out else { throw SessionError(path: plan.file, reason: .invalid("a plan needs --out DIR")) }
        var options = BatchOptions(outputFolder: out, style: try FaceStyle.named("pencil"), detection: detection.options,
                                   export: ExportOptions(overwrite: true))
        options.plan = plan
        options.compare = compare
        let flags = detection
        _ = try flags.openDetector()
        let report = try BatchRunner(options: options) { try DetectorLocator.open(modelPath: flags.model).detector }
            .run(plan.inputFiles)
        for entry in report.entries {
            switch entry.outcome {
            case .written(let output, _): print(output)
            case .skipped(let output): print("\(output) (kept)")
            case .failed(let error): throw error
            }
        }
    }
}
