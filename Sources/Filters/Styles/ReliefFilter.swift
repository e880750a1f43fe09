import Foundation
import Vips

/// Relief: the face as if carved, lit by one light.
///
/// Luminance is read as a height field (scaled by `height` and the face size), surface normals
/// come from central differences, and the surface is shaded either with Phong (diffuse plus a
/// specular highlight from one directional light) or with order-2 spherical-harmonics
/// irradiance (Ramamoorthi & Hanrahan 2001: nine coefficients) of an environment made of that
/// light and a soft sky in front of the relief: a matte, diffuse look with light wrapping round
/// the forms.
public struct ReliefFilter: SketchFilter {
    public let id = "relief"
    public let name = "Relief"
    public let summary = "Relief carving: brightness as height, lit by Phong or spherical-harmonics lighting."
    public let parameters: [FilterParameter] = [
        FilterParameter("lighting", .choice(options: ["phong", "harmonics"], defaultValue: "phong"),
                        "phong: one directional light with a highlight; harmonics: soft diffuse spherical-harmonics light."),
        FilterParameter("azimuth", .number(range: 0...360, defaultValue: 135),
                        "Direction the light comes from, in degrees: 0 = right, 90 = top, 180 = left."),
        FilterParameter("elevation", .number(range: 5...90, defaultValue: 40),
                        "Height of the light above the surface, in degrees (90 = straight on)."),
        FilterParameter("height", .number(range: 0.1...10, defaultValue: 2),
                        "Depth of the carving: how far bright areas stand out from dark ones."),
        FilterParameter("smoothing", .number(range: 0.001...0.03, defaultValue: 0.008),
                        "Smoothing of the height field as a fraction of the face size (larger = softer forms)."),
        FilterParameter("material", .colour(defaultValue: "#e4ddd0"),
                        "Colour of the carved surface (light sandstone by default)."),
        FilterParameter("tint", .number(range: 0...1, defaultValue: 0),
                        "Mix of the photo's colours into the material (0 = plain material, 1 = full colour)."),
    ]

    public init() {}

    public var takesPhotoTone: Bool { true }
    public var scalesWithFace: Bool { true }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let face = context.faceSize
        let heightField = try crop.luminance().softened(sigma: max(0.5, settings.number("smoothing") * face))
            .linear(settings.number("height") * face * 0.05, 0)
        let (dx, dy) = try heightField.gradients()
        // n = (-dh/dx, -dh/dy, 1) / length; image y points down, so "up" is -y.
        let length = try dx.multiply(dx).add(dy.multiply(dy)).linear(1, 1).math2("pow", constant: [-0.5])
        let nx = try dx.linear(-1, 0).multiply(length), ny = try dy.linear(-1, 0).multiply(length)
        let nz = length

        let azimuth = settings.number("azimuth") * .pi / 180, elevation = settings.number("elevation") * .pi / 180
        let light = (x: cos(elevation) * cos(azimuth), y: -cos(elevation) * sin(azimuth), z: sin(elevation))
        let cosine = try nx.linear(light.x, 0).add(ny.linear(light.y, 0)).add(nz.linear(light.z, 0))

        let shade: VipsImage
        if settings.text("lighting") == "harmonics" {
            // The environment: the directional light plus a uniform sky over the hemisphere
            // facing the viewer. Projected onto spherical harmonics up to order 2, a unit
            // directional light gives irradiance sum_l A_l (2l+1)/(4 pi) P_l(cos) =
            // 1/4 + cos/2 + 5/32 (3 cos^2 - 1); the sky's order-2 terms vanish, leaving (1 + n_z)/2.
            let sun = try cosine.multiply(cosine).linear(15.0 / 32, 0).add(cosine.linear(0.5, 0.25 - 5.0 / 32))
            let sky = try nz.linear(0.5, 0.5)
            shade = try sun.linear(0.55, 0).add(sky.linear(0.45, 0)).linear(1.1, 0)
        } else {
            let diffuse = try cosine.add(cosine.absolute()).linear(0.5, 0) // max(0, n.l)
            // Reflected light's z component (viewer straight above): 2 (n.l) n_z - l_z.
            let reflected = try diffuse.multiply(nz).linear(2, -light.z)
            let specular = try reflected.add(reflected.absolute()).linear(0.5, 0).math2("pow", constant: [16])
            shade = try diffuse.linear(0.78, 0.24).add(specular.linear(0.35, 0))
        }
        let lit = try shade.clamped(0, 1.2)
        // The surface colour: the material, mixed with the photo's colours by `tint`.
        let tint = settings.number("tint")
        let material = settings.colour("material").components.map { $0 / 255 * (1 - tint) }
        let surface = try crop.linear([tint / 255], material)
        return try surface.multiply(lit).linear(255, 0).cast("uchar").reinterpreted(as: "srgb")
    }
}
