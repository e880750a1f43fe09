import CPortrait

/// How a drawing keeps a face's small forms (CPortrait's `sk_detail`): each spot of its grey
/// against its surroundings at the scale of an eye, 3 % of the face and never finer than 1.5
/// photo pixels. Where a spot is darker (an iris, a nostril, the line between the lips, a
/// glasses' rim) the drawing is darkened, where lighter (the whites of the eyes, teeth) it is
/// lightened, past a floor of 2 % of white that leaves skin and noise alone. A blind A/B of
/// pencil with it against pencil without, on the 21 panel faces: 54 to 9 (docs/look-panel.md).
enum SmallForms {
    /// The plan for a face `face` pixels across, drawn at `pixel` pixels a photo pixel, whose
    /// grey is already softened by `greySigma`; `amount` 0...1 (0: none).
    static func plan(face: Double, pixel: Double, greySigma: Double, amount: Double) -> sk_detail {
        sk_detail(fine: Float(0.5 * greySigma), sigma: Float(max(1.5, 0.03 * face, 1.5 * pixel)), floor: 0.02,
                  dark: Float(8 * amount), light: Float(5 * amount), features: nil, feature_faces: 0, away: 1)
    }

    /// On a face of 80 px or less (drawn enlarged 1.25x or more), this share of the darks away
    /// from the eyes and brows, the nose and the mouth (placed from its landmarks), the lights
    /// kept everywhere; all of both on a face of 100 px and more. Everywhere alike, an old man's
    /// age spots, moles and stubble came out as "dirty blotches" on a small face. A blind A/B of
    /// pencil on the 17 panel faces under 100 px preferred it 70 to 15 (every sheet); lights
    /// taken away with the darks had split 46 to 39, "muddier" on the smallest faces
    /// (docs/look-panel.md). Pencil's alone: graphite, whose faint outlines leave a small face's
    /// jaw and cheeks to these darks, lost with it 35 to 50 ("a firmer jaw contour" without).
    static let smallFaceAway = 0.35

    /// `plan` with its darks kept to the faces' features on a face drawn enlarged
    /// (`smallFaceAway`), for `body` to draw with (the landmarks it points to live as long).
    static func kept<T>(_ plan: sk_detail, toFeaturesOf context: FilterContext, _ body: (sk_detail) throws -> T) rethrows -> T {
        let enlarged = min(1, max(0, (context.photoPixel - 1) / 0.25))
        let away = 1 - (1 - smallFaceAway) * enlarged
        let points = context.faces.filter { $0.landmarks.count == 5 }.flatMap { $0.landmarks.flatMap { [Float($0.x), Float($0.y)] } }
        guard away < 1, !points.isEmpty else { return try body(plan) }
        return try points.withUnsafeBufferPointer { points in
            var plan = plan
            plan.features = points.baseAddress
            plan.feature_faces = Int32(points.count / 10)
            plan.away = Float(away)
            return try body(plan)
        }
    }
}
