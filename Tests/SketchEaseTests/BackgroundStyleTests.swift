import Testing
import TestSupport
import Vips
@testable import SketchEase

/// `RenderOptions.background`: a style for everything outside the faces.
@Suite struct BackgroundStyleTests {
    let photo: Photo
    let face = FaceBox(x: 175, y: 132, width: 182, height: 205) // Grace Hopper's face

    init() throws {
        photo = try Photo.load(path: TestAssets.graceHopper)
    }

    func compositor(background: String) throws -> FaceCompositor {
        FaceCompositor(options: RenderOptions(background: try .named(background)))
    }

    @Test func backgroundIsStyledAndAnUnstyledFaceKeepsItsPixels() throws {
        let out = try compositor(background: "pencil").render(photo.rgb, faces: [StyledFace(box: face, style: try .named("none"))])
        // Face centre: exactly the photo.
        #expect(try PixelStats.meanAbsoluteDifference(out, photo.rgb, x: 230, y: 190, width: 70, height: 90) == 0)
        // Far outside the face: drawn in the background style (grey pencil, not the colour photo).
        let corner = try PixelStats.meanAbsoluteDifference(out, photo.rgb, x: 0, y: 0, width: 100, height: 60)
        #expect(corner > 20, "background should change, mean difference \(corner)")
        let pencilCorner = try out.crop(x: 0, y: 0, width: 100, height: 60)
        #expect(try pencilCorner.extractBands(0).subtract(pencilCorner.extractBands(2)).absolute().maximum() == 0)
    }

    @Test func styledFaceOverAStyledBackground() throws {
        let out = try compositor(background: "blur").render(photo.rgb, faces: [StyledFace(box: face, style: try .named("ink"))])
        // Inside the face: grey ink; outside: the blurred photo.
        let centre = try out.crop(x: 230, y: 190, width: 70, height: 90)
        #expect(try centre.extractBands(0).subtract(centre.extractBands(2)).absolute().maximum() <= 2)
        let corner = try out.crop(x: 0, y: 0, width: 100, height: 60)
        let original = try photo.rgb.crop(x: 0, y: 0, width: 100, height: 60)
        #expect(try corner.deviation() < original.deviation())
    }

    @Test func withoutFacesTheWholePhotoTakesTheBackgroundStyle() throws {
        let out = try compositor(background: "pixelate").render(photo.rgb, faces: [])
        #expect(out.width == photo.width && out.height == photo.height)
        #expect(try PixelStats.meanAbsoluteDifference(out, photo.rgb, x: 0, y: 0, width: 512, height: 600) > 3)
        #expect(try out.crop(x: 0, y: 0, width: 8, height: 8).extractBands(1).deviation() == 0)
    }

    @Test func aFaceDrawnIntoADrawnBackgroundTakesTheBackgroundsLightnessNotTheDarkPhotos() throws {
        // A dark room (a third of the light), the whole photo drawn in pencil, the face too.
        let dark = try photo.rgb.linear(1.0 / 3, 0).cast(.uchar)
        let faces = [StyledFace(box: face, style: try .named("pencil"))]
        let drawn = try compositor(background: "pencil").render(dark, faces: faces)
        let background = try compositor(background: "pencil").render(dark, faces: [])
        // The face centre is about as light as the background style's own drawing of it,
        // not as dark as the room (as it was when matched to the photo at its own exposure).
        let centre = { (image: VipsImage) in try image.crop(x: 230, y: 190, width: 70, height: 90).average() }
        let face = try centre(drawn), behind = try centre(background)
        var asTaken = FaceCompositor()
        asTaken.exposure = 1
        let photoMatched = try centre(asTaken.render(dark, faces: faces))
        #expect(abs(face - behind) < 25, "face \(face), the background style's drawing of it \(behind)")
        #expect(face > photoMatched + 25, "face \(face), drawn into the dark photo \(photoMatched)")
    }

    @Test func noBackgroundLeavesTheRestUntouched() throws {
        let out = try FaceCompositor().render(photo.rgb, faces: [StyledFace(box: face, style: try .named("ink"))])
        #expect(try PixelStats.meanAbsoluteDifference(out, photo.rgb, x: 0, y: 0, width: 100, height: 60) == 0)
    }
}
