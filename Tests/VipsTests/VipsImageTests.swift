import Foundation
import Testing
import TestSupport
@testable import Vips

@Suite struct VipsImageTests {
    @Test func loadsAnExamplePhoto() throws {
        let image = try VipsImage.load(path: TestAssets.astronaut)
        #expect(image.width == 512)
        #expect(image.height == 512)
        #expect(image.bands == 3)
        #expect(image.format == .uchar)
        #expect(image.loader == "pngload")
    }

    @Test func missingFileIsATypedErrorWithLibvipsMessage() throws {
        let error = #expect(throws: VipsError.self) { try VipsImage.load(path: "/no/such/photo.jpg") }
        #expect(error?.message.contains("/no/such/photo.jpg") == true)
    }

    @Test func errorBufferIsClearedAfterEachError() throws {
        let first = #expect(throws: VipsError.self) { try VipsImage.load(path: "/no/first.jpg") }
        let second = #expect(throws: VipsError.self) { try VipsImage.load(path: "/no/second.jpg") }
        #expect(first?.message.contains("first") == true)
        #expect(second?.message.contains("first") == false)
    }

    @Test func unknownArgumentIsAnErrorNotACrash() throws {
        let image = try VipsImage.solid(width: 4, height: 4, pixel: [10])
        let error = #expect(throws: VipsError.self) {
            try VipsCall.image("gaussblur", ["in": .image(image), "sigma": 1.0, "no_such_argument": 3])
        }
        #expect(error?.message.contains("no_such_argument") == true)
        #expect(throws: VipsError.self) { try VipsCall.image("not_an_operation", [:]) }
    }

    @Test func pixelsRoundTripThroughMemory() throws {
        let bytes: [UInt8] = (0..<(5 * 3 * 3)).map { UInt8($0 * 5) }
        let image = try VipsImage.fromPixels(bytes, width: 5, height: 3, bands: 3)
        #expect(try image.pixels() == bytes)
    }

    @Test func operationsReturnNewImagesAndLeaveTheirInputAlone() throws {
        let bytes = [UInt8](repeating: 100, count: 16)
        let image = try VipsImage.fromPixels(bytes, width: 4, height: 4, bands: 1)
        let brighter = try image.linear(1, 50).cast(.uchar)
        #expect(try brighter.pixels() == [UInt8](repeating: 150, count: 16))
        #expect(try image.pixels() == bytes)
    }

    @Test func enumArgumentsTakeNicknames() throws {
        let image = try VipsImage.load(path: TestAssets.astronaut)
        let grey = try image.colourspace(.bw)
        #expect(grey.interpretation == .bw)
    }

    /// The typed operations that make, join and measure images do what libvips' own do.
    @Test func joiningZoomingRoundingAndDistances() throws {
        let a = try VipsImage.fromPixels([10, 20, 30, 40], width: 2, height: 2, bands: 1)
        let b = try VipsImage.black(width: 3, height: 2)
        let darkest = try b.maximum()
        #expect(b.width == 3 && b.height == 2 && b.bands == 1 && darkest == 0)
        let side = try a.joined(b, .horizontal, shim: 1)
        #expect(side.width == 6 && side.height == 2)
        // One above the other: cut to the narrower, or padded to the wider with `expand`.
        let above = try a.joined(b, .vertical), padded = try a.joined(b, .vertical, expand: true)
        let grid = try VipsImage.arrayJoin([a, a, a], across: 2)
        #expect(above.width == 2 && above.height == 4 && padded.width == 3)
        #expect(grid.width == 4 && grid.height == 4)
        #expect(try a.zoomed(x: 2, y: 3).pixels() == [10, 10, 20, 20, 10, 10, 20, 20, 10, 10, 20, 20,
                                                     30, 30, 40, 40, 30, 30, 40, 40, 30, 30, 40, 40])
        #expect(try a.linear(0.1, 0.26).rounded().cast(.uchar).pixels() == [1, 2, 3, 4])
        #expect(try a.remainder(7).cast(.uchar).pixels() == [3, 6, 2, 5])
        // One lit pixel in a row of five: each pixel's distance to it.
        let dot = try VipsImage.fromPixels([0, 0, 255, 0, 0], width: 5, height: 1, bands: 1)
        #expect(try dot.distanceToNearest().cast(.uchar).pixels() == [2, 1, 0, 1, 2])
        let words = try VipsImage.text("Hi", font: "sans 12", dpi: 72)
        let ink = try words.maximum()
        #expect(words.width > 0 && ink > 0)
    }

    /// Every interpretation and band format is named as libvips names it: each set on an image
    /// reads back as itself.
    @Test func interpretationsAndFormatsAreLibvipsOwn() throws {
        let pixel = try VipsImage.fromPixels([1, 2, 3], width: 1, height: 1, bands: 3)
        for kind in VipsImage.Interpretation.allCases {
            #expect(try pixel.reinterpreted(as: kind).interpretation == kind, "\(kind.rawValue)")
        }
        for format in VipsImage.BandFormat.allCases {
            #expect(try pixel.cast(format).format == format, "\(format.rawValue)")
        }
    }

    @Test func convolutionMatrixFromRows() throws {
        let image = try VipsImage.fromPixels([0, 0, 0, 0, 90, 0, 0, 0, 0], width: 3, height: 3, bands: 1)
        let box = try VipsImage.matrix([[1, 1, 1], [1, 1, 1], [1, 1, 1]])
        let summed = try image.convolve(box)
        #expect(try summed.crop(x: 1, y: 1, width: 1, height: 1).average() == 90)
    }

    @Test func pngSaveStripsMetadataUnlessAsked() throws {
        let folder = try TestAssets.temporaryFolder("vips")
        let photo = try VipsImage.load(path: TestAssets.graceHopper).settingBlob("exif-data", ExifFixture.gpsBlob())
        let stripped = folder + "/stripped.png", kept = folder + "/kept.png"
        try photo.savePNG(path: stripped, strip: true)
        try photo.savePNG(path: kept, strip: false)
        let keptFields = try VipsImage.load(path: kept).fieldNames
        let strippedFields = try VipsImage.load(path: stripped).fieldNames
        #expect(keptFields.contains { $0.contains("GPSLatitude") })
        #expect(!strippedFields.contains { $0.hasPrefix("exif-") })
    }

    @Test func everyPNGRowFilterKeepsThePixelsExactly() throws {
        let folder = try TestAssets.temporaryFolder("vips")
        let photo = try VipsImage.load(path: TestAssets.group)
        let original = try photo.pixels()
        let filters: [VipsImage.PNGRowFilter] = [.none, .sub, .up, .average, .paeth, .adaptive]
        for filter in filters {
            let path = folder + "/\(filter.rawValue).png"
            try photo.savePNG(path: path, compression: 2, rowFilter: filter)
            #expect(try VipsImage.load(path: path).pixels() == original, "filter \(filter.rawValue)")
        }
    }

    @Test func upFilteredRowsMakeAPhotoSmallerAtTheSameLevel() throws {
        let folder = try TestAssets.temporaryFolder("vips")
        let photo = try VipsImage.load(path: TestAssets.group)
        let plain = folder + "/none.png", up = folder + "/up.png"
        try photo.savePNG(path: plain, compression: 2, rowFilter: .none)
        try photo.savePNG(path: up, compression: 2, rowFilter: .up)
        // A photo's neighbouring rows are alike: the differences compress far better.
        #expect(try TestAssets.fileSize(up) < TestAssets.fileSize(plain) * 85 / 100)
    }

    @Test func orientationTagIsAppliedByAutorotate() throws {
        let image = try VipsImage.load(path: TestAssets.graceHopper) // 512 x 600
        let tagged = try image.settingOrientation(6)
        #expect(tagged.orientation == 6)
        let upright = try tagged.autorotated()
        #expect(upright.width == 600 && upright.height == 512)
        #expect(upright.orientation == 1)
    }
}
