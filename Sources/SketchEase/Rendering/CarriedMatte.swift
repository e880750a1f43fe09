import Foundation

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
        public init(matte: VipsImage, x: Int, y: Int, box: FaceBox) {
            self.matte = matte; self.x = x; self.y = y; self.box = box
        }
    }

    private let lock = NSLock()
    private var made: Cut?
    private var make: (() throws -> Cut)?

    /// A matte cut by `make` when first placed.
    public init(cut make: @escaping () throws -> Cut) {
        self.make = make
    }

    /// The matte, cut now if it was not yet.
    private func cut() throws -> Cut {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let cut = try make!()
        made = cut
        make = nil
        return cut
    }

    /// The matte moved and scaled from the box it was cut for to `box`, over `rect` (both in
    /// the coordinates of the picture being drawn): 0 where the carried matte does not reach.
    func placed(for box: FaceBox, over rect: PixelRect) throws -> VipsImage {
        let cut = try cut()
        let sx = box.width / cut.box.width, sy = box.height / cut.box.height
        var matte = cut.matte
        if abs(sx - 1) > 0.002 || abs(sy - 1) > 0.002 {
            matte = try matte.resize(scale: sx, verticalScale: sy, kernel: "linear")
        }
        // Where the matte's corner lands relative to the box, as it did where it was cut.
        let x = box.x + (Double(cut.x) - cut.box.x) * sx - Double(rect.x)
        let y = box.y + (Double(cut.y) - cut.box.y) * sy - Double(rect.y)
        return try matte.embed(x: Int(x.rounded()), y: Int(y.rounded()), width: rect.width, height: rect.height)
    }
}

extension CarriedMatte: Equatable {
    public static func == (a: CarriedMatte, b: CarriedMatte) -> Bool { a === b }
}
