/// The commands understood at the `sketchease edit` prompt, with their help.
struct PromptCommand: Sendable {
    enum Action: Sendable {
        case set, remove, undo, redo, move, resize, add, delete, detect, list, report, filters, preview, export
        case skip, next, previous, quit, help
    }

    let action: Action
    let name: String
    let aliases: [String]
    let usage: String
    let summary: String
    let details: String

    static let all: [PromptCommand] = [
        .init(action: .set, name: "set", aliases: ["s", "style"], usage: "set FACES [STYLE] [key=value ...]",
              summary: "give faces a style, or change its parameters",
              details: """
                FACES is a face number, several (1,3) or `all`. STYLE is a filter name (see `filters`); \
                without one a styled face keeps its filter and only the parameters change, an unstyled \
                face gets the default style. Examples: `set 2 pencil darkness=2`, `set all pencil`, `set 2 darkness=3`.
                """),
        .init(action: .remove, name: "remove", aliases: ["rm", "unset", "clear"], usage: "remove FACES",
              summary: "leave faces as in the photo (take their style off)",
              details: "FACES is a face number, several (1,3) or `all`. The box stays; `delete` removes the box."),
        .init(action: .undo, name: "undo", aliases: ["u", "z"], usage: "undo",
              summary: "take back the last change (any kind, as far back as you like)",
              details: "Undo past `delete` brings the face back with its style."),
        .init(action: .redo, name: "redo", aliases: ["r", "y"], usage: "redo",
              summary: "put back the change last undone",
              details: "Redo works until you make a new change after undoing."),
        .init(action: .move, name: "move", aliases: ["mv", "m"], usage: "move FACE DX DY",
              summary: "shift a face box by DX, DY pixels (negative = left/up)",
              details: "Pixels of the full-size photo. Example: `move 2 10 -20` moves face 2 right 10 and up 20."),
        .init(action: .resize, name: "resize", aliases: ["size", "rs"], usage: "resize FACE W H | resize FACE FACTORx",
              summary: "change a face box's size, keeping its centre",
              details: "Example: `resize 1 220 260` (pixels) or `resize 1 1.2x` (20% larger)."),
        .init(action: .add, name: "add", aliases: ["a", "box"], usage: "add X Y W H [STYLE] [key=value ...]",
              summary: "draw a box around a face the detector missed",
              details: "X Y is the top-left corner, W H the size, in pixels of the full-size photo. With STYLE the new face is styled at once."),
        .init(action: .delete, name: "delete", aliases: ["del", "d"], usage: "delete FACE",
              summary: "remove a face box that is not a face",
              details: "Other faces keep their numbers; `undo` brings it back."),
        .init(action: .detect, name: "detect", aliases: ["redetect"], usage: "detect [THRESHOLD]",
              summary: "find the faces again, optionally with another confidence (0-1)",
              details: "Faces found where one was before keep their number and style. Lower thresholds find more (and more false) faces; default 0.5."),
        .init(action: .list, name: "list", aliases: ["ls", "l", "faces"], usage: "list",
              summary: "list the faces, their boxes and styles", details: ""),
        .init(action: .report, name: "report", aliases: ["check", "quality"], usage: "report",
              summary: "check each face: size, framing, lighting, sharpness, tilt, and its skin tone",
              details: "The same face report as `sketchease report`, for the boxes as they are now."),
        .init(action: .filters, name: "filters", aliases: ["styles", "f"], usage: "filters",
              summary: "list the styles and their parameters", details: ""),
        .init(action: .preview, name: "preview", aliases: ["p", "show"], usage: "preview",
              summary: "show the preview again (numbered boxes: green styled, amber not)", details: ""),
        .init(action: .export, name: "export", aliases: ["e", "save", "w"], usage: "export",
              summary: "write the finished PNG (full size) into the output folder",
              details: "Writes OUT/<name>.png, replacing an earlier export; with --compare also OUT/<name>.compare.png."),
        .init(action: .skip, name: "skip", aliases: [], usage: "skip",
              summary: "go on to the next photo without exporting this one", details: ""),
        .init(action: .next, name: "next", aliases: ["n"], usage: "next",
              summary: "go to the next photo (this one's changes are kept)", details: ""),
        .init(action: .previous, name: "prev", aliases: ["previous", "back", "b"], usage: "prev",
              summary: "go back to the previous photo", details: ""),
        .init(action: .quit, name: "quit", aliases: ["q", "exit"], usage: "quit | quit!",
              summary: "finish (warns about changes not exported; `quit!` does not ask)",
              details: "Edits are saved in OUT/<name>.sketchease.json as you go, so `sketchease edit` on the same photo resumes them."),
        .init(action: .help, name: "help", aliases: ["h", "?"], usage: "help [COMMAND]",
              summary: "list the commands, or explain one", details: ""),
    ]

    static func named(_ word: String) -> PromptCommand? {
        let w = word.lowercased()
        return all.first { $0.name == w || $0.aliases.contains(w) }
    }

    /// The command a mistyped word was probably meant to be (one or two letters off).
    static func closest(to word: String) -> String? {
        let w = Array(word.lowercased())
        guard w.count >= 3 else { return nil }
        let scored = all.flatMap { c in ([c.name] + c.aliases).map { (c.name, distance(w, Array($0))) } }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= (w.count > 4 ? 2 : 1) else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }

    /// The command list for `help`.
    static var overview: String {
        let width = all.map(\.usage.count).max() ?? 0
        var lines = all.map { c in
            "  " + c.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + c.summary
        }
        lines.append("Faces are named by the numbers in the preview. `help COMMAND` explains one command (also its short names).")
        return lines.joined(separator: "\n")
    }

    var help: String {
        var text = "\(usage)\n  \(summary)"
        if !details.isEmpty { text += "\n  \(details)" }
        if !aliases.isEmpty { text += "\n  short: \(aliases.joined(separator: ", "))" }
        return text
    }
}
