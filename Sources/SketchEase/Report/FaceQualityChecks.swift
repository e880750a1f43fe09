import Foundation

extension FaceQualityThresholds {
    /// The warnings `measured` earns, in a fixed order: size, framing, lighting, sharpness, roll.
    ///
    /// Each check compares the number as the warning shows it with the limit as shown (the rule
    /// of `Rounding`), and fires only past the limit: a warning never reads "0 % outside (limit
    /// 3 %)" or "1.0 stops darker (limit 1.0)".
    public func warnings(for measured: FaceQualityMeasurements) -> [FaceQualityWarning] {
        var found: [FaceQualityWarning] = []
        if Double(Rounding.pixels(measured.faceSize)) < minimumFaceSize {
            found.append(FaceQualityWarning(
                kind: .tooSmall, value: measured.faceSize, threshold: minimumFaceSize,
                message: "too small: the face is \(Rounding.pixels(measured.faceSize)) px across (at least \(Rounding.pixels(minimumFaceSize)) px sketches well)"))
        }
        if shownPercent(measured.outsideFraction) > shownPercent(maximumOutsideFraction) {
            let named = Set(measured.edgesTouched + measured.edgesCrossed)
            let sides = ["left", "top", "right", "bottom"].filter(named.contains)
            let edges = sides.isEmpty ? "" : " at the \(sides.joined(separator: " and ")) edge"
            found.append(FaceQualityWarning(
                kind: .cutOff, value: measured.outsideFraction, threshold: maximumOutsideFraction,
                message: "cut off\(edges): about \(percent(measured.outsideFraction)) of the face is outside the photo (limit \(percent(maximumOutsideFraction)))"))
        }
        if Rounding.decimals(measured.lightingStops, 1) > Rounding.decimals(maximumLightingStops, 1) {
            let darker = measured.leftLuminance < measured.rightLuminance ? "image-left" : "image-right"
            let other = darker == "image-left" ? "right" : "left"
            found.append(FaceQualityWarning(
                kind: .unevenLighting, value: measured.lightingStops, threshold: maximumLightingStops,
                message: "uneven lighting: the \(darker) half of the face is \(fixed(measured.lightingStops)) stops darker than the \(other) (limit \(fixed(maximumLightingStops)))"))
        }
        if Rounding.decimals(measured.sharpness, 1) < Rounding.decimals(minimumSharpness, 0) {
            found.append(FaceQualityWarning(
                kind: .blurred, value: measured.sharpness, threshold: minimumSharpness,
                message: "blurred: sharpness \(fixed(measured.sharpness, digits: 1)) (variance of the Laplacian; below \(fixed(minimumSharpness, digits: 0)) looks soft)"))
        }
        if Rounding.pixels(abs(measured.rollDegrees)) > Rounding.pixels(maximumRollDegrees) {
            found.append(FaceQualityWarning(
                kind: .rotated, value: abs(measured.rollDegrees), threshold: maximumRollDegrees,
                message: "strongly rotated: the head is tilted \(fixed(abs(measured.rollDegrees), digits: 0))° (limit \(fixed(maximumRollDegrees, digits: 0))°)"))
        }
        return found
    }
}

private func shownPercent(_ fraction: Double) -> Int { Rounding.pixels(fraction * 100) }

private func percent(_ fraction: Double) -> String { "\(shownPercent(fraction))%" }

private func fixed(_ value: Double, digits: Int = 1) -> String { Rounding.text(value, places: digits) }
