import Foundation
import Synchronization
import Vips

/// Chroma key: pixels within a colour range (hue ± tolerance, saturation and value ranges, in
/// HSV) are replaced by a background colour or picture, for photos shot against a green screen.
///
/// The key is measured in libvips' HSV, whose three bands are all scaled to 0...255 (hue 255 is
/// a full turn). The key mask gets a slightly soft edge, so hair and outlines do not look cut
/// out with scissors. The key colour can be picked from a pixel (`pick`) instead of given as a
/// hue. The background picture is scaled to cover the area (times `scale`), turned by `rotate`
/// and moved by `offset`; for a clip it may be a clip itself, whose frame at each moment the
/// caller gives as `FilterContext.backdrop`.
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
                        "Picture put where the key was, scaled to cover the area; overrides the colour. For `sketchease video` it may be a clip."),
        FilterParameter("pick", .point(defaultValue: ""),
                        "Key the colour of this pixel (X,Y; on a clip's first frame) instead of `hue`."),
        FilterParameter("scale", .number(range: 0.1...10, defaultValue: 1),
                        "Size of the background picture: 1 just covers the area, 2 is twice that."),
        FilterParameter("offset", .point(defaultValue: ""),
                        "Moves the background picture by X,Y pixels (right and down) from the centre."),
        FilterParameter("rotate", .number(range: -180...180, defaultValue: 0),
                        "Turns the background picture by this many degrees (clockwise)."),
        FilterParameter("loop", .flag(defaultValue: true),
                        "A background clip starts over when it ends (false: it holds its last frame)."),
        FilterParameter("softness", .number(range: 0...3, defaultValue: 0.8),
                        "Blur of the key's edge, in pixels (0 = hard cut)."),
        FilterParameter("spill", .number(range: 0...1, defaultValue: 0.5),
                        "Greying of kept pixels tinged with the key colour (screen light on hair and edges)."),
    ]

    public init() {}

    public func apply(to crop: VipsImage, settings given: FilterSettings, context: FilterContext) throws -> VipsImage {
        let settings = try resolvingPick(given, in: crop)
        let key = try keyMask(crop, settings: settings)
        let backdrop = try background(width: crop.width, height: crop.height, settings: settings, picture: context.backdrop)
        let kept = try suppressingSpill(crop, settings: settings)
        return try key.ifThenElse(backdrop, kept, blend: true).cast(.uchar).reinterpreted(as: .srgb)
    }

    /// Kept pixels near the key's hue (within 1.5 × tolerance) but too grey or dark to key,
    /// typically hair and edges lit by the screen, are pulled towards their own grey.
    func suppressingSpill(_ crop: VipsImage, settings: FilterSettings) throws -> VipsImage {
        let spill = settings.number("spill")
        guard spill > 0 else { return crop }
        let tinged = try hueDistance(crop, settings: settings)
            .relational("lesseq", constant: [settings.number("tolerance") * 1.5 / 360 * 255])
        let grey = try crop.bandMean().cast(.float)
        let greyed = try crop.cast(.float).linear(1 - spill, 0).add(grey.linear(spill, 0)).cast(.uchar)
        return try tinged.ifThenElse(greyed, crop)
    }

    /// Circular distance of each pixel's hue from the key hue, in libvips' 0...255 hue units.
    func hueDistance(_ crop: VipsImage, settings: FilterSettings) throws -> VipsImage {
        let hue = try crop.colourspace(.hsv).extractBands(0).cast(.float)
        let offset = try hue.linear(1, -settings.number("hue") / 360 * 255).absolute()
        return try VipsImage.bandrank([offset, offset.linear(-1, 255)], index: 0)
    }

    /// 8-bit mask: 255 where the pixel is in the keyed colour range.
    func keyMask(_ crop: VipsImage, settings: FilterSettings) throws -> VipsImage {
        let hsv = try crop.colourspace(.hsv).cast(.float)
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
        return softness > 0 ? try key.softened(sigma: softness).cast(.uchar) : key
    }

    /// `settings` with `pick` turned into the hue of that pixel of `image` (the mean of the 5×5
    /// pixels around it, inside the image); as they are when nothing is picked.
    public func resolvingPick(_ settings: FilterSettings, in image: VipsImage) throws -> FilterSettings {
        guard let p = settings.point("pick") else { return settings }
        let x = min(max(0, Int(p.x.rounded()) - 2), max(0, image.width - 5)), y = min(max(0, Int(p.y.rounded()) - 2), max(0, image.height - 5))
        let patch = try image.crop(x: x, y: y, width: min(5, image.width), height: min(5, image.height))
        let rgb = try patch.extractBands(0, count: min(3, patch.bands)).pixels()
        let n = Double(rgb.count / 3)
        let r = Double(stride(from: 0, to: rgb.count, by: 3).map { Int(rgb[$0]) }.reduce(0, +)) / n
        let g = Double(stride(from: 1, to: rgb.count, by: 3).map { Int(rgb[$0]) }.reduce(0, +)) / n
        let b = Double(stride(from: 2, to: rgb.count, by: 3).map { Int(rgb[$0]) }.reduce(0, +)) / n
        var values = settings.values
        values["pick"] = nil
        values["hue"] = .number((Self.hue(red: r, green: g, blue: b) * 10).rounded() / 10)
        return FilterSettings(parameters: parameters, values: values)
    }

    /// Hue in degrees (0...360) of an RGB colour.
    static func hue(red r: Double, green g: Double, blue b: Double) -> Double {
        let high = max(r, g, b), low = min(r, g, b), range = high - low
        guard range > 0 else { return 0 }
        let h: Double
        if high == r { h = (g - b) / range } else if high == g { h = 2 + (b - r) / range } else { h = 4 + (r - g) / range }
        return (h * 60 + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The replacement, width × height: the background picture (`picture`, else the `image`
    /// file) placed as `scale`, `rotate` and `offset` say over the background colour, or that
    /// colour alone.
    func background(width: Int, height: Int, settings: FilterSettings, picture given: VipsImage? = nil) throws -> VipsImage {
        let colour = settings.colour("background").components
        let plain = try VipsImage.solid(width: width, height: height, pixel: colour)
        let path = settings.text("image")
        guard let picture = try given ?? (path.isEmpty ? nil : Self.picture(path, colour: colour)) else { return plain }
        let cover = max(Double(width) / Double(picture.width), Double(height) / Double(picture.height)) * settings.number("scale")
        var placed = try picture.resize(scale: cover * 1.0001)
        let angle = settings.number("rotate")
        if angle != 0 { placed = try placed.rotated(degrees: angle, background: colour) }
        let offset = settings.point("offset") ?? (0, 0)
        let x = Int(((Double(width - placed.width)) / 2 + offset.x).rounded())
        let y = Int(((Double(height - placed.height)) / 2 + offset.y).rounded())
        return try plain.inserting(placed, x: x, y: y)
    }

    /// Background pictures, decoded once per process (a batch or a clip reuses them).
    private static let pictures = Mutex<[String: VipsImage]>([:])

    /// The picture at `path`, upright, 8-bit sRGB, transparency flattened onto `colour`.
    static func picture(_ path: String, colour: [Double]) throws -> VipsImage {
        let key = path + "|" + colour.map { String($0) }.joined(separator: ",")
        if let cached = pictures.withLock({ $0[key] }) { return cached }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw FilterError.invalidParameter("image=\(path): no readable file there")
        }
        let picture: VipsImage
        do {
            // Read with its own error message (`FileErrors`), decoded here, not while drawing.
            picture = try FileErrors.attributed {
                var picture = try VipsImage.load(path: path).autorotated()
                if picture.hasAlpha { picture = try picture.flattened(background: colour) }
                if picture.interpretation != .srgb || picture.bands < 3 { picture = try picture.colourspace(.srgb) }
                return try picture.extractBands(0, count: 3).cast(.uchar).inMemory()
            }
        } catch let error as VipsError {
            let clip = ["mp4", "mov", "mkv", "webm", "avi", "m4v"].contains((path as NSString).pathExtension.lowercased())
            throw FilterError.invalidParameter("image=\(path): " + (clip ? "a clip is a background for `sketchease video` only" : error.message))
        }
        pictures.withLock { cache in
            if cache.count >= 4 { cache.removeAll() }
            cache[key] = picture
        }
        return picture
    }
}
