import Testing
@testable import Video

/// The 1€ filter Live smooths its boxes with: still when the value is still, close behind it
/// when it moves, and nothing held back.
@Suite struct OneEuroFilterTests {
    /// A box edge standing still, as the detector gives it at 15 frames a second: ±3 px of wobble.
    @Test func aStillValueKeepsStillThroughTheDetectorsWobble() {
        var filter = OneEuroFilter(minCutoff: 1.5, beta: 0.05)
        var state: UInt64 = 0x5ce7 // a fixed sequence of wobble (a linear congruential generator)
        var raw: [Double] = [], smooth: [Double] = []
        for frame in 0..<150 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = 200 + 6 * (Double(state >> 11) / Double(1 << 53) - 0.5)
            raw.append(value)
            smooth.append(filter.filter(value, at: Double(frame) / 15))
        }
        func deviation(_ v: ArraySlice<Double>) -> Double {
            let mean = v.reduce(0, +) / Double(v.count)
            return (v.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(v.count)).squareRoot()
        }
        let before = deviation(raw.dropFirst(15)), after = deviation(smooth.dropFirst(15))
        print("wobble \(before) px -> \(after) px")
        #expect(after < 0.6 * before, "wobble of \(before) px smoothed to \(after) px")
    }

    /// A face crossing the frame at 300 px a second is followed within a few pixels.
    @Test func aMovingValueIsFollowedClosely() {
        var filter = OneEuroFilter(minCutoff: 1.5, beta: 0.05)
        var lag = 0.0
        for frame in 0..<45 {
            let time = Double(frame) / 15, value = 100 + 300 * time
            lag = value - filter.filter(value, at: time)
        }
        print("lag at 300 px/s: \(lag) px")
        #expect(lag >= 0 && lag < 12, "behind by \(lag) px at 300 px/s (20 px a frame)")
    }

    @Test func aTimeThatDoesNotMoveOnStartsAgainAtTheValue() {
        var filter = OneEuroFilter(minCutoff: 1.5, beta: 0.05)
        _ = filter.filter(10, at: 1)
        _ = filter.filter(20, at: 1.1)
        #expect(filter.filter(50, at: 0.5) == 50)
        #expect(filter.filter(50, at: 0.6) == 50)
    }
}
