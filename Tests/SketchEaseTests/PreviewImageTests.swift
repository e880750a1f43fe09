import Testing
import TestSupport
@testable import SketchEase

@Suite struct PreviewImageTests {
    /// Boxes inside one another (a face drawn by hand over a detected one): every number stays
    /// readable, no tag over another.
    @Test func labelsOfOverlappingBoxesDoNotHideEachOther() throws {
        let image = try VipsImage.solid(width: 600, height: 400, pixel: [128, 128, 128])
        let boxes = [FaceBox(x: 100, y: 100, width: 120, height: 150), FaceBox(x: 110, y: 110, width: 110, height: 140),
                     FaceBox(x: 120, y: 120, width: 90, height: 100), FaceBox(x: 0, y: 0, width: 60, height: 60)]
        var placed: [PixelRect] = []
        for (i, box) in boxes.enumerated() {
            let tag = try PreviewImage.tag("\(i + 1)", height: box.height, colour: PreviewImage.plainColour)
            let spot = PreviewImage.labelSpot(for: tag, at: box, in: image, line: 2, avoiding: placed)
            #expect(placed.allSatisfy { !$0.intersects(spot) }, "tag \(i + 1) covers another")
            #expect(spot.x >= 0 && spot.y >= 0 && spot.maxX <= 600 && spot.maxY <= 400, "tag \(i + 1) inside the image")
            placed.append(spot)
        }
    }

    @Test func aBoxPartlyOffThePreviewIsOutlinedWithoutError() throws {
        let photo = try Photo(image: try VipsImage.load(path: TestAssets.graceHopper))
        var image = FilteredImage(photo: photo, detected: [])
        try image.perform(.add(face: 1, box: FaceBox(x: 480, y: 560, width: 100, height: 100), style: nil))
        let preview = try PreviewImage.render(image, compositor: FaceCompositor())
        #expect(preview.width == 512 && preview.height == 600)
    }
}
