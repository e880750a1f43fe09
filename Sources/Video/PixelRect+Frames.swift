import SketchEase

extension PixelRect {
    /// The rectangle with even corners around `box` (4:2:0 chroma covers 2 × 2 pixels), clipped
    /// to the frame; nil if nothing is left.
    init?(evenCornersAround box: FaceBox, in frame: (width: Int, height: Int)) {
        guard box.isUsable else { return nil }
        let x0 = max(0, Int(box.x.rounded(.down)) & ~1), y0 = max(0, Int(box.y.rounded(.down)) & ~1)
        let x1 = min(frame.width, (Int(box.maxX.rounded(.up)) + 1) & ~1)
        let y1 = min(frame.height, (Int(box.maxY.rounded(.up)) + 1) & ~1)
        guard x1 - x0 >= 2, y1 - y0 >= 2 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
