import Foundation
import Vips

/// Chroma key: pixels within a colour range (hue ± tolerance, saturation and value ranges, in
/// HSV) are replaced by a background colour or picture, for photos shot against a green screen.
///
/// The key is measured in libvips' HSV, whose three bands are all scaled to 0...255 (hue 255 is
/// a full turn). The key mask gets a slightly soft edge, so hair and outlines do not look cut
/// out with scissors.
public struct ChromaKeyFilter: SketchFilter {
    public let id = "chroma"
    public let name = "Chroma key"
    public let summary = "Green screen: replace a keyed colour range with a background colour or image."
    public let parameters: [FilterParameter] = [
        FilterParameter("hue", .number(range: 0...360, defaultValue: 120),
                        "Hue to key out, in degrees (120 = green, 240 = blue)."),
        FilterParameter("tolerance", .number(range: 1...180, defaultValue: 35),
                        "How far from that hue, in degrees, a colour still counts as the key."),
        FilterParameter("saturation-min", .number(range: 0...1, defaultValue: 0.3),
                        "Least saturation keyed (greys and skin below it are kept)."),
        FilterParameter("saturation-max", .number(range: 0...1, defaultValue: 1),
                        "Most saturation keyed."),
        FilterParameter("value-min", .number(range: 0...1, defaultValue: 0.2),
                        "Least brightness keyed (dark shadows below it are kept)."),
        FilterParameter("value-max", .number(range: 0...1, defaultValue: 1),
                        "Most brightness keyed."),
        FilterParameter("background", .colour(defaultValue: "#ffffff"),
                        "Colour put where the key was (when no image is given)."),
        FilterParameter("image", .path(defaultValue: ""),
                        "Picture put where the key was, scaled to cover the area; overrides the colour."),
        FilterParameter("softness", .number(range: 0...3, defaultValue: 0.8),
                        "Blur of the key's edge, in pixels (0 = hard cut)."),
        FilterParameter("spill", .number(range: 0...1, defaultValue: 0.5),
                        "Greying of kept pixels tinged with the key colour (screen light on hair and edges)."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let key = try keyMask(crop, settings: settings)
        let backdrop = try background(width: crop.width, height: crop.height, settings: settings)
        let kept = try suppressingSpill(crop, settings: settings)
        return try key.ifThenElse(backdrop, kept, blend: true).cast("uchar").reinterpreted(as: "srgb")
    }

    /// Kept pixels near the key's hue (within 1.5 × tolerance) but too grey or dark to key,
    /// typically hair and edges lit by the screen, are pulled towards their own grey.
    func suppressingSpill(_ crop: VipsImage, settings: FilterSettings) throws -> VipsImage {
        let spill = settings.number("spill")
        guard spill > 0 else { return crop }
        let tinged = try hueDistance(crop, settings: settings)
            .relational("lesseq", constant: [settings.number("tolerance") * 1.5 / 360 * 255])
        let grey = try crop.bandMean().cast("float")
        let greyed = try crop.cast("float").linear(1 - spill, 0).add(grey.linear(spill, 0)).cast("uchar")
        return try tinged.ifThenElse(greyed, crop)
    }

    /// Circular distance of each pixel's hue from the key hue, in libvips' 0...255 hue units.
    func hueDistance(_ crop: VipsImage, settings: FilterSettings) throws -> VipsImage {
        let hue = try crop.colourspace("hsv").extractBands(0).cast("float")
        let offset = try hue.linear(1, -settings.number("hue") / 360 * 255).absolute()
        return try VipsImage.bandrank([offset, offset.linear(-1, 255)], index: 0)
    }

    /// 8-bit mask: 255 where the pixel is in the keyed colour range.
    func keyMask(_ crop: VipsImage, settings: FilterSettings) throws -> VipsImage {
        let hsv = try crop.colourspace("hsv").cast("float")
        let unit = 255.0
        let distance = try hueDistance(crop, settings: settings)
        let tolerance = settings.number("tolerance") / 360 * unit
        var key = try distance.relational("lesseq", constant: [tolerance])
        let bounds: [(band: Int, low: String, high: String)] = [(1, "saturation-min", "saturation-max"), (2, "value-min", "value-max")]
        for bound in bounds {
            let band = try hsv.extractBands(bound.band)
            key = try key.boolean("and", band.relational("moreeq", constant: [settings.number(bound.low) * unit]))
            key = try key.boolean("and", band.relational("lesseq", constant: [settings.number(bound.high) * unit]))
        }
        let softness = settings.number("softness")
        return softness > 0 ? try key.softened(sigma: softness).cast("uchar") : key
    }

    /// The replacement: the image file scaled to cover width × height, or a solid colour.
    func background(width: Int, height: Int, settings: FilterSettings) throws -> VipsImage {
        let path = settings.text("image")
        guard !path.isEmpty else {
            return try VipsImage.solid(width: width, height: height, pixel: settings.colour("background").components)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw FilterError.invalidParameter("image=\(path): no readable file there")
        }
        var picture: VipsImage
        do {
            picture = try VipsImage.load(path: path).autorotated()
            if picture.hasAlpha { picture = try picture.flattened(background: settings.colour("background").components) }
            if picture.interpretation != "srgb" || picture.bands < 3 { picture = try picture.colourspace("srgb") }
            picture = try picture.extractBands(0, count: 3).cast("uchar")
        } catch let error as VipsError {
            throw FilterError.invalidParameter("image=\(path): \(error.message)")
        }
        let scale = max(Double(width) / Double(picture.width), Double(height) / Double(picture.height))
        let covering = try picture.resize(scale: scale * 1.0001)
        let x = max(0, (covering.width - width) / 2), y = max(0, (covering.height - height) / 2)
        return try covering.embed(x: 0, y: 0, width: max(covering.width, width), height: max(covering.height, height), extend: "copy")
            .crop(x: x, y: y, width: width, height: height)
    }
}
