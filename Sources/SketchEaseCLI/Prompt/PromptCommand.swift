import SketchEase

/// The commands understood at the `sketchease edit` prompt, with their help.
struct PromptCommand: Sendable {
    enum Action: Sendable {
        case set, remove, undo, redo, move, resize, add, delete, background, detect, list, report, filters, preview, export
        case skip, next, previous, quit, help
    }

    let action: Action
    let name: String
    let aliases: [String]
    let usage: String
    /// How many words may follow the command (checked before it runs: extra words are an error).
    let arguments: ClosedRange<Int>
    let summary: String
    let details: String

    static let all: [PromptCommand] = [
        .init(action: .set, name: "set", aliases: ["s", "style"], usage: "set FACES [STYLE] [key=value ...]", arguments: 1...64,
              summary: "give faces a style, or change its parameters",
              details: """
                FACES is a face number, several (1,3), a range (1-3) or `all`. STYLE is a filter name \
                (see `filters`); without one a styled face keeps its filter and only the parameters \
                change, an unstyled face gets the default style. Examples: `set 2 pencil darkness=2`, \
                `set all pencil`, `set 2 darkness=3`, `set 1-3 ink`.
                """),
        .init(action: .remove, name: "remove", aliases: ["rm", "unset", "clear"], usage: "remove FACES", arguments: 1...1,
              summary: "leave faces as in the photo (take their style off)",
              details: "FACES is a face number, several (1,3), a range (1-3) or `all`. The box stays; `delete` removes the box."),
        .init(action: .undo, name: "undo", aliases: ["u", "z"], usage: "undo", arguments: 0...0,
              summary: "take back the last change (any kind, as far back as you like)",
              details: "Undo past `delete` brings the faces back with their styles."),
        .init(action: .redo, name: "redo", aliases: ["r", "y"], usage: "redo", arguments: 0...0,
              summary: "put back the change last undone",
              details: "Redo works until you make a new change after undoing."),
        .init(action: .move, name: "move", aliases: ["mv", "m"], usage: "move FACE DX DY", arguments: 3...3,
              summary: "shift a face box by DX, DY pixels (negative = left/up)",
              details: """
                Whole pixels of the full-size photo. Example: `move 2 10 -20` moves face 2 right 10 \
                and up 20. A box pushed past the photo's edge is cut off there.
                """),
        .init(action: .resize, name: "resize", aliases: ["size", "rs"], usage: "resize FACE W H | resize FACE FACTORx",
              arguments: 2...3,
              summary: "change a face box's size, keeping its centre",
              details: "Example: `resize 1 220 260` (whole pixels) or `resize 1 1.2x` (20% larger). A box is kept to the photo."),
        .init(action: .add, name: "add", aliases: ["a", "box"], usage: "add X Y W H [STYLE] [key=value ...]", arguments: 4...64,
              summary: "draw a box around a face the detector missed",
              details: """
                X Y is the top-left corner, W H the size, in whole pixels of the full-size photo. \
                With STYLE the new face is styled at once. On a clip, end with @SECONDS for the \
                frame the box is on (default the first): the box is followed through the clip.
                """),
        .init(action: .delete, name: "delete", aliases: ["del", "d"], usage: "delete FACES", arguments: 1...1,
              summary: "remove face boxes that are not faces",
              details: "FACES as for `set` (`delete 4`, `delete 2,5`, `delete all`). Other faces keep their numbers; `undo` brings them back."),
        .init(action: .background, name: "background", aliases: ["bg"], usage: "background STYLE [key=value ...] | background none",
              arguments: 1...64,
              summary: "draw the photo around the faces in a style too, or leave it as photographed",
              details: """
                Example: `background pencil` (faces in pencil over a photo drawn in pencil: the look \
                blind panels take for a drawing most often), `background none`. Undone like any change.
                """),
        .init(action: .detect, name: "detect", aliases: ["redetect"], usage: "detect [THRESHOLD]", arguments: 0...1,
              summary: "find the faces again, optionally with another confidence (0-1)",
              details: "Faces found where one was before keep their number and style. Lower thresholds find more (and more false) faces; default 0.5."),
        .init(action: .list, name: "list", aliases: ["ls", "l", "faces"], usage: "list", arguments: 0...0,
              summary: "list the faces, their boxes and styles", details: ""),
        .init(action: .report, name: "report", aliases: ["check", "quality"], usage: "report", arguments: 0...0,
              summary: "check each face: size, framing, lighting, sharpness, tilt, and its skin tone",
              details: "The same face report as `sketchease report`, for the boxes as they are now."),
        .init(action: .filters, name: "filters", aliases: ["styles", "f"], usage: "filters [STYLE]", arguments: 0...1,
              summary: "list the styles, or one style's parameters", details: "Example: `filters pencil`."),
        .init(action: .preview, name: "preview", aliases: ["p", "show"], usage: "preview", arguments: 0...0,
              summary: "show the preview again (numbered boxes: green styled, amber not)", details: ""),
        .init(action: .export, name: "export", aliases: ["e", "save", "w"], usage: "export [all]", arguments: 0...1,
              summary: "write the finished result (full size) into the output folder",
              details: """
                Writes OUT/<name>.png (or the --format chosen), replacing an earlier export; with \
                --compare also OUT/<name>.compare.png. `export all` writes every photo opened so far.
                """),
        .init(action: .skip, name: "skip", aliases: [], usage: "skip", arguments: 0...0,
              summary: "go on to the next photo without exporting this one", details: ""),
        .init(action: .next, name: "next", aliases: ["n"], usage: "next", arguments: 0...0,
              summary: "go to the next photo (this one's changes are kept)", details: ""),
        .init(action: .previous, name: "prev", aliases: ["previous", "back", "b"], usage: "prev", arguments: 0...0,
              summary: "go back to the previous photo", details: ""),
        .init(action: .quit, name: "quit", aliases: ["q", "exit"], usage: "quit | quit!", arguments: 0...0,
              summary: "finish (warns about changes not exported; `quit!` does not ask)",
              details: """
                Edits are saved in OUT/.sketchease/<name>.sketchease.json as you go, so `sketchease \
                edit` on the same photo resumes them. Ctrl-D and Ctrl-C work like `quit`.
                """),
        .init(action: .help, name: "help", aliases: ["h", "?"], usage: "help [COMMAND]", arguments: 0...1,
              summary: "list the commands, or explain one", details: ""),
    ]

