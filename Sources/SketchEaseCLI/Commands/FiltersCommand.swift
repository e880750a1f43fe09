import ArgumentParser
import SketchEase

struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the sketch styles and their parameters."
    )

    func run() {
        for filter in FilterRegistry.standard.filters {
            print("\(filter.id) — \(filter.summary)")
            for p in filter.parameters {
                print("    \(p.id)  \(p.rangeDescription)")
                print("        \(p.summary)")
            }
            if filter.parameters.isEmpty { print("    (no parameters)") }
            print()
        }
        print("Set parameters with --param key=value, e.g. sketchease batch in.jpg --out out -f pencil -p darkness=2")
    }
}
