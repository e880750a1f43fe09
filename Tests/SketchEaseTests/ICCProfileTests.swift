import Foundation
import Testing
import TestSupport
import Vips
@testable import SketchEase

@Suite struct ICCProfileTests {
    private func profile(of image: VipsImage) throws -> ICCProfile {
        let bytes = try #require(image.blob(field: "icc-profile-data"))
        return try #require(ICCProfile(bytes: bytes))
    }

    @Test func theSRGBProfilesPhotosCarryAreRecognised() throws {
        // The astronaut carries the common sRGB IEC61966-2.1 profile; libvips embeds its own.
        let astronaut = try VipsImage.load(path: TestAssets.astronaut)
        #expect(try profile(of: astronaut).describesSRGB)
        let grace = try VipsImage.load(path: TestAssets.graceHopper)
        #expect(try profile(of: grace.iccExport(profile: "srgb")).describesSRGB)
    }

    @Test func otherColourSpacesAreNot() throws {
        let grace = try VipsImage.load(path: TestAssets.graceHopper)
        let p3 = try profile(of: grace.iccExport(profile: "p3"))
        #expect(p3.colourSpace == "RGB " && !p3.describesSRGB)
        let cmyk = try profile(of: grace.iccExport(profile: "cmyk"))
        #expect(cmyk.colourSpace == "CMYK" && !cmyk.describesSRGB)
    }

    @Test func damagedProfilesAreNotReadAndNotTrusted() throws {
        let bytes = try #require(VipsImage.load(path: TestAssets.astronaut).blob(field: "icc-profile-data"))
        #expect(ICCProfile(bytes: []) == nil)
        #expect(ICCProfile(bytes: Array(bytes.prefix(100))) == nil)
        #expect(ICCProfile(bytes: [UInt8](repeating: 0x41, count: 600)) == nil)
        // A tag table pointing past the end of the data.
        var cut = Array(bytes.prefix(400))
        cut[128...131] = [0, 0, 0, 30]
        #expect(ICCProfile(bytes: cut) == nil)
        // A green primary moved (a wide-gamut profile with sRGB's curves).
        let parsed = try #require(ICCProfile(bytes: bytes))
        #expect(parsed.describesSRGB)
        var moved = bytes
        let gXYZ = try #require(tagOffset("gXYZ", in: bytes))
        moved[gXYZ + 8] = moved[gXYZ + 8] &+ 1 // X up by 1/256
        #expect(ICCProfile(bytes: moved)?.describesSRGB == false)
    }

    @Test func anSRGBPhotoIsUsedAsItIsAndLooksTheSameAsThroughTheTransform() throws {
        let astronaut = try VipsImage.load(path: TestAssets.astronaut)
        #expect(Photo.isPlainSRGB(astronaut))
        let photo = try Photo(image: astronaut)
        let transformed = try astronaut.iccToSRGB()
        #expect(try PixelStats.maxAbsoluteDifference(photo.rgb, transformed) <= 1)
        // A P3 photo still goes through its profile: its pixels change on the way to sRGB.
        let p3 = try astronaut.iccExport(profile: "p3").cast(.uchar)
        #expect(!Photo.isPlainSRGB(p3))
        #expect(try PixelStats.maxAbsoluteDifference(Photo(image: p3).rgb, p3) > 5)
        #expect(try PixelStats.meanAbsoluteDifference(Photo(image: p3).rgb, transformed, x: 0, y: 0, width: 512, height: 512) < 2)
    }

    private func tagOffset(_ signature: String, in bytes: [UInt8]) -> Int? {
        let count = Int(bytes[131]) | Int(bytes[130]) << 8
        for index in 0..<count {
            let entry = 132 + 12 * index
            if String(decoding: bytes[entry..<(entry + 4)], as: UTF8.self) == signature {
                return (entry + 4...entry + 7).reduce(0) { $0 << 8 | Int(bytes[$1]) }
            }
        }
        return nil
    }
}
