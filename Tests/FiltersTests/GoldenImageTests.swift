import Foundation
import Testing
import TestSupport
import Vips
@testable import Filters

/// Each style on Grace Hopper's face, pinned by a 12×12 grey thumbnail and the drawing's mean
/// and deviation (Tests/FiltersTests/Goldens/<style>.txt), compared with a tolerance: a change
/// that alters how a style looks fails here and must be looked at, and the goldens rewritten
/// (`SKETCHEASE_WRITE_GOLDENS=1 swift test --filter GoldenImageTests`). Made from the example
/// photo that setup installs, so nothing from elsewhere is committed.
@Suite struct GoldenImageTests {
    static let folder = TestAssets.root.appendingPathComponent("Tests/FiltersTests/Goldens")
    static let side = 12

    static func statistics(_ id: String) throws -> [Double] {
        let out = try FilterBench.render(id, FilterBench.faceCrop())
        let grey = try out.colourspace(.bw).extractBands(0)
        let thumb = try grey.resize(scale: Double(side) / Double(grey.width), verticalScale: Double(side) / Double(grey.height), kernel: "linear")
            .crop(x: 0, y: 0, width: side, height: side).cast(.uchar).pixels().map(Double.init)
        return [try grey.average(), try grey.deviation(), try FilterBench.highFrequencyEnergy(out)] + thumb
    }

    @Test(arguments: FilterRegistry.standard.ids)
    func looksAsItDid(id: String) throws {
        let file = Self.folder.appendingPathComponent("\(id).txt")
        let now = try Self.statistics(id)
        if ProcessInfo.processInfo.environment["SKETCHEASE_WRITE_GOLDENS"] != nil {
            try now.map { String(format: "%.2f", $0) }.joined(separator: " ").write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: file, encoding: .utf8).split(separator: " ").compactMap { Double($0) }
        try #require(golden.count == now.count)
        #expect(abs(now[0] - golden[0]) <= 4, "\(id) mean \(now[0]) vs \(golden[0])")
        #expect(abs(now[1] - golden[1]) <= 4, "\(id) deviation \(now[1]) vs \(golden[1])")
        #expect(abs(now[2] - golden[2]) <= max(1, golden[2] * 0.15), "\(id) detail \(now[2]) vs \(golden[2])")
        let thumbDifference = zip(now.dropFirst(3), golden.dropFirst(3)).map { abs($0 - $1) }.reduce(0, +) / Double(Self.side * Self.side)
        #expect(thumbDifference <= 6, "\(id) thumbnail differs by \(thumbDifference) levels on average")
    }
}
