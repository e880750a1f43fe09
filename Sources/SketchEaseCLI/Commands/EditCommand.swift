import ArgumentParser
import Foundation
import SketchEase

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Choose a style for each face, photo by photo, at a prompt.",
        discussion: """
            For each photo a preview with numbered face boxes is written to OUT/<name>.preview.png \
            (shown in the terminal under kitty, iTerm2 or WezTerm). Then type commands: \
            `set 2 pencil darkness=2`, `undo`, `export`, `next`, `help`. Edits are saved as you go \
            in OUT/<name>.sketchease.json: running edit again on the same photo resumes them, and \
            `sketchease apply` re-exports them (a resumed session keeps its own --box-scale, \
            --feather and detection settings). --filter and --param give the style that \
            `set FACE` uses when no style is named. Commands can also be piped in:
              printf 'set all pencil\\nexport\\nquit\\n' | sketchease edit group.jpg --out out/
            """
    )

    @Argument(help: ArgumentHelp("Photos and folders of photos.", valueName: "input"))
    var inputs: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for previews, sessions and PNGs (created if missing).", valueName: "dir"))
    var out: String

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags

    @Flag(help: "Also write OUT/<name>.compare.png on export: the original and the result side by side.")
    var compare = false

    @OptionGroup var png: CompressionFlag

    @OptionGroup var limits: PixelLimitFlag

    func run() throws {
        let settings = EditorLoop.Settings(
            outputFolder: out, defaultStyle: try style.style(), detection: detection.options, render: style.render,
            compression: png.compression, compare: compare, pixelLimit: limits.maxPixels)
        let (files, problems) = InputCollector.collect(inputs, recursive: false)
        for problem in problems { Terminal.error(problem.description) }
        guard !files.isEmpty else {
            if problems.isEmpty { Terminal.error("no photos found in \(inputs.joined(separator: " "))") }
            throw ExitCode.failure
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot create the output folder \(out)")
        }
        let loop = EditorLoop(files: files, settings: settings, detector: try detection.openDetector())
        let status = loop.run()
        if status != 0 || !problems.isEmpty { throw ExitCode.failure }
    }
}
