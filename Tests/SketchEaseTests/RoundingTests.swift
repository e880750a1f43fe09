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

    @Test func editSummariesShowSizesAsListsDo() {
        #expect(Edit.resize(face: 1, width: 188.6, height: 260.7).summary == "face 1 resized to 189×261")
        #expect(Edit.move(face: 1, dx: -2.5, dy: 3.4).summary == "face 1 moved by -3, 3")
    }
}
