import ArgumentParser

@main
struct SketchEaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sketchease",
        abstract: "Turn the faces in your photos into sketches.",
        discussion: """
            Faces are found automatically; each gets a sketch style (see `sketchease filters`). \
            Outputs are 8-bit sRGB PNGs with private metadata (GPS, EXIF) removed. \
            Your original photos are never modified.

            Examples:
              sketchease batch photos/ --out sketches/
              sketchease batch party.jpg --filter ink --param line=0.01 --out out/
              sketchease edit party.jpg --out out/     (a style per face, with undo)
              sketchease report photos/                (check the faces first)
              sketchease detect group.jpg --json
            """,
        version: "0.1.0",
        subcommands: [
            BatchCommand.self, VideoCommand.self, EditCommand.self, ApplyCommand.self, DetectCommand.self, ReportCommand.self,
            FiltersCommand.self, GalleryCommand.self,
        ]
    )
}
