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
        #expect(first.bands == 3 && first.format == .uchar && first.interpretation == .srgb)
        #expect(try first.pixels() == FilterBench.render(id, crop).pixels())
    }

    @Test(arguments: ids)
    func worksOnATinyCrop(id: String) throws {
        let crop = try FilterBench.faceCrop().resize(scale: 0.04) // about 11×14 pixels
        let out = try FilterBench.render(id, crop, faceSize: 9)
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3)
        _ = try out.pixels()
    }

    /// A part of a crop drawn with its origin (`FilterContext.origin`) gets the strokes, grain
    /// and noise the whole crop gets there: away from the part's edges (where blurs and lines
    /// see less of the picture), it is drawn as the whole is. This is what lets a compositor
    /// draw only where a face's region is, and a clip's face keep its strokes from frame to frame.
    /// (At a face size of 150 px: pencil draws the lines of a larger face on a reduced copy,
    /// whose resampling is laid from the crop's corner as every resampled copy is.)
    @Test(arguments: ids)
    func aPartDrawnAtItsOriginIsDrawnAsTheWholeIsThere(id: String) throws {
        let crop = try FilterBench.faceCrop() // 280 × 340
        let face = FaceRegion(x: 60, y: 70, width: 160, height: 190)
        let filter = try FilterRegistry.standard.filter(id)
        let settings = try FilterRegistry.standard.settings(for: id, assignments: [:])
        let whole = try filter.apply(to: crop, settings: settings, context: FilterContext(faceSize: 150, seed: 7, faces: [face]))
        let (x, y, width, height) = (37, 45, 200, 250)
        let part = try filter.apply(to: crop.crop(x: x, y: y, width: width, height: height), settings: settings,
                                    context: FilterContext(faceSize: 150, seed: 7, faces: [face.moved(by: -x, -y)], origin: SIMD2(x, y)))
        let inset = 32
        let inner = (width: width - 2 * inset, height: height - 2 * inset)
        let a = try whole.crop(x: x + inset, y: y + inset, width: inner.width, height: inner.height).pixels()
        let b = try part.crop(x: inset, y: inset, width: inner.width, height: inner.height).pixels()
        let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        let far = Double(differences.filter { $0 > 12 }.count) / Double(differences.count)
        #expect(mean <= 1, "\(id): \(mean) levels apart on average")
        #expect(far <= 0.005, "\(id): \(far * 100) % of the values more than 12 levels apart")
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
