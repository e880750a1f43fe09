import Foundation
import Vips

/// Paints flat-coloured, anti-aliased shapes into an RGBA image, entirely in libvips.
///
/// A shape is a signed distance image: each pixel holds its distance in pixels to the shape's
/// outline, negative inside. Shapes combine with `union`, `intersection` and `subtracting`, and
/// `fill` paints one with a colour, its edge anti-aliased over `softness` pixels. Layers go on
/// in painting order, each over the ones before.
struct ShapeCanvas {
    let width: Int
    let height: Int
    /// Pixel centres' coordinates: band 0 is x, band 1 is y.
    private let coordinates: VipsImage
    private(set) var colour: VipsImage
    private(set) var alpha: VipsImage

    /// A transparent canvas. `edgeColour` is the colour transparent pixels carry, so the
    /// anti-aliased rim of the first layer blends towards it rather than towards black: pass
    /// the outermost colour painted.
    init(width: Int, height: Int, edgeColour: RGBColour) throws {
        self.width = width
        self.height = height
        coordinates = try VipsImage.coordinates(width: width, height: height).linear(1, 0.5)
        colour = try VipsImage.solid(width: width, height: height, pixel: edgeColour.components)
        alpha = try VipsImage.solid(width: width, height: height, pixel: [0])
    }

    // MARK: Shapes

    func circle(centre: SIMD2<Double>, radius: Double) throws -> VipsImage {
        try ellipse(centre: centre, radii: SIMD2(radius, radius))
    }

    /// An ellipse turned by `degrees` (clockwise, as the image is seen). The distance is exact
    /// for circles; for ellipses it is the usual first-order estimate k0 (k0 - 1) / k1, good
    /// near the rim, which is where anti-aliasing and outlines need it.
    func ellipse(centre: SIMD2<Double>, radii: SIMD2<Double>, degrees: Double = 0) throws -> VipsImage {
        let t = degrees * .pi / 180, c = cos(t), s = sin(t)
        let dx = try coordinates.extractBands(0).linear(1, -centre.x)
        let dy = try coordinates.extractBands(1).linear(1, -centre.y)
        // Into the ellipse's own axes, each divided by its radius.
        let u = try dx.linear(c / radii.x, 0).add(dy.linear(s / radii.x, 0))
        let v = try dx.linear(-s / radii.y, 0).add(dy.linear(c / radii.y, 0))
        if radii.x == radii.y {
            return try u.multiply(u).add(v.multiply(v)).math2("pow", constant: [0.5]).linear(radii.x, -radii.x)
        }
        let k0 = try u.multiply(u).add(v.multiply(v)).math2("pow", constant: [0.5])
        let u1 = try u.linear(1 / radii.x, 0), v1 = try v.linear(1 / radii.y, 0)
        let k1 = try u1.multiply(u1).add(v1.multiply(v1)).math2("pow", constant: [0.5]).linear(1, 1e-9)
        return try k0.multiply(k0.linear(1, -1)).divide(k1)
    }

    /// The half-plane below the line through `point` at `degrees` (inside where y is larger).
    func below(point: SIMD2<Double>, degrees: Double = 0) throws -> VipsImage {
        let t = degrees * .pi / 180
        let normal = SIMD2(-sin(t), cos(t))
        let dx = try coordinates.extractBands(0).linear(normal.x, -normal.x * point.x)
        let dy = try coordinates.extractBands(1).linear(normal.y, -normal.y * point.y)
        return try dx.add(dy).linear(-1, 0)
    }

    /// A band of `thickness` pixels centred on the outline of `shape`.
    func outline(of shape: VipsImage, thickness: Double) throws -> VipsImage {
        try shape.absolute().linear(1, -thickness / 2)
    }

    static func union(_ shapes: VipsImage...) throws -> VipsImage {
        try VipsImage.bandrank(shapes, index: 0)
    }

    static func intersection(_ shapes: VipsImage...) throws -> VipsImage {
        try VipsImage.bandrank(shapes, index: shapes.count - 1)
    }

    static func subtracting(_ hole: VipsImage, from shape: VipsImage) throws -> VipsImage {
        try VipsImage.bandrank([shape, hole.linear(-1, 0)], index: 1)
    }

    // MARK: Painting

    /// Paints `shape` in `colour`. `softness` is the width of the edge ramp in pixels (1 gives a
    /// crisp anti-aliased edge, larger values a soft one); `opacity` scales the coverage.
    /// With `within`, the paint stays inside that shape (crisp at its edge however soft the
    /// shape's own edge is), for shading inside a form.
    mutating func fill(_ shape: VipsImage, colour paint: RGBColour, softness: Double = 1.2, opacity: Double = 1,
                       within clip: VipsImage? = nil) throws {
        let solid = try VipsImage.solid(width: width, height: height, pixel: paint.components)
        try fill(shape, texture: solid, softness: softness, opacity: opacity, within: clip)
    }

    /// Paints `shape` with a 3-band 8-bit image instead of a flat colour.
    mutating func fill(_ shape: VipsImage, texture: VipsImage, softness: Double = 1.2, opacity: Double = 1,
                       within clip: VipsImage? = nil) throws {
        var coverage = try Self.coverage(shape, softness: softness)
        if let clip {
            coverage = try coverage.multiply(Self.coverage(clip, softness: 1.2)).linear(opacity / 255, 0)
        } else if opacity < 1 {
            coverage = try coverage.linear(opacity, 0)
        }
        try paint(coverage: coverage.cast(.uchar), texture: texture)
    }

    /// 0...255: 255 inside, 0 outside, a linear ramp `softness` pixels wide across the outline.
    private static func coverage(_ shape: VipsImage, softness: Double) throws -> VipsImage {
        try shape.linear(-255 / softness, 127.5).cast(.uchar)
    }

    /// Paints `texture` where `coverage` (8-bit, 255 = fully covered) says.
    private mutating func paint(coverage: VipsImage, texture: VipsImage) throws {
        colour = try coverage.ifThenElse(texture, colour, blend: true)
        let opaque = try VipsImage.solid(width: width, height: height, pixel: [255])
        alpha = try coverage.ifThenElse(opaque, alpha, blend: true)
    }

    /// The finished picture: 4-band 8-bit sRGB with alpha, computed once into memory.
    func rendered() throws -> VipsImage {
        let rgba = try colour.cast(.uchar).bandjoin(alpha.cast(.uchar))
        return try VipsImage.fromPixels(try rgba.pixels(), width: width, height: height, bands: 4)
            .reinterpreted(as: .srgb)
    }
}
