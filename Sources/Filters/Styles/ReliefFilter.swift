import Foundation
import Vips

/// Relief: the face as if carved, lit by one light.
///
/// The height field is a dome over each head (so the face is rounded, not a flat slab) plus the
/// photo's luminance detail, its broad changes halved so dark hair or a hat is a step, not a
/// cliff, and eyes, brows and mouth are sunk into the surface. Normals come from central
/// differences. Two looks:
/// - `phong`: a polished medal under a low raking light. Diffuse light with shadows cast by the
///   height field itself (a short march towards the light), a dark ambient, and a crisp
///   Blinn-Phong highlight.
/// - `harmonics`: matte clay or plaster. Order-2 spherical-harmonics irradiance (Ramamoorthi &
///   Hanrahan 2001) of that light plus a bright sky in front: diffuse light that wraps round the
///   forms; cavities darkened by an ambient-occlusion term (how far the surface lies below its
///   local mean height, at two scales); no highlight.
public struct ReliefFilter: SketchFilter {
    public let id = "relief"
    public let name = "Relief"
    public let summary = "Relief carving: a polished medal under raking light (phong) or matte clay (harmonics)."
    public let parameters: [FilterParameter] = [
        FilterParameter("lighting", .choice(options: ["phong", "harmonics"], defaultValue: "phong"),
                        "phong: polished carving, low light with cast shadows and a highlight; harmonics: matte clay, soft wrapped light, darker hollows."),
        FilterParameter("azimuth", .number(range: 0...360, defaultValue: 135),
                        "Direction the light comes from, in degrees: 0 = right, 90 = top, 180 = left."),
        FilterParameter("elevation", .number(range: 5...90, defaultValue: 35),
                        "Height of the light above the surface, in degrees (low = raking light, long shadows; 90 = straight on)."),
        FilterParameter("height", .number(range: 0.3...8, defaultValue: 2),
                        "Depth of the carving: how far bright areas stand out from dark ones, and how round the head is."),
        FilterParameter("smoothing", .number(range: 0.002...0.024, defaultValue: 0.012),
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
        let face = context.faceSize, depth = settings.number("height")
        let height = try Self.heightField(crop, faces: context.faces, face: face, depth: depth,
                                          smoothing: settings.number("smoothing"), origin: context.origin)
        let (dx, dy) = try height.gradients()
        // n = (-dh/dx, -dh/dy, 1) / length; image y points down, so "up" is -y.
        // The normal's three components are read by several terms: each is computed once.
        let gradient = try VipsImage.bandjoin([dx, dy]).inMemory()
        let squared = try gradient.multiply(gradient)
        let nz = try squared.extractBands(0).add(squared.extractBands(1)).linear(1, 1).math2("pow", constant: [-0.5]).inMemory()
        let tilt = try gradient.linear(-1, 0).multiply(nz).inMemory()
        let nx = try tilt.extractBands(0), ny = try tilt.extractBands(1)

        let azimuth = settings.number("azimuth") * .pi / 180, elevation = settings.number("elevation") * .pi / 180
        let light = (x: cos(elevation) * cos(azimuth), y: -cos(elevation) * sin(azimuth), z: sin(elevation))
        let cosine = try nx.linear(light.x, 0).add(ny.linear(light.y, 0)).add(nz.linear(light.z, 0))

        // The surface colour: the material, mixed with the photo's colours by `tint`.
        let tint = settings.number("tint")
        let material = settings.colour("material").components.map { $0 / 255 * (1 - tint) }
        let surface = try crop.linear([tint / 255], material)

        let lit: VipsImage
        if settings.text("lighting") == "harmonics" {
            // The environment: the directional light plus a uniform sky over the hemisphere
            // facing the viewer. Projected onto spherical harmonics up to order 2, a unit
            // directional light gives irradiance sum_l A_l (2l+1)/(4 pi) P_l(cos) =
            // 1/4 + cos/2 + 5/32 (3 cos^2 - 1); the sky's order-2 terms vanish, leaving (1 + n_z)/2.
            let sun = try cosine.multiply(cosine).linear(15.0 / 32, 0).add(cosine.linear(0.5, 0.25 - 5.0 / 32))
            let sky = try nz.linear(0.5, 0.5)
            let irradiance = try sun.linear(0.5, 0).add(sky.linear(0.5, 0)).linear(1.05, 0)
            let occlusion = try Self.occlusion(of: height, face: face, origin: context.origin)
            // Clay scatters a little light into its hollows: the shade never goes fully dark.
            let shade = try irradiance.multiply(occlusion).clamped(0, 1.1).linear(0.9, 0.08)
            lit = try surface.multiply(shade)
        } else {
            let diffuse = try cosine.add(cosine.absolute()).linear(0.5, 0) // max(0, n.l)
            let shadow = try Self.castShadow(of: height, azimuth: azimuth, elevation: elevation, face: face)
            let direct = try diffuse.multiply(shadow).inMemory()
            // Blinn-Phong: the half vector between the light and the viewer (straight above).
            let half = (x: light.x, y: light.y, z: light.z + 1)
            let halfLength = (half.x * half.x + half.y * half.y + half.z * half.z).squareRoot()
            let nh = try nx.linear(half.x / halfLength, 0).add(ny.linear(half.y / halfLength, 0))
                .add(nz.linear(half.z / halfLength, 0))
            let specular = try nh.clamped(0, 1).math2("pow", constant: [32]).multiply(shadow)
            // A polished surface: a dark ambient (the sides turned away go deep), the material
            // lit by the key light, and a near-white highlight tinted a little by the metal.
            let body = try surface.multiply(direct.linear(0.95, 0.18))
            let shine = try specular.linear(0.9, 0)
            let highlight = try surface.linear(0.35, 0.65).multiply(shine)
            lit = try body.add(highlight)
        }
        return try lit.clamped(0, 1).linear(255, 0).cast(.uchar).reinterpreted(as: .srgb)
    }

    /// The carving's height in pixels: luminance detail (its broad changes halved) and a dome
    /// over each head.
    static func heightField(_ crop: VipsImage, faces: [FaceRegion], face: Double, depth: Double,
                            smoothing: Double, origin: SIMD2<Int> = .zero) throws -> VipsImage {
        // Read twice (the detail and its broad blur): computed once.
        let smooth = try crop.luminance().softened(sigma: max(0.5, smoothing * face)).inMemory()
        let broad = try smooth.broadBlur(sigma: max(2, 0.15 * face), origin: origin)
        var height = try smooth.subtract(broad.linear(0.5, 0)).linear(depth * face * 0.06, 0)
        if let domes = try HeadDome.height(over: faces, width: crop.width, height: crop.height, origin: origin) {
            height = try height.add(domes.linear(depth * face * 0.12, 0))
        }
        return try height.inMemory()
    }

    /// 1 where the light reaches the surface, falling to 0 where the height field stands
    /// between it and the light: the surface is marched towards the light in eight steps over a
    /// tenth of the face, and a point is shadowed by as much as any point on the way rises above
    /// the light's ray (softened over 2.5 % of the face).
    static func castShadow(of height: VipsImage, azimuth: Double, elevation: Double, face: Double) throws -> VipsImage {
        let step = max(1, 0.0125 * face), slope = tan(elevation)
        let direction = (x: cos(azimuth), y: -sin(azimuth))
        var above: [VipsImage] = []
        for k in 1...8 {
            let distance = Double(k) * step
            let ox = Int((direction.x * distance).rounded()), oy = Int((direction.y * distance).rounded())
            guard ox != 0 || oy != 0 else { continue }
            // The height at p + (ox, oy), the borders copied outwards.
            let ahead = try height.embed(x: -ox, y: -oy, width: height.width, height: height.height, extend: "copy")
            let rayRise = (Double(ox * ox + oy * oy)).squareRoot() * slope
            above.append(try ahead.subtract(height).linear(1, -rayRise))
        }
        guard !above.isEmpty else { return try VipsImage.constant(like: height, 1) }
        let highest = above.count == 1 ? above[0] : try VipsImage.bandrank(above, index: above.count - 1)
        return try highest.linear(-1 / max(0.5, 0.025 * face), 1).clamped(0, 1).inMemory()
    }

    /// Ambient occlusion from the height field: 1 on crests and flats, darker where the surface
    /// lies below its neighbourhood's mean height (eye sockets, nostrils, the mouth, round the
    /// head), at a fine and a broad scale.
    static func occlusion(of height: VipsImage, face: Double, origin: SIMD2<Int> = .zero) throws -> VipsImage {
        let fine = try height.softened(sigma: max(1, 0.03 * face)).subtract(height)
        let broad = try height.broadBlur(sigma: max(2, 0.1 * face), origin: origin).subtract(height)
        let depth = try fine.linear(1, 0).add(broad.linear(0.5, 0)).clamped(0, 1e6)
        return try depth.linear(-1 / (0.05 * face), 1).clamped(0.3, 1).inMemory()
    }
}
