import Foundation
import Testing
import TestSupport
import Vips
@testable import Filters

/// A picture with something white in it is exposed well and its drawings are matched to it as
/// it is; one with nothing that bright (a dark room, a dim bar, backlight) is lifted, by at
/// most two stops, eased in from a fifth above 1 so a drifting light does not jump.
@Suite struct PictureExposureTests {
    static func darkened(_ image: VipsImage, by factor: Double) throws -> VipsImage {
        try image.colourspace(.scrgb).linear(factor, 0).colourspace(.srgb).cast(.uchar).reinterpreted(as: .srgb)
    }

    @Test func photosWithSomethingWhiteInThemAreLeftAsTheyAre() throws {
        for path in [TestAssets.graceHopper, TestAssets.group, TestAssets.astronaut] {
            let image = try VipsImage.load(path: path)
            let white = try PictureExposure.white(of: image)
            #expect(white > 0.6, "\(path): white \(white)")
            #expect(try PictureExposure.gain(of: image) == 1, "\(path)")
        }
    }

    /// Darkened in linear light, a photo is lifted back by what it lost, up to two stops.
    @Test func anUnderExposedPhotoIsLiftedBackByWhatItLost() throws {
        let photo = try VipsImage.load(path: TestAssets.graceHopper)
        let white = try PictureExposure.white(of: photo)
        for factor in [0.5, 0.35, 0.1] {
            let dark = try Self.darkened(photo, by: factor)
            let gain = try PictureExposure.gain(of: dark)
            let lost = min(PictureExposure.maximumGain, PictureExposure.luminance(ofLightness: PictureExposure.whiteLightness) / (white * factor))
            print("darkened to \(factor): gain \(gain), the light lost \(lost)")
            #expect(abs(gain / lost - 1) < 0.06, "\(factor): gain \(gain) for \(lost)")
        }
        #expect(try PictureExposure.gain(of: FilterBench.flat(0, size: 64)) == PictureExposure.maximumGain, "black: two stops, no more")
    }

    /// The gain falls as the white rises, without a step anywhere: from two stops in the dark
    /// to 1 for a well-exposed picture, eased in between `smallestGain` and `fullGain`.
    @Test func theGainFallsSmoothlyAsTheWhiteRises() {
        let whites = stride(from: 0.01, through: 1.0, by: 0.0005).map { $0 }
        let gains = whites.map(PictureExposure.gain(white:))
        #expect(gains.first == PictureExposure.maximumGain && gains.last == 1)
        for (a, b) in zip(gains, gains.dropFirst()) {
            #expect(b <= a + 1e-12 && a - b < 0.02, "a step from \(a) to \(b)")
        }
        // Fully lifted from `fullGain` on: the white brought to L 90.
        let wanted = PictureExposure.luminance(ofLightness: PictureExposure.whiteLightness)
        #expect(abs(PictureExposure.gain(white: wanted / 2) - 2) < 1e-9)
        #expect(PictureExposure.gain(white: wanted / 1.1) == 1)
    }

    /// The white is what all but a thousandth of the pixels stay under: one pixel of a lamp in
    /// a thousand does not make a dim picture well exposed; a few do.
    @Test func theWhiteIsWhatAllButAThousandthStayUnder() throws {
        let linear = try LinearLight.levels()
        func pixels(bright: Int) -> [UInt8] {
            (0..<2000).flatMap { i -> [UInt8] in i < bright ? [255, 255, 255] : [90, 90, 90] }
        }
        let grey = Double(linear[90])
        #expect(abs(try PictureExposure.white(ofRGB: pixels(bright: 1)) - grey) < 0.001)
        #expect(try PictureExposure.white(ofRGB: pixels(bright: 3)) > 0.99)
        #expect(try PictureExposure.white(ofRGB: []) == 0)
    }

    /// Followed from frame to frame, a new white is eased in over about a second, the same
    /// whatever the frame rate; a frame no later than the last one changes nothing.
    @Test func aFollowedWhiteSettlesOverAboutASecond() {
        for rate in [5.0, 30.0] {
            var follower = PictureExposure.Follower()
            #expect(follower.gain == 1)
            #expect(follower.gain(white: 1, at: 0) == 1)
            var gains: [(Double, Double)] = []
            for k in 1...Int(4 * rate) {
                let t = Double(k) / rate
                gains.append((t, follower.gain(white: 0.25, at: t)))
            }
            let at = { (time: Double) in gains.first { $0.0 >= time - 1e-9 }!.1 }
            print("\(rate) frames a second: gain \(at(0.2)) at 0.2 s, \(at(1)) at 1 s, \(at(4)) at 4 s")
            #expect(zip(gains, gains.dropFirst()).allSatisfy { $0.1 <= $1.1 }, "rises steadily")
            #expect(at(0.2) < 1.3, "not at once: \(at(0.2))")
            #expect(at(1) > 1.5 && at(1) < 2.5, "on its way after a second: \(at(1))")
            #expect(abs(at(4) - PictureExposure.gain(white: 0.25)) < 0.15, "all but settled after four: \(at(4))")
            let settled = follower.gain
            #expect(follower.gain(white: 1, at: 4) == settled, "the same moment again: no change")
        }
    }

    /// Followed frame by frame, the white is measured on the first frame a sixth of a second
    /// after the last one measured, whatever the frame rate: every fifth frame at 30 a second,
    /// every third at 15, every frame at two (a busy machine); and again at once where the
    /// frames' time goes back.
    @Test func theWhiteIsMeasuredSixTimesASecondAtAnyFrameRate() {
        for (rate, expected) in [(30.0, 24), (15.0, 20), (2.0, 8)] {
            var follower = PictureExposure.Follower()
            var measured = 0
            for k in 0..<Int(4 * rate) {
                _ = follower.gain(at: Double(k) / rate) { measured += 1; return 0.25 }
            }
            #expect(measured == expected, "\(rate) frames a second: \(measured) measurements in 4 s")
            _ = follower.gain(at: 0) { measured += 1; return 0.25 }
            #expect(measured == expected + 1, "time went back: measured again")
        }
    }
}
