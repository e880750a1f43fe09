import Testing
@testable import Filters

/// Where a turned head lies beside its face, from the five landmarks.
@Suite struct HeadTurnTests {
    /// Eyes 20 px apart on a level line, the nose `nose` px right of their middle, the mouth below.
    static func landmarks(nose: Double) -> [SIMD2<Double>] {
        [SIMD2(40, 50), SIMD2(60, 50), SIMD2(50 + nose, 62), SIMD2(43, 72), SIMD2(57, 72)]
    }

    @Test func aFaceSeenFromTheFrontHasItsHeadAroundIt() {
        #expect(HeadTurn.shift(landmarks: Self.landmarks(nose: 0)) == 0)
        // The example photos' frontal faces have the nose within 0.14 eye distances of the middle.
        #expect(HeadTurn.shift(landmarks: Self.landmarks(nose: 2)) == 0)
        #expect(HeadTurn.shift(landmarks: []) == 0)
    }

    @Test func aTurnedFaceHasItsHeadBehindIt() {
        // Turned to the image-left (nose towards the image-left eye): the head lies to the right.
        let left = HeadTurn.shift(landmarks: Self.landmarks(nose: -8))
        #expect(left > 0.2 && left <= HeadTurn.most)
        #expect(HeadTurn.shift(landmarks: Self.landmarks(nose: 8)) == -left)
        // The more it is turned, the further, up to a most.
        #expect(HeadTurn.shift(landmarks: Self.landmarks(nose: -5)) < left)
        #expect(HeadTurn.shift(landmarks: Self.landmarks(nose: -30)) == HeadTurn.most)
    }

    @Test func itFollowsTheEyeLineNotTheImage() {
        // The same face turned a quarter turn in the picture: the shift is along its eye line.
        let turned = Self.landmarks(nose: -8).map { SIMD2(100 - $0.y, $0.x) }
        #expect(abs(HeadTurn.shift(landmarks: turned) - HeadTurn.shift(landmarks: Self.landmarks(nose: -8))) < 1e-9)
    }
}
