import ArgumentParser
import Foundation

@main
struct SketchEaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sketchease",
        abstract: "Turn the faces in your photos into sketches.",
        discussion: """
            Faces are found automatically; each gets a sketch style (see `sketchease filters`). \
            Results are 8-bit sRGB PNGs (or JPEG, WebP) with private metadata (GPS, EXIF) removed. \
            Your original photos are never modified.

            Examples:
              sketchease batch photos/ --out sketches/
              sketchease batch party.jpg --filter ink --param line=0.01 --out out/
              sketchease edit party.jpg --out out/     (a style per face, with undo)
              sketchease report photos/                (check the faces first)
              sketchease detect group.jpg --json
              sketchease gallery a.jpg b.jpg --out styles.png
              sketchease serve photos/ --out out/     (the same in your browser)
            """,
        version: "0.1.0",
        subcommands: [
            BatchCommand.self, VideoCommand.self, EditCommand.self, ApplyCommand.self, DetectCommand.self, ReportCommand.self,
            FiltersCommand.self, GalleryCommand.self, ReportMergeCommand.self, ServeCommand.self,
        ]
    )

    static func main() {
        // Terminal widths of names (accents, wide characters) follow the user's locale.
        setlocale(LC_ALL, "")
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let name = arguments.first,
           let command = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
           let unknown = UnknownOptionCheck.firstUnknown(in: Array(arguments.dropFirst()), for: command) {
            // Said as ArgumentParser says it, with the subcommand's usage line.
            let help = helpMessage(for: command)
            let usage = help.split(separator: "\n").first { $0.hasPrefix("USAGE:") }.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            let full = "\(configuration.commandName ?? "sketchease") \(name)"
            FileHandle.standardError.write(Data(("Error: Unknown option '\(unknown.name)'."
                + (unknown.guess.map { " Did you mean '\($0)'?" } ?? "")
                + "\nUsage: \(usage ?? full)\n  See '\(full) --help' for more information.\n").utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        main(arguments)
    }
}
