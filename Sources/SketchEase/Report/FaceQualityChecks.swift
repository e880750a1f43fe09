import Foundation

extension FaceQualityThresholds {
    /// The warnings `measured` earns, in a fixed order: size, framing, lighting, sharpness, roll.
    public func warnings(for measured: FaceQualityMeasurements) -> [FaceQualityWarning] {
        var found: [FaceQualityWarning] = []
        if Double(Rounding.pixels(measured.faceSize)) < minimumFaceSize {
            found.append(FaceQualityWarning(
                kind: .tooSmall, value: measured.faceSize, threshold: minimumFaceSize,
                message: "too small: the face is \(Rounding.pixels(measured.faceSize)) px across (at least \(Rounding.pixels(minimumFaceSize)) px sketches well)"))
        }
        if measured.outsideFraction > maximumOutsideFraction || !measured.edgesTouched.isEmpty {
            let named = Set(measured.edgesTouched + measured.edgesCrossed)
            let sides = ["left", "top", "right", "bottom"].filter(named.contains)
            let edges = sides.isEmpty ? "" : " at the \(sides.joined(separator: " and ")) edge"
            found.append(FaceQualityWarning(
                kind: .cutOff, value: measured.outsideFraction, threshold: maximumOutsideFraction,
                message: "cut off\(edges): about \(percent(measured.outsideFraction)) of the face is outside the photo (limit \(percent(maximumOutsideFraction)))"))
        }
        if measured.lightingStops > maximumLightingStops {
            let darker = measured.leftLuminance < measured.rightLuminance ? "image-left" : "image-right"
            let other = darker == "image-left" ? "right" : "left"
            found.append(FaceQualityWarning(
                kind: .unevenLighting, value: measured.lightingStops, threshold: maximumLightingStops,
                message: "uneven lighting: the \(darker) half of the face is \(fixed(measured.lightingStops)) stops darker than the \(other) (limit \(fixed(maximumLightingStops)))"))
        }
        if measured.sharpness < minimumSharpness {
            found.append(FaceQualityWarning(
                kind: .blurred, value: measured.sharpness, threshold: minimumSharpness,
                message: "blurred: sharpness \(fixed(measured.sharpness, digits: 1)) (variance of the Laplacian; below \(fixed(minimumSharpness, digits: 0)) looks soft)"))
        }
        if abs(measured.rollDegrees) > maximumRollDegrees {
            found.append(FaceQualityWarning(
                kind: .rotated, value: abs(measured.rollDegrees), threshold: maximumRollDegrees,
                message: "strongly rotated: the head is tilted \(fixed(abs(measured.rollDegrees), digits: 0))° (limit \(fixed(maximumRollDegrees, digits: 0))°)"))
        }
        return found
    }
}

private func percent(_ fraction: Double) -> String { "\(Rounding.pixels(fraction * 100))%" }

private func fixed(_ value: Double, digits: Int = 1) -> String { Rounding.text(value, places: digits) }
