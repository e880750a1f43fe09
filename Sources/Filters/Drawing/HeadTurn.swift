import Foundation

/// Where a turned head lies beside its face box.
///
/// A detector's box covers the front of a face. Turned to one side, the face shows its front on
/// that side of the box, and the rest of the head (the far cheek, the ear, the hair behind it)
/// lies beyond the box's other side: a region centred on the face's landmarks left it in photo
/// colour. The nose tip shows the turn: a frontal face has it between the eyes, a face turned to
/// the image-left has it towards the image-left eye.
public enum HeadTurn {
    /// How far off the middle of the eyes the nose tip may sit (in eye distances) before a head
    /// counts as turned: frontal faces of the example photos lie within ±0.14.
    static let straight = 0.12
    /// How far the head's centre moves per eye distance of the nose's offset beyond `straight`,
    /// in face-box widths; and the most it moves.
    static let gain = 1.1
    static let most = 0.5

    /// The head's centre beyond the landmarks' centre, in face-box widths along the eye line
    /// (positive: towards the image-right eye), from the five landmarks (eyes image-left then
    /// image-right, nose tip, mouth corners); 0 for a face seen from the front or without them.
    public static func shift(landmarks: [SIMD2<Double>]) -> Double {
        guard landmarks.count == 5 else { return 0 }
        let eyes = landmarks[1] - landmarks[0]
        let distance = (eyes * eyes).sum().squareRoot()
        guard distance > 1e-6 else { return 0 }
        let across = eyes / distance
        // The nose tip's offset from the middle of the eyes, along the eye line, in eye distances.
        let nose = ((landmarks[2] - (landmarks[0] + landmarks[1]) / 2) * across).sum() / distance
        let turned = max(0, abs(nose) - straight)
        // The head lies behind the face: away from the side the nose points to.
        return -(nose < 0 ? -1 : 1) * min(most, gain * turned)
    }
}
