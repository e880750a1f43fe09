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
}
