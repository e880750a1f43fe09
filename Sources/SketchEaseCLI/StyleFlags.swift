import ArgumentParser
import SketchEase

/// `--filter NAME --param key=value ...`
struct StyleFlags: ParsableArguments {
    @Option(name: .shortAndLong, help: "Sketch style for every face (see `sketchease filters`).")
    var filter: String = "pencil"

    @Option(name: [.short, .customLong("param")], help: ArgumentHelp("A filter parameter, repeatable.", valueName: "key=value"))
    var parameters: [String] = []

    @Option(help: "Grow each face box by this factor before sketching (covers hair and chin).")
    var boxScale: Double = 1.3

    @Option(help: "Soft edge of the face mask, as a fraction of its radius (0 = hard edge).")
    var feather: Double = 0.3

    func validate() throws {
        guard (1.0...3.0).contains(boxScale) else { throw ValidationError("--box-scale must be 1...3") }
        guard (0.0...1.0).contains(feather) else { throw ValidationError("--feather must be 0...1") }
    }

    func style(registry: FilterRegistry = .standard) throws -> FaceStyle {
        var assignments: [String: String] = [:]
        for p in parameters {
            guard let eq = p.firstIndex(of: "="), eq != p.startIndex else {
                throw ValidationError("--param expects key=value, got '\(p)'")
            }
            assignments[String(p[..<eq])] = String(p[p.index(after: eq)...])
        }
        do {
            let f = try registry.filter(filter)
            return FaceStyle(filterID: f.id, settings: try registry.settings(for: f.id, assignments: assignments))
        } catch let error as FilterError {
            throw ValidationError(error.description)
        }
    }

    var render: RenderOptions { RenderOptions(boxScale: boxScale, feather: feather) }
}
