import Foundation

/// A face's own coordinate frame, built from its five landmarks: where its features are, how
/// far apart the eyes are, and how much the head is tilted (roll).
///
/// `across` points from the image-left eye to the image-right eye; `down` is perpendicular to
/// it, pointing from the eyes towards the mouth. Lengths are in the pixels the landmarks are in.
public struct LandmarkFrame: Sendable, Equatable {
    public var leftEye: SIMD2<Double>
    public var rightEye: SIMD2<Double>
    public var nose: SIMD2<Double>
    public var mouthLeft: SIMD2<Double>
    public var mouthRight: SIMD2<Double>

    /// The five points in detector order: eyes (image-left, image-right), nose tip, mouth
    /// corners (image-left, image-right). Nil unless there are exactly five.
    public init?(landmarks: [SIMD2<Double>]) {
        guard landmarks.count == 5, landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        leftEye = landmarks[0]; rightEye = landmarks[1]; nose = landmarks[2]
        mouthLeft = landmarks[3]; mouthRight = landmarks[4]
        guard interocular > 0 else { return nil }
    }

    /// Landmarks placed at their typical positions in an upright face box, for faces found by
    /// a detector that gives no landmarks (the cascade fallback).
    ///
    /// The fractions are CenterFace's average on the example photos (eyes at 26 % and 73 % of
    /// the width and 35 % of the height, nose tip at 50 %/54 %, mouth corners at 31 %/70 % of
    /// the width and 71 % of the height).
    public init(estimatedIn box: (x: Double, y: Double, width: Double, height: Double)) {
        func at(_ fx: Double, _ fy: Double) -> SIMD2<Double> { SIMD2(box.x + fx * box.width, box.y + fy * box.height) }
        leftEye = at(0.26, 0.35); rightEye = at(0.73, 0.35); nose = at(0.50, 0.54)
        mouthLeft = at(0.31, 0.71); mouthRight = at(0.70, 0.71)
    }

    public var landmarks: [SIMD2<Double>] { [leftEye, rightEye, nose, mouthLeft, mouthRight] }

    public var eyeCentre: SIMD2<Double> { (leftEye + rightEye) / 2 }
    public var mouthCentre: SIMD2<Double> { (mouthLeft + mouthRight) / 2 }

    /// Distance between the eye centres.
    public var interocular: Double { Self.length(rightEye - leftEye) }
    /// Distance between the mouth corners.
    public var mouthWidth: Double { Self.length(mouthRight - mouthLeft) }

    /// Unit vector along the eye line, image-left eye to image-right eye.
    public var across: SIMD2<Double> { (rightEye - leftEye) / interocular }
    /// Unit vector perpendicular to the eye line, towards the mouth.
    public var down: SIMD2<Double> { SIMD2(-across.y, across.x) }

    /// Head roll in degrees: the eye line's angle from horizontal, positive when the
    /// image-right eye is lower (the head tilts clockwise in the picture).
    public var rollDegrees: Double { atan2(across.y, across.x) * 180 / .pi }

    /// From the eye centre to the mouth centre.
    public var eyeToMouth: SIMD2<Double> { mouthCentre - eyeCentre }
    /// Distance between the eye centre and the mouth centre.
    public var eyeToMouthDistance: Double { Self.length(eyeToMouth) }

    /// A point given in face units: `a` across and `d` down, both in interocular distances,
    /// from the eye centre.
    public func point(across a: Double, down d: Double) -> SIMD2<Double> {
        eyeCentre + across * (a * interocular) + down * (d * interocular)
    }

    static func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
}
