import Testing
import Foundation
import TestSupport
import Vips
@testable import Filters

@Suite struct ThrowawayTiming {
    @Test func time() throws {
        let crop = try VipsImage.load(path: TestAssets.group).crop(x: 450, y: 10, width: 600, height: 700).copyMemory()
        for id in FilterRegistry.standard.ids {
            var best = 1e9
            for _ in 0..<3 {
                let t = Date()
                _ = try FilterBench.render(id, crop, faceSize: 360).pixels()
                best = min(best, Date().timeIntervalSince(t))
            }
            print("TIMING \(id) \(Int(best * 1000)) ms")
        }
    }
}
extension VipsImage {
    func copyMemory() throws -> VipsImage { try VipsImage.fromPixels(pixels(), width: width, height: height, bands: bands).reinterpreted(as: "srgb") }
}
