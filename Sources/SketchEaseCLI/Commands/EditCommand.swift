import ArgumentParser
import Foundation
import FFmpeg
import SketchEase

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Choose a style for each face, photo by photo, at a prompt.",
        discussion: """
            For each photo a preview with numbered face boxes is written to \
            OUT/.sketchease/<name>.preview.png (shown in the terminal under kitty, iTerm2 or \
            WezTerm). Then type commands: `set 2 pencil darkness=2`, `undo`, `export`, `next`, \
            `help`. Edits are saved as you go in OUT/.sketchease/<name>.sketchease.json: running \
            edit again on the same photo resumes them, and `sketchease apply OUT` re-exports them \
            (a resumed session keeps its own --box-scale, --feather, format and detection \
            settings). --filter and --param give the style that `set FACE` uses when no style is \
            named. Commands can also be piped in:
              printf 'set all pencil\\nexport\\nquit\\n' | sketchease edit group.jpg --out out/

            A clip (talk.mov) is edited the same way: its faces are its tracks (as `detect` lists \
            them), the preview is a contact sheet of each face's clearest picture, `add X Y W H \
            @SECONDS` draws a box on that frame and follows it, and `export` writes OUT/<name>.mp4 \
            (H.264, CRF 18).
            """
    )

    @OptionGroup var input: InputFlags

    // Optional for the parser so that a misspelt option is reported as such; validate() requires it.

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the results (created if missing; required); previews and sessions go in its .sketchease/ folder.", valueName: "dir"),
            completion: .directory)
    var out: String?

    @OptionGroup var style: StyleFlags
    @OptionGroup var detection: DetectionFlags

    @Flag(help: "Also write OUT/<name>.compare.png on export: the original and the result side by side.")
    var compare = false

    @OptionGroup var export: ExportFlags

    @OptionGroup var limits: PixelLimitFlag

    @OptionGroup(title: "Clips") var tracking: TrackingFlags

    func validate() throws {
        try input.requirePhotos()
        guard out != nil else { throw ValidationError("missing --out DIR: the folder for the results, previews and sessions") }
    }

    func run() throws {
        let out = out!
        let settings = EditorLoop.Settings(
            outputFolder: out, defaultStyle: try style.style(), detection: detection.options, render: try style.renderOptions(),
            export: export.options(overwrite: true), compare: compare, pixelLimit: limits.maxPixels,
            clip: ClipSessionSettings(tracking: tracking.settings))
        // Before any photo is opened: edits are saved as they are made, so the folder must take files.
        try Terminal.failing { try OutputFolder.prepare(out) }
        let collection = input.collect(outputFolders: [out], outputSuffix: settings.export.format.fileExtension)
        for problem in collection.problems { Terminal.error(problem.description) }
        Terminal.noteLeftOut(collection)
        guard !collection.files.isEmpty else {
            if collection.problems.isEmpty { Terminal.error("no photos found in \(input.inputs.joined(separator: " "))") }
            throw ExitCode.failure
        }
        let loop = EditorLoop(files: collection.files, settings: settings, detector: try detection.openDetector())
        let status = loop.run()
        if status != 0 || !collection.problems.isEmpty { throw ExitCode(status == 0 ? 1 : status) }
    }
}
