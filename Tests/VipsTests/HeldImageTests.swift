import Testing
import TestSupport
@testable import Vips

/// Images held whole in memory are read and cut as bytes, with the pixels libvips computes.
@Suite struct HeldImageTests {
    let photo: VipsImage

    init() throws {
        photo = try VipsImage.load(path: TestAssets.astronaut)
    }

    @Test func aHeldImagesPixelsAreTheComputedOnes() throws {
        let held = try photo.inMemory()
        #expect(try held.isHeld && !photo.crop(x: 0, y: 0, width: 8, height: 8).isHeld)
        #expect(try held.pixels() == photo.pixels())
    }

    @Test(arguments: [(0, 0, 512, 512), (17, 203, 101, 66), (511, 511, 1, 1), (0, 300, 512, 1)])
    func aCopiedRectangleIsTheCrop(x: Int, y: Int, width: Int, height: Int) throws {
        let expected = try photo.crop(x: x, y: y, width: width, height: height).pixels()
        for source in [photo, try photo.inMemory()] {
            let copy = try source.copied(x: x, y: y, width: width, height: height)
            #expect(copy.width == width && copy.height == height && copy.bands == 3)
            #expect(copy.interpretation == .srgb)
            #expect(try copy.pixels() == expected)
            #expect(copy.isHeld, "the copy is held in memory")
        }
        #expect(throws: VipsError.self) { try photo.inMemory().copied(x: 500, y: 0, width: 20, height: 4) }
    }

    @Test func aHeldImageStaysHeldWhenReinterpretedOrCastToItsOwnFormat() throws {
        let grey = try photo.extractBands(1).inMemory()
        let read = try grey.reinterpreted(as: .bw)
        #expect(read.interpretation == .bw && read.isHeld)
        #expect(try read.pixels() == grey.pixels())
        #expect(try grey.cast(.uchar) === grey)
        #expect(try grey.cast(.float).format == .float)
    }

    @Test(arguments: [1.0, 1.3, 4.5, 24])
    func aBrightenedLevelIsWhatLibvipsComputes(gain: Double) throws {
        let ramp = try VipsImage.fromPixels((0..<256).flatMap { [UInt8($0), 0, 255] }, width: 256, height: 1, bands: 3)
        let computed = try ramp.colourspace(.scrgb).linear(gain, 0).colourspace(.srgb).cast(.uchar).extractBands(0).pixels()
        #expect(try LinearLight.brightened(by: gain) == computed)
    }

    @Test func greyLevelsAreLibvipsBlackAndWhite() throws {
        let windows = [(x: 100..<300, y: 50..<200), (x: 250..<260, y: 150..<400)]
        var expected = [Int](repeating: 0, count: 256)
        for window in windows {
            let part = try photo.crop(x: window.x.lowerBound, y: window.y.lowerBound, width: window.x.count, height: window.y.count)
            for (level, count) in try part.colourspace(.bw).extractBands(0).cast(.uchar).histogram()[0].enumerated() {
                expected[level] += count
            }
        }
        #expect(try LinearLight.greyHistogram(of: photo.pixels(), width: photo.width, windows: windows) == expected)
    }

    @Test(arguments: [(0, 0), (100, 37), (-20, -10), (480, 500), (600, 0)])
    func pastingHeldImagesIsLibvipsInsert(x: Int, y: Int) throws {
        let frame = try photo.crop(x: 0, y: 0, width: 512, height: 400).inMemory()
        let part = try photo.crop(x: 200, y: 100, width: 90, height: 60).inMemory()
        let pasted = try frame.inserting(part, x: x, y: y)
        #expect(pasted.isHeld, "pasted into a copy of the rows")
        #expect(pasted.interpretation == .srgb && pasted.width == 512 && pasted.height == 400)
        let lazy = try photo.crop(x: 0, y: 0, width: 512, height: 400).inserting(part, x: x, y: y)
        #expect(!lazy.isHeld)
        #expect(try pasted.pixels() == lazy.pixels())
        #expect(try frame.pixels() == photo.crop(x: 0, y: 0, width: 512, height: 400).pixels(), "the frame is not changed")
    }
}

