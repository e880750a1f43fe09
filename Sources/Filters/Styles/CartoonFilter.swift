import Vips

/// Cartoon: flat areas of colour with bold black outlines.
///
/// Colours are flattened by repeated bilateral filtering (edge-preserving: skin becomes flat,
/// the jaw's and eyes' edges stay sharp) on a copy where the face is about 160 pixels across,
/// then lightness is posterised into a few bands in CIELAB while hue and chroma stay smooth and
/// slightly boosted. Outlines are coherent lines along the edge tangent flow (flow-based DoG):
/// long strokes on real edges, no specks from skin texture or noise.
public struct CartoonFilter: SketchFilter {
    public let id = "cartoon"
    public let name = "Cartoon"
    public let summary = "Cartoon: flattened, posterised colours with bold black outlines."
    public let parameters: [FilterParameter] = [
        FilterParameter("levels", .integer(range: 2...12, defaultValue: 5),
                        "Number of lightness bands the colours are flattened into."),
        FilterParameter("smoothing", .number(range: 0.005...0.06, defaultValue: 0.02),
                        "Reach of the smoothing as a fraction of the face size: larger flattens more detail."),
        FilterParameter("outline", .number(range: 0...1, defaultValue: 0.7),
                        "How many edges get a black outline (0 = none)."),
        FilterParameter("thickness", .number(range: 0.002...0.02, defaultValue: 0.008),
                        "Outline width as a fraction of the face size."),
        FilterParameter("saturation", .number(range: 0...2, defaultValue: 1.25),
                        "Colour strength of the flattened areas (1 = as photographed)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        // Edge-preserving flattening on a copy with the face ~160 px across (never enlarged).
        let scale = min(1, 160 / max(face, 1))
        let small = scale < 1 ? try crop.resize(scale: scale) : crop
        let reach = max(1.5, settings.number("smoothing") * face * scale)
        let smoothed = try PortraitOperations.bilateral(small, sigmaSpace: reach, sigmaColour: 28, iterations: 3)
        let flat = scale < 1
            ? try smoothed.resize(scale: Double(crop.width) / Double(small.width),
                                  verticalScale: Double(crop.height) / Double(small.height), kernel: "linear")
                .embed(x: 0, y: 0, width: crop.width, height: crop.height, extend: "copy")
                .crop(x: 0, y: 0, width: crop.width, height: crop.height)
            : smoothed

        // Posterise lightness; keep hue and chroma smooth, gently boosted.
        let lab = try flat.colourspace(.lab)
        let step = 100 / Double(settings.integer("levels"))
        // Smoothed before banding, so bands follow the face's forms, not its blotches.
        let lightness = try lab.extractBands(0).softened(sigma: max(0.5, 0.008 * face))
            .linear(1 / step, 0)
        // Bands span L 8...96: no blown-out white patches, and black is left to the outlines.
        let banded = try lightness.rounded().linear(step * 0.88, 8)
        let chroma = try lab.extractBands(1, count: 2).softened(sigma: max(0.5, 0.006 * face)).linear(settings.number("saturation"), 0)
        let colours = try VipsImage.bandjoin([banded, chroma]).reinterpreted(as: .lab).colourspace(.srgb).cast(.uchar)

        // Outlines: coherent lines along the flow of the flattened picture, as bold as asked.
        let outline = settings.number("outline")
        guard outline > 0 else { return colours }
        let grey = try flat.colourspace(.bw).extractBands(0).cast(.uchar)
        let lines = try PortraitOperations.flowLines(
            // A face drawn at about its size keeps outlines about a pixel of the photo wide; an
            // enlarged small face gets thinner ones, and fewer (only its strongest edges).
            grey, flowSigma: max(1, 0.02 * face),
            lineSigma: max(1.1 * context.photoPixel.squareRoot(), settings.number("thickness") * face * 0.7),
            flowLength: max(2, 0.03 * face), rho: 0.94 + 0.055 * outline - 0.015 * max(0, context.photoPixel - 1), sharpness: 200)
        return try colours.multiply(lines.linear(1.0 / 255, 0)).cast(.uchar).reinterpreted(as: .srgb)
    }
}
