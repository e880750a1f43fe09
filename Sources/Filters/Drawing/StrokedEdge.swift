import Vips

/// The edge of a drawing as an artist leaves it: instead of a soft fade, pencil strokes that
/// run out into the photo, thinning as they go.
///
/// The fade (`ramp`: 1 inside, 0 outside) is pushed up where a seeded stroke texture has a
/// stroke and down where it has paper, most in the middle of the fade and not at all at its
/// ends, then steepened: the drawing reaches out along strokes and the photo shows between
/// them. Nothing is drawn beyond the fade's outer end, so the region never grows.
public enum StrokedEdge {
    /// `fade` (one band, float; clipped to 0...1) as an 8-bit mask (0...255) whose edge is
    /// strokes `strokeLength` pixels long, slanted like a right-handed artist's hatching.
    public static func mask(from fade: VipsImage, strokeLength: Double, seed: Int) throws -> VipsImage {
        let ramp = try fade.clamped().inMemory()
        let texture = try PencilTexture(width: ramp.width, height: ramp.height, strokeLength: max(4, strokeLength),
                                        strokeWidth: max(1, strokeLength / 10), angle: 55, seed: seed)
        // Strokes (dark in the texture) up to +1, paper down to -1/2 (the photo shows between
        // strokes, rarely inside the drawing): the texture's log brightness, centred on
        // its mean and scaled.
        let stroke = try texture.logBrightness.linear(-4, 4 * texture.meanLog).clamped(-0.5, 1)
        // 4 r (1 - r): 1 in the middle of the fade, 0 at both ends.
        let reach = try ramp.multiply(ramp.linear(-1, 1)).linear(4, 0)
        let pushed = try ramp.add(stroke.multiply(reach))
        // Steeper about one half, so strokes end crisply; kept within the fade.
        let edge = try pushed.linear(2.2, -0.6).clamped().multiply(ramp.relational("more", constant: [0]).linear(1.0 / 255, 0))
        return try edge.linear(255, 0).cast(.uchar)
    }
}
