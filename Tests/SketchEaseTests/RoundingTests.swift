import Testing
@testable import SketchEase

@Suite struct RoundingTests {
    @Test func halvesRoundAwayFromZeroAndEveryKindOnce() {
        #expect(Rounding.pixels(95.5) == 96 && Rounding.pixels(95.49) == 95 && Rounding.pixels(-2.5) == -3)
        #expect(Rounding.score(0.8849) == "0.88" && Rounding.score(0.8851) == "0.89")
        #expect(Rounding.decimals(208.45, 1) == 208.5 && Rounding.decimals(0.12345, 3) == 0.123)
        #expect(Rounding.size(FaceBox(x: 0, y: 0, width: 95.6, height: 123.4)) == "96×123")
        #expect(Rounding.corner(FaceBox(x: 208.5, y: 156.49, width: 1, height: 1)) == "209, 156")
    }

    /// "96×123 … the face is 95 px across": the check and the message use the size as shown.
    @Test func theTooSmallCheckReadsTheSizeAsShown() {
        let limits = FaceQualityThresholds()
        #expect(!limits.isTooSmall(FaceBox(x: 0, y: 0, width: 95.6, height: 123)))
        #expect(limits.isTooSmall(FaceBox(x: 0, y: 0, width: 95.4, height: 123)))
        var measured = FaceQualityMeasurements(faceSize: 0, outsideFraction: 0, edgesTouched: [], edgesCrossed: [],
                                               leftLuminance: 50, rightLuminance: 50, lightingStops: 0, sharpness: 500,
                                               rollDegrees: 0)
        measured.faceSize = 95.4
        let warning = limits.warnings(for: measured).first { $0.kind == .tooSmall }
        #expect(warning?.message == "too small: the face is 95 px across (at least 96 px sketches well)")
        measured.faceSize = 95.6
        #expect(!limits.warnings(for: measured).contains { $0.kind == .tooSmall })
    }

    /// A new user read "cut off … about 0 % of the face is outside the photo (limit 3 %)" and
    /// "1.0 stops darker (limit 1.0)": each check now fires only past its limit, as shown.
    @Test func everyCheckFiresOnlyPastItsLimitAsShown() {
        let limits = FaceQualityThresholds()
        var measured = FaceQualityMeasurements(faceSize: 200, outsideFraction: 0.001, edgesTouched: ["left"], edgesCrossed: [],
                                               leftLuminance: 50, rightLuminance: 40, lightingStops: 1.04, sharpness: 500,
                                               rollDegrees: 0)
        #expect(limits.warnings(for: measured).isEmpty, "\(limits.warnings(for: measured).map(\.message))")
        measured.outsideFraction = 0.034  // shown as 3 %, the limit
        measured.rollDegrees = limits.maximumRollDegrees + 0.4
        measured.sharpness = limits.minimumSharpness - 0.04
        #expect(limits.warnings(for: measured).isEmpty, "\(limits.warnings(for: measured).map(\.message))")
        measured.outsideFraction = 0.036
        measured.lightingStops = 1.06
        measured.rollDegrees = limits.maximumRollDegrees + 0.6
        measured.sharpness = limits.minimumSharpness - 0.2
        let messages = limits.warnings(for: measured).map(\.message)
        #expect(messages.count == 4, "\(messages)")
        #expect(messages.contains { $0.contains("about 4% of the face is outside the photo (limit 3%)") }, "\(messages)")
        #expect(messages.contains { $0.contains("1.1 stops darker than the left (limit 1.0)") }, "\(messages)")
    }

    @Test func editSummariesShowSizesAsListsDo() {
        #expect(Edit.resize(face: 1, width: 188.6, height: 260.7).summary == "face 1 resized to 189×261")
        #expect(Edit.move(face: 1, dx: -2.5, dy: 3.4).summary == "face 1 moved by -3, 3")
    }
}
