import ArgumentParser
import Foundation
import SketchEase

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Re-export saved editing sessions, or carry out plans, without asking anything.",
        discussion: """
            A session (OUT/.sketchease/<name>.sketchease.json, written by `sketchease edit`) is \
            rendered exactly as it was left, into its output folder or --out; the photo must be \
            unchanged. An output folder stands for every session in it. A plan (see `batch --plan` \
            and docs/editing.md) is detected and drawn like `batch --plan`, into --out. Results \
            SketchEase wrote before are replaced.
            """
    )

    // Optional for the parser so that a misspelt option is reported as such; validate() requires it.
    @Argument(help: ArgumentHelp("Session or plan files, or output folders with sessions.", valueName: "session-or-plan"),
              completion: .file(extensions: ["json"]))
    var files: [String] = []

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give session or plan files, or output folders") }
    }

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the results (default for a session: where it was exported; required for a plan).", valueName: "dir"),
            completion: .directory)
    var out: String?

    @Flag(help: "Also write <name>.compare.png: the original and the result side by side.")
    var compare = false

    @OptionGroup var detection: DetectionFlags

    @OptionGroup var limits: PixelLimitFlag

    func run() throws {
        var failures = 0
        for file in expanded() {
            do {
                try apply(file)
            } catch {
                failures += 1
                Terminal.error((error as? SessionError)?.description ?? PhotoError(path: file, wrapping: error).description)
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    /// The files given, with each output folder replaced by the sessions it holds.
    private func expanded() -> [String] {
        files.flatMap { file -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue else { return [file] }
            let sessions = SessionFile.sessions(inOutputFolder: file)
            if sessions.isEmpty { Terminal.warn("\(file): no editing sessions in it (they are kept in \(file)/\(OutputRecord.folderName)/)") }
            return sessions
        }
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
        } catch let error as SessionError {
            if case .notJSON = error.reason, (try? Photo.inspect(path: file)) != nil {
                throw SessionError(path: file, reason: .sourceChanged(
                    "this is a photo; apply takes a session (OUT/\(OutputRecord.folderName)/NAME.sketchease.json), a plan, or an output folder"))
            }
            throw error
        }
        try session.checkSource(file: file)
        if session.clip != nil { return try applyClip(file) }
        let photo = try Photo.load(path: session.source.path, pixelLimit: limits.maxPixels)
        let history = try session.history(file: file, imageSize: photo.size)
        let target = session.exportPath(sessionFile: file, folder: out)
        try OutputFolder.prepare(target.parentPath)
        let image = FilteredImage(photo: photo, history: history)
        try image.export(to: target, compositor: FaceCompositor(options: session.render), options: session.exportOptions,
                         compare: compare)
        print("\(target) (\(image.styledFaces.count) of \(image.faces.count) faces styled)")
    }

    private func applyPlan(_ plan: BatchPlan) throws {
        guard let out else { throw SessionError(path: plan.file, reason: .invalid("a plan needs --out DIR")) }
        var options = BatchOptions(outputFolder: out, style: try FaceStyle.named("pencil"), detection: detection.options,
                                   export: ExportOptions(overwrite: true))
        options.plan = plan
        options.compare = compare
        let report = try BatchRunner(options: options, makeDetector: try detection.detectors()).run(plan.inputFiles)
        for entry in report.entries {
            switch entry.outcome {
            case .written(let output, _, _): print(output)
            case .skipped(let output): print("\(output) (kept)")
            case .failed(let error): throw error
            }
        }
    }
}
