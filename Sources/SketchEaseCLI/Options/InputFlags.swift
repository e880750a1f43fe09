import ArgumentParser
import SketchEase

/// The photos a command works on: files and folders, and whether to go into sub-folders.
/// What counts as a photo is `InputCollector`'s one rule, for every command.
struct InputFlags: ParsableArguments {
    // Optional for the parser so that a misspelt option is reported as such, not as missing
    // photos; commands that need photos say so in their validate().
    @Argument(help: ArgumentHelp("Photos and folders of photos.", valueName: "input"), completion: .file())
    var inputs: [String] = []

    @Flag(name: .shortAndLong, help: "Also take photos from sub-folders.")
    var recursive = false

    /// Throws the usage error for a command that was given no photos.
    func requirePhotos() throws {
        guard !inputs.isEmpty else { throw ValidationError("give photos or folders of photos") }
    }

    /// The photos, never anything inside `outputFolders` or written by SketchEase; results
    /// named with `outputSuffix` (which photo keeps a name two would share).
    func collect(outputFolders: [String] = [], outputSuffix: String = "png") -> InputCollection {
        InputCollector.collect(inputs, recursive: recursive, outputFolders: outputFolders, outputSuffix: outputSuffix)
    }
}
