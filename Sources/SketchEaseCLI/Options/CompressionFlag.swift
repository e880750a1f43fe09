import ArgumentParser
import SketchEase

/// `--compression N`: the PNG compression level of every file written.
struct CompressionFlag: ParsableArguments {
    @Option(help: ArgumentHelp(
        "PNG compression level, 0 (fastest, largest) to 9 (smallest, slowest).",
        discussion: """
            Rows are stored as differences from the row above, which makes photos about a third \
            smaller at the same level and speed. Level 6 gives files ~15 % smaller than the \
            default at about three times the writing time.
            """))
    var compression: Int = ExportOptions.defaultCompression

    func validate() throws {
        guard (0...9).contains(compression) else { throw ValidationError("--compression must be 0...9") }
    }
}
