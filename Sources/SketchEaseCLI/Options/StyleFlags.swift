import ArgumentParser
import SketchEase

extension RenderOptions.Region: ExpressibleByArgument {}
extension RenderOptions.Tone: ExpressibleByArgument {}
extension RenderOptions.Edge: ExpressibleByArgument {}

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

    @Option(help: ArgumentHelp("What a style covers: face, head (with hair and ears), person (the head and, from the chin down, its body and clothes), or ellipse (the grown face box, --box-scale and --feather).", valueName: "region"))
    var region: RenderOptions.Region = .head

    @Option(help: ArgumentHelp("Drawings' lightness: photo (matched to the photo, so a face sits in it) or paper (white paper, as drawn).", valueName: "tone"))
    var tone: RenderOptions.Tone = .photo

    @Option(parsing: .unconditional, help: "With --region ellipse: grow each face box by this factor before sketching, 1 to 3.")
    var boxScale: Double = 1.3

    @Option(parsing: .unconditional, help: "With --region ellipse: soft edge of the ellipse, as a fraction of its radius, 0 (hard edge) to 1.")
    var feather: Double = 0.3

    @Option(help: ArgumentHelp("With --region ellipse: how the edge meets the photo: soft (a fade) or strokes (pencil strokes running out, as if drawn).", valueName: "edge"))
    var edge: RenderOptions.Edge = .soft

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
        let (others, assignments) = FaceStyle.words(parameters)
        if let word = others.first { throw ValidationError("\(flag) expects key=value, got '\(word)'") }
        do {
            let f = try registry.filter(filter)
            return FaceStyle(filterID: f.id, settings: try registry.settings(for: f.id, assignments: assignments))
        } catch let error as FilterError {
            throw ValidationError(error.description)
        }
    }

    /// Region, tone, box scale, feather, edge and the background style.
    func renderOptions(registry: FilterRegistry = .standard) throws -> RenderOptions {
        RenderOptions(boxScale: boxScale, feather: feather, background: try backgroundStyle(registry: registry),
                      region: region, tone: tone, edge: edge)
    }
}
