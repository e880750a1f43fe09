import ArgumentParser
import SketchEase

/// `--filter NAME --param key=value ...`, the background style, and how faces are cut out.
struct StyleFlags: ParsableArguments {
    @Option(name: .shortAndLong, help: "Sketch style for every face (see `sketchease filters`).",
            completion: .list(FilterRegistry.standard.ids))
    var filter: String = "pencil"

    @Option(name: [.short, .customLong("param")], help: ArgumentHelp("A filter parameter, repeatable.", valueName: "key=value"))
    var parameters: [String] = []

    @Option(help: ArgumentHelp("Style for everything outside the faces (default: left as photographed).", valueName: "name"),
            completion: .list(FilterRegistry.standard.ids))
    var backgroundFilter: String?

    @Option(name: .customLong("background-param"), help: ArgumentHelp("A parameter of the background style, repeatable.", valueName: "key=value"))
    var backgroundParameters: [String] = []

    @Option(parsing: .unconditional, help: "Grow each face box by this factor before sketching (covers hair and chin), 1 to 3.")
    var boxScale: Double = 1.3

    @Option(parsing: .unconditional, help: "Soft edge of the face mask, as a fraction of its radius, 0 (hard edge) to 1.")
    var feather: Double = 0.3

    /// Every value is checked here, before any photo is opened, so a mistake is reported with
    /// this command's usage.
    func validate() throws {
        guard (1.0...3.0).contains(boxScale) else { throw ValidationError("--box-scale must be 1...3 (got \(boxScale))") }
        guard (0.0...1.0).contains(feather) else { throw ValidationError("--feather must be 0...1 (got \(feather))") }
        _ = try style()
        _ = try backgroundStyle()
    }

    func style(registry: FilterRegistry = .standard) throws -> FaceStyle {
        try Self.style(filter, parameters, flag: "--param", registry: registry)
    }

    /// The style drawn outside the faces, if `--background-filter` was given.
    func backgroundStyle(registry: FilterRegistry = .standard) throws -> FaceStyle? {
        guard let backgroundFilter else {
            if !backgroundParameters.isEmpty { throw ValidationError("--background-param needs --background-filter") }
            return nil
        }
        return try Self.style(backgroundFilter, backgroundParameters, flag: "--background-param", registry: registry)
    }

    private static func style(_ filter: String, _ parameters: [String], flag: String, registry: FilterRegistry) throws -> FaceStyle {
        var assignments: [String: String] = [:]
        for p in parameters {
            guard let eq = p.firstIndex(of: "="), eq != p.startIndex else {
                throw ValidationError("\(flag) expects key=value, got '\(p)'")
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

    /// Box scale, feather and the background style.
    func renderOptions(registry: FilterRegistry = .standard) throws -> RenderOptions {
        RenderOptions(boxScale: boxScale, feather: feather, background: try backgroundStyle(registry: registry))
    }
}
