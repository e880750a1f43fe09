import Testing
import TestSupport
@testable import SketchEase

@Suite struct FilteredImageTests {
    let photo: Photo
    let face = FaceBox(x: 175, y: 132, width: 182, height: 205) // Grace Hopper's face

    init() throws { photo = try Photo.load(path: TestAssets.graceHopper) }

    @Test func renderFollowsTheEditsAndNeverTouchesTheOriginal() throws {
        let before = try photo.rgb.pixels()
        var image = FilteredImage(photo: photo, detected: [DetectedFace(box: face, score: 1)])
        let compositor = FaceCompositor()
        #expect(try image.render(with: compositor).pixels() == before, "no style: the photo as it is")
        try image.perform(.setStyle(faces: [1], style: try .named("pencil")))
        let styled = try image.render(with: compositor)
        #expect(try PixelStats.meanAbsoluteDifference(styled, photo.rgb, x: 220, y: 180, width: 80, height: 100) > 20)
        #expect(try image.render(with: compositor).pixels() == styled.pixels(), "rendering is repeatable")
        try image.history.undo()
        #expect(try image.render(with: compositor).pixels() == before)
        #expect(try photo.rgb.pixels() == before)
    }

    @Test func reducedRenderingScalesTheFaces() throws {
        var image = FilteredImage(photo: photo, detected: [DetectedFace(box: face, score: 1)])
        try image.perform(.setStyle(faces: [1], style: try .named("pencil")))
        let (small, scale) = try image.renderReduced(maxSide: 300, with: FaceCompositor())
        #expect(small.height == 300 && abs(scale - 0.5) < 1e-9)
        let original = try photo.rgb.resize(scale: scale)
        #expect(try PixelStats.meanAbsoluteDifference(small, original, x: 110, y: 90, width: 40, height: 50) > 20)
        #expect(try PixelStats.meanAbsoluteDifference(small, original, x: 0, y: 0, width: 50, height: 30) < 1)
    }

    @Test func aPhotoReducedOnceRendersAsTheReducedRenderingDoes() throws {
        var image = FilteredImage(photo: photo, detected: [DetectedFace(box: face, score: 1)])
        try image.perform(.setStyle(faces: [1], style: try .named("ink")))
        let reduced = try photo.reduced(maxSide: 300)
        #expect(reduced.image.height == 300 && abs(reduced.scale - 0.5) < 1e-9)
        let once = try image.render(on: reduced, with: FaceCompositor())
        #expect(try once.pixels() == image.renderReduced(maxSide: 300, with: FaceCompositor()).image.pixels())
        #expect(try photo.reduced(maxSide: 5000).scale == 1, "never enlarged")
    }

    @Test func aSampleIsTheFaceAloneInTheStyleAsked() throws {
        let image = FilteredImage(photo: photo, detected: [DetectedFace(box: face, score: 1)])
        let sample = try image.sample(face: 1, style: try .named("pencil"), maxSide: 160, with: FaceCompositor())
        #expect(max(sample.width, sample.height) == 160)
        let plain = try image.sample(face: 1, style: try .named("none"), maxSide: 160, with: FaceCompositor())
        #expect(try PixelStats.meanAbsoluteDifference(sample, plain, x: 50, y: 50, width: 60, height: 60) > 20)
        #expect(throws: EditError.noSuchFace(7, known: [1])) {
            try image.sample(face: 7, style: try .named("pencil"), maxSide: 160, with: FaceCompositor())
        }
    }

    /// A sample is cut around its face, where the photo's white may not be: it is drawn at the
    /// photo's exposure, as the photo draws the face.
    @Test func aSampleIsDrawnAtItsPhotosExposure() throws {
        let dark = try Photo(image: photo.rgb.colourspace(.scrgb).linear(0.25, 0).colourspace(.srgb).cast(.uchar))
        var image = FilteredImage(photo: dark, detected: [DetectedFace(box: face, score: 1)])
        try image.perform(.setStyle(faces: [1], style: try .named("pencil")))
        #expect(try dark.exposure() == PictureExposure.gain(of: dark.rgb) && dark.exposure() > 2, "measured on the whole photo, kept")
        let sample = try image.sample(face: 1, style: try .named("pencil"), maxSide: 160, with: FaceCompositor())
        var atItsOwn = FaceCompositor()
        atItsOwn.exposure = 1
        let unlifted = try image.sample(face: 1, style: try .named("pencil"), maxSide: 160, with: atItsOwn)
        func lightness(_ image: VipsImage) throws -> Double {
            try image.crop(x: image.width / 2 - 25, y: image.height / 2 - 30, width: 50, height: 60).colourspace(.lab).extractBands(0).average()
        }
        // The whole photo drawn, reduced as the sample is.
        let whole = try image.render(with: FaceCompositor())
        let reach = face.grown(by: max(FaceCompositor().options.boxScale, 1) * 1.15)
        let rect = try #require(PixelRect(enclosing: reach)?.clipped(to: PixelRect(x: 0, y: 0, width: dark.width, height: dark.height)))
        let scale = 160.0 / Double(max(rect.width, rect.height))
        let cut = try whole.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height).resize(scale: scale)
        print("sample L \(try lightness(sample)), at the crop's own exposure \(try lightness(unlifted)), the photo drawn \(try lightness(cut))")
        #expect(abs(try lightness(sample) - lightness(cut)) < 3)
        #expect(try lightness(sample) > lightness(unlifted) + 10)
    }

    @Test func previewOutlinesEachFaceInItsColourAndKeepsTheRestOfThePicture() throws {
        var image = FilteredImage(photo: photo, detected: [DetectedFace(box: face, score: 1),
                                                            DetectedFace(box: FaceBox(x: 20, y: 400, width: 100, height: 100), score: 1)])
        try image.perform(.setStyle(faces: [1], style: try .named("pencil")))
        let preview = try PreviewImage.render(image, compositor: FaceCompositor(), maxSide: 1200)
        #expect(preview.width == photo.width && preview.height == photo.height)
        // Left edge of box 1 (styled, green) and bottom edge of box 2 (plain, amber).
        let green = try preview.crop(x: 175, y: 250, width: 1, height: 1).pixels()
        #expect(green.map(Double.init) == PreviewImage.styledColour)
        let amber = try preview.crop(x: 60, y: 499, width: 1, height: 1).pixels()
        #expect(amber.map(Double.init) == PreviewImage.plainColour)
        // Away from the boxes the photo is unchanged.
        #expect(try PixelStats.meanAbsoluteDifference(preview, photo.rgb, x: 400, y: 500, width: 100, height: 90) == 0)
    }

    @Test func comparisonPutsOriginalAndResultSideBySide() throws {
        let result = try photo.rgb.inverted()
        let both = try ComparisonImage.image(original: photo.rgb, result: result)
        #expect(both.width == 2 * photo.width + 16 && both.height == photo.height)
        #expect(try PixelStats.meanAbsoluteDifference(both, photo.rgb, x: 0, y: 0, width: photo.width, height: photo.height) == 0)
        let right = try both.crop(x: photo.width + 16, y: 0, width: photo.width, height: photo.height)
        #expect(try right.pixels() == result.pixels())
    }
}
