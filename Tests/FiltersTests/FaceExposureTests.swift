import Testing
import TestSupport
import Vips
@testable import Filters

/// An under-exposed face is brought to a normal exposure before a style draws it; a face lit
/// normally is left alone.
@Suite struct FaceExposureTests {
    /// Grace Hopper's face in `FilterBench.faceCrop()` coordinates.
    let face = FaceRegion(x: 75, y: 95, width: 130, height: 160)

    static func darkened(_ image: VipsImage, by factor: Double) throws -> VipsImage {
        try image.colourspace(.scrgb).linear(factor, 0).colourspace(.srgb).cast(.uchar).reinterpreted(as: .srgb)
    }

    @Test func aNormallyLitFaceIsLeftAlone() throws {
        let crop = try FilterBench.faceCrop()
        #expect(try FaceExposure.gain(for: crop, faces: [face]) == 1)
        #expect(try PixelStats.maxAbsoluteDifference(FaceExposure.apply(crop, gain: 1), crop) == 0)
    }

    @Test func aDarkRoomIsBroughtBackToAboutTheLitExposure() throws {
        let crop = try FilterBench.faceCrop()
        for factor in [0.25, 0.1, 0.05] {
            let dark = try Self.darkened(crop, by: factor)
            let gain = try FaceExposure.gain(for: dark, faces: [face])
            // The lost light back (the lit face is itself a little above the target).
            #expect(gain > 0.6 / factor && gain < 1.2 / factor, "\(factor): gain \(gain)")
            let restored = try FaceExposure.apply(dark, gain: gain)
            let faceOf = { (image: VipsImage) in
                try image.crop(x: Int(face.x), y: Int(face.y), width: Int(face.width), height: Int(face.height))
            }
            let spread = try faceOf(restored).colourspace(.bw).extractBands(0).deviation()
            let lit = try faceOf(crop).colourspace(.bw).extractBands(0).deviation()
            #expect(spread > 0.7 * lit, "\(factor): deviation \(spread) against \(lit) lit")
        }
    }

    @Test func theGainIsBoundedAndNeedsAFace() throws {
        let black = try FilterBench.flat(0, size: 200)
        #expect(try FaceExposure.gain(for: black, faces: [face]) == FaceExposure.maximumGain)
        #expect(try FaceExposure.gain(for: black, faces: []) == 1)
        let outside = FaceRegion(x: 500, y: 500, width: 50, height: 50)
        #expect(try FaceExposure.gain(for: black, faces: [outside]) == 1)
    }
}
