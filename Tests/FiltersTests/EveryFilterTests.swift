import Testing
import Vips
@testable import Filters

/// What every registered style promises: same size, 3-band 8-bit sRGB out, deterministic,
/// and usable on tiny crops (a face far away in a large photo).
@Suite struct EveryFilterTests {
    static let ids = FilterRegistry.standard.ids

    @Test(arguments: ids)
    func keepsSizeFormatAndIsDeterministic(id: String) throws {
        let crop = try FilterBench.faceCrop()
        let first = try FilterBench.render(id, crop)
        #expect(first.width == crop.width && first.height == crop.height)
        #expect(first.bands == 3 && first.format == "uchar" && first.interpretation == "srgb")
        #expect(try first.pixels() == FilterBench.render(id, crop).pixels())
    }

    @Test(arguments: ids)
    func worksOnATinyCrop(id: String) throws {
        let crop = try FilterBench.faceCrop().resize(scale: 0.04) // about 11×14 pixels
        let out = try FilterBench.render(id, crop, faceSize: 9)
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3)
        _ = try out.pixels()
    }

    @Test(arguments: ids)
    func everyParameterIsDocumented(id: String) throws {
        let filter = try FilterRegistry.standard.filter(id)
        for p in filter.parameters {
            #expect(p.summary.count > 10, "\(id).\(p.id) needs a summary")
            #expect(try p.validate(p.defaultValue) == p.defaultValue)
        }
    }
}
