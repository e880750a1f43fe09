import Vips

/// A second look at faces found with too little confidence: each is cut out of the full
/// image at a higher resolution than it was found at (small faces are found at 12–16 px,
/// where CenterFace's confidence is low for real faces and false ones alike) and run through
/// the network again; it is kept with the confidence it gets there.
///
/// The crops are laid side by side in one image the size of a tile, `cell` pixels each, so
/// one network run checks many candidates (25 in a 640 × 640 tile's network, ~6 ms each).
struct SecondLook {
    let detector: OpenCVFaceDetector
    /// The size of the image the crops are laid out in (a tile's, to use its network).
    let mosaic: (width: Int, height: Int)
    let cell: Int

    /// The faces among `candidates` (in `image`'s coordinates, each with the scale to look at
    /// it: cell pixels per image pixel) that the second look finds with a confidence of at
    /// least `threshold`, as it sees them.
    func confirmed(_ candidates: [(face: DetectedFace, scale: Double)], in image: VipsImage, threshold: Double) throws -> [DetectedFace] {
        let perRow = max(1, mosaic.width / cell), perColumn = max(1, mosaic.height / cell)
        var confirmed: [DetectedFace] = []
        var start = 0
        while start < candidates.count {
            let batch = Array(candidates[start..<min(candidates.count, start + perRow * perColumn)])
            start += batch.count
            var mosaic = RGBPixels(width: max(self.mosaic.width, cell), height: max(self.mosaic.height, cell))
            var placements: [Placement] = []
            for (i, candidate) in batch.enumerated() {
                let placement = try place(candidate.face, scale: candidate.scale, from: image, column: i % perRow, row: i / perRow,
                                          into: &mosaic)
                placements.append(placement)
            }
            let found = try detector.run(mosaic, threshold: threshold, nmsIoU: 0.3)
            for (candidate, placement) in zip(batch, placements) {
                let inCell = found.filter { placement.cell.contains($0.box.center) }.map(placement.toImage)
                if let best = inCell.filter({ $0.box.iou(candidate.face.box) >= 0.3 }).max(by: { ($0.score ?? 0) < ($1.score ?? 0) }) {
                    confirmed.append(best)
                }
            }
        }
        return confirmed
    }

    /// Where one candidate's crop went in the mosaic, and how mosaic pixels map to the image.
    struct Placement {
        let cell: FaceBox
        let origin: Point       // mosaic point of the image point `imageOrigin`
        let imageOrigin: Point
        let scale: (x: Double, y: Double)  // mosaic pixels per image pixel

        func toImage(_ face: DetectedFace) -> DetectedFace {
            face.offset(dx: -origin.x, dy: -origin.y).scaled(x: 1 / scale.x, y: 1 / scale.y)
                .offset(dx: imageOrigin.x, dy: imageOrigin.y)
        }
    }

    private func place(_ candidate: DetectedFace, scale: Double, from image: VipsImage, column: Int, row: Int,
                       into mosaic: inout RGBPixels) throws -> Placement {
        let reach = Double(cell) / scale                      // image pixels the cell shows
        let centre = candidate.box.center
        let x0 = Int((centre.x - reach / 2).rounded(.down)), y0 = Int((centre.y - reach / 2).rounded(.down))
        let side = Int(reach.rounded(.up))
        let visible = PixelRect(x: max(0, x0), y: max(0, y0),
                                width: min(image.width, x0 + side) - max(0, x0), height: min(image.height, y0 + side) - max(0, y0))
        let cellOrigin = Point(x: Double(column * cell), y: Double(row * cell))
        let cellBox = FaceBox(x: cellOrigin.x, y: cellOrigin.y, width: Double(cell), height: Double(cell))
        guard visible.width > 0, visible.height > 0 else {
            return Placement(cell: cellBox, origin: cellOrigin, imageOrigin: Point(x: 0, y: 0), scale: (scale, scale))
        }
        let crop = try RGBPixels(image.crop(x: visible.x, y: visible.y, width: visible.width, height: visible.height)
            .resize(scale: scale))
        let sx = Double(crop.width) / Double(visible.width), sy = Double(crop.height) / Double(visible.height)
        let offsetX = Int((Double(visible.x - x0) * sx).rounded()), offsetY = Int((Double(visible.y - y0) * sy).rounded())
        var tile = RGBPixels(width: cell, height: cell)
        tile.paste(crop, x: offsetX, y: offsetY)
        mosaic.paste(tile, x: column * cell, y: row * cell)
        return Placement(cell: cellBox, origin: Point(x: cellOrigin.x + Double(offsetX), y: cellOrigin.y + Double(offsetY)),
                         imageOrigin: Point(x: Double(visible.x), y: Double(visible.y)), scale: (sx, sy))
    }
}
