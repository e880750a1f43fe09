import Foundation
import Vips

/// A face's region matte cut once, on one picture, and carried with its box to later pictures:
/// a clip cuts a head's matte on the frames its face is detected and moves and scales it with
/// the tracked box in between, instead of cutting it again on every frame (GrabCut cost ~44 ms
/// per face per 1080p frame).
///
/// The cut runs lazily, at most once, on the first `placed` (whichever frame's worker asks
/// first); every frame carrying the matte gets the same cut, so a clip's pixels do not depend
/// on which worker ran first.
public final class CarriedMatte: @unchecked Sendable {
    /// The matte as cut: 8-bit, its top-left corner at (`x`, `y`) of the picture it was cut
    /// on, for a face at `box` there.
    public struct Cut: @unchecked Sendable {
        public var matte: VipsImage
        public var x: Int, y: Int
        public var box: FaceBox
        /// How far the head's reach went on past the picture's edges when it was cut (picture
        /// pixels; 0 where it ended inside): carried into view, the matte goes on that far from
        /// its last column or row there (a face coming in at the edge of a clip was drawn only
        /// as far as the edge had been when its matte was cut).
        public var beyond: Margins
        public init(matte: VipsImage, x: Int, y: Int, box: FaceBox, beyond: Margins = Margins()) {
            self.matte = matte; self.x = x; self.y = y; self.box = box; self.beyond = beyond
        }
    }

    /// Widths past each side of a rectangle.
    public struct Margins: Sendable, Equatable {
        public var left = 0, top = 0, right = 0, bottom = 0
        public init(left: Int = 0, top: Int = 0, right: Int = 0, bottom: Int = 0) {
            self.left = left; self.top = top; self.right = right; self.bottom = bottom
        }
    }

    private let lock = NSLock()
    private var made: (cut: Cut, bytes: [UInt8])?
    private var make: (() throws -> Cut)?
    /// The part of the picture the cut is made on and the box it is made for, where known
    /// before the cut runs: what the matte can cover wherever it is carried.
    private let area: (reach: FaceBox, box: FaceBox)?

    /// A matte cut by `make` when first placed; made on the part `reach` of its picture, for a
    /// face at `box` there (both or neither).
    public init(reaching reach: FaceBox? = nil, for box: FaceBox? = nil, cut make: @escaping () throws -> Cut) {
        self.make = make
        if let reach, let box { area = (reach, box) } else { area = nil }
    }

    /// The part of a picture the matte can cover when carried to a face at `box` (moved and
    /// scaled with it, as `placed` does); nil where it was not given.
    public func reach(for box: FaceBox) -> FaceBox? {
        guard let (reach, cutBox) = area, cutBox.width > 0, cutBox.height > 0 else { return nil }
        let sx = box.width / cutBox.width, sy = box.height / cutBox.height
        return FaceBox(x: box.x + (reach.x - cutBox.x) * sx, y: box.y + (reach.y - cutBox.y) * sy,
                       width: reach.width * sx, height: reach.height * sy)
    }

    /// The matte and its bytes, cut now if it was not yet.
    private func cut() throws -> (cut: Cut, bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let cut = try make!()
        let bytes = try cut.matte.cast(.uchar).pixels()
        made = (cut, bytes)
        make = nil
        return (cut, bytes)
    }

    /// The matte moved and scaled from the box it was cut for to `box`, over `rect` (both in
    /// the coordinates of the picture being drawn): 0 where the carried matte does not reach.
    ///
    /// Resampled (bilinear, at the box's exact position) straight into the rectangle's bytes
    /// (`sk_matte_place`): as libvips operations (a resize and an embed) a placement cost ~5 ms
    /// a face, nearly all of it setting up a pipeline for an image of a few hundred pixels
    /// across; in Swift, pixel by pixel, ~0.3 ms a face-frame of a 1080p clip.
    public func placed(for box: FaceBox, over rect: PixelRect) throws -> VipsImage {
        let (cut, source) = try cut()
        let sx = box.width / cut.box.width, sy = box.height / cut.box.height
        let out = try Self.placed(source, width: cut.matte.width, height: cut.matte.height, scale: SIMD2(sx, sy), beyond: cut.beyond,
                              // Where the matte's corner lands relative to the box, as it did where it was cut.
                              corner: SIMD2(box.x + (Double(cut.x) - cut.box.x) * sx - Double(rect.x),
                                            box.y + (Double(cut.y) - cut.box.y) * sy - Double(rect.y)),
                              over: rect.width, rect.height)
        return try VipsImage.fromPixels(out, width: rect.width, height: rect.height, bands: 1)
    }

    /// `matte` (one band, `width` × `height` bytes) scaled by `scale` with its top-left corner at
    /// `corner`, sampled at the centres of a `outWidth` × `outHeight` canvas's pixels (bilinear,
    /// the matte's edge pixels extended up to its footprint's edge): 0 outside the footprint.
    /// Past the sides it was cut at the picture's edge it goes on (`beyond`, matte pixels), as
    /// its last column or row.
    static func placed(_ matte: [UInt8], width: Int, height: Int, scale: SIMD2<Double>, beyond: Margins = Margins(),
                       corner: SIMD2<Double>, over outWidth: Int, _ outHeight: Int) throws -> [UInt8] {
        try PortraitOperations.placedMatte(matte, width: width, height: height, scale: scale, corner: corner,
                                           over: outWidth, outHeight,
                                           extending: (Double(beyond.left), Double(beyond.top), Double(beyond.right), Double(beyond.bottom)))
    }
}

extension CarriedMatte: Equatable {
    public static func == (a: CarriedMatte, b: CarriedMatte) -> Bool { a === b }
}
