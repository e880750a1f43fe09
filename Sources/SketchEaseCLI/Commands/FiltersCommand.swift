import ArgumentParser
import SketchEase

/// `sketchease filters [STYLE]`: the same words as `filters [STYLE]` at `edit`'s prompt.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the sketch styles and their parameters, or one style's."
    )

    @Argument(help: ArgumentHelp("A style: show only its parameters (e.g. `sketchease filters pencil`).", valueName: "style"),
              completion: .list(FilterRegistry.standard.ids))
    var style: String?

    func validate() throws {
        // A misspelt style is a usage mistake, with the likely one ("did you mean 'pencil'?").
        if let style {
            do { _ = try FilterRegistry.standard.filter(style) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        let chosen = try style.map { [try FilterRegistry.standard.filter($0)] } ?? FilterRegistry.standard.filters
        for filter in chosen {
            print("\(filter.id) — \(filter.summary)")
            if let judged = filter.judged { TextWrap.hanging(judged, first: "    ", width: 100).forEach { print($0) } }
            for p in filter.parameters {
                print("    \(p.id)  \(p.rangeDescription)")
                print("        \(p.summary)")
            }
            if filter.parameters.isEmpty { print("    (no parameters)") }
            print()
        }
        print("Set parameters with --param key=value, e.g. sketchease batch in.jpg --out out -f pencil -p darkness=2")
        print("The blind panels, their sheets and tallies: docs/look-panel.md")
    }
}
