import Testing
import TestSupport
import Vips
@testable import Filters

/// `PortraitOperations.resampled`: a face's crop taken to the size its style draws at and the
/// drawing brought back, over bytes (`sk_resample`), in place of libvips' `resize`.
@Suite struct ResampleTests {
    @Test func reducingAveragesWhatEachPixelCovers() throws {
        // 4 × 2 → 2 × 1: each output pixel the mean of its 2 × 2 block.
        let image = try VipsImage.fromPixels([0, 10, 100, 200, 20, 30, 50, 51], width: 4, height: 2, bands: 1)
        let reduced = try PortraitOperations.resampled(image, width: 2, height: 1)
        #expect(reduced.width == 2 && reduced.height == 1)
        #expect(try reduced.pixels() == [15, 100]) // 60 / 4; 401 / 4 rounded
    }

    @Test func aFlatImageStaysFlatAndKeepsItsBandsAndInterpretation() throws {
        let colour = try VipsImage.fromPixels((0..<(37 * 23 * 3)).map { [40, 120, 220][$0 % 3] },
                                              width: 37, height: 23, bands: 3).reinterpreted(as: .srgb)
        for (width, height) in [(80, 51), (12, 9), (37, 23)] {
            let out = try PortraitOperations.resampled(colour, width: width, height: height)
            let values = Set(try out.pixels().enumerated().map { $0.offset % 3 * 1000 + Int($0.element) })
            #expect(out.width == width && out.height == height && out.bands == 3 && out.interpretation == .srgb)
            #expect(values == [40, 1120, 2220])
        }
        let grey = try VipsImage.fromPixels([UInt8](repeating: 90, count: 30 * 20), width: 30, height: 20, bands: 1).reinterpreted(as: .bw)
        let out = try PortraitOperations.resampled(grey, width: 61, height: 41)
        let levels = Set(try out.pixels())
        #expect(out.bands == 1 && out.interpretation == .bw && levels == [90])
    }

    /// On a real face, there and back as the compositor takes it (enlarged for a small face,
    /// reduced for a large one), the face comes back as it was but for what the smaller copy
    /// could not hold, and where it was: pixel centres stay aligned, so nothing shifts. (libvips'
    /// `resize` moved an enlarged image by a quarter of an input pixel at 2×.)
    @Test func thereAndBackAFaceStaysWhereItWas() throws {
        let face = try FilterBench.faceCrop()
        let original = try face.cast(.float)
        for factor in [1.7, 0.6] {
            let width = Int((Double(face.width) * factor).rounded()), height = Int((Double(face.height) * factor).rounded())
            let there = try PortraitOperations.resampled(face, width: width, height: height)
            let back = try PortraitOperations.resampled(there, width: face.width, height: face.height).cast(.float)
            #expect(back.width == face.width && back.height == face.height)
            let difference = try back.subtract(original).absolute().average()
            // No more lost than through libvips' `resize` there and back.
            let libvips = try face.resize(scale: factor).resize(scale: Double(face.width) / Double(width),
                                                                 verticalScale: Double(face.height) / Double(height))
                .embed(x: 0, y: 0, width: face.width, height: face.height, extend: "copy")
                .crop(x: 0, y: 0, width: face.width, height: face.height).cast(.float)
            let theirs = try libvips.subtract(original).absolute().average()
            #expect(difference <= theirs, "×\(factor): \(difference) levels on average, libvips \(theirs)")
            // Against the face moved by a pixel, either way, the difference is far larger.
            for (dx, dy) in [(1, 0), (0, 1)] {
                let w = face.width - dx, h = face.height - dy
                let moved = try back.crop(x: dx, y: dy, width: w, height: h).subtract(original.crop(x: 0, y: 0, width: w, height: h))
                    .absolute().average()
                let aligned = try back.crop(x: 0, y: 0, width: w, height: h).subtract(original.crop(x: 0, y: 0, width: w, height: h))
                    .absolute().average()
                #expect(moved > 1.5 * aligned, "×\(factor), moved by (\(dx), \(dy)): \(moved) against \(aligned)")
            }
        }
    }

    @Test func moreThanFourBandsIsRefused() throws {
        let five = try VipsImage.fromPixels([UInt8](repeating: 1, count: 4 * 4 * 5), width: 4, height: 4, bands: 5)
        #expect(throws: OpenCVError.self) { try PortraitOperations.resampled(five, width: 2, height: 2) }
    }
}