    static func named(_ word: String) -> PromptCommand? {
        let w = word.lowercased()
        return all.first { $0.name == w || $0.aliases.contains(w) }
    }

    /// The command a mistyped word was probably meant to be.
    static func closest(to word: String) -> String? {
        guard word.count >= 3 else { return nil }
        let names = all.flatMap { [$0.name] + $0.aliases }
        return NameSuggestion.closest(to: word, among: names).flatMap { named($0)?.name }
    }

    /// The command list for `help`, fitted to `width` columns.
    static func overview(width: Int) -> String {
        let column = all.map(\.usage.count).max() ?? 0
        var lines = all.flatMap { c in
            TextWrap.hanging(c.summary, first: "  " + c.usage.padding(toLength: column, withPad: " ", startingAt: 0) + "  ",
                             width: width)
        }
        lines += TextWrap.lines("Faces are named by the numbers in the preview. `help COMMAND` explains one command (also its short names).",
                                width: width)
        return lines.joined(separator: "\n")
    }

    /// This command's help, fitted to `width` columns.
    func help(width: Int) -> String {
        var lines = [usage] + TextWrap.hanging(summary, first: "  ", width: width)
        if !details.isEmpty { lines += TextWrap.hanging(details, first: "  ", width: width) }
        if !aliases.isEmpty { lines += TextWrap.hanging("short: " + aliases.joined(separator: ", "), first: "  ", width: width) }
        return lines.joined(separator: "\n")
    }
}

/// Wrapping text to a terminal's width at spaces.
enum TextWrap {
    static func lines(_ text: String, width: Int) -> [String] { hanging(text, first: "", width: width) }

    /// `text` after `first`, wrapped to `width` columns; later lines are indented as far as `first`.
    static func hanging(_ text: String, first: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: first.count)
        let room = max(20, width - 1)
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord, line.count + 1 + word.count > room {
                lines.append(line)
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
