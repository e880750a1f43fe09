import Filters
import Foundation

/// A face's drawing made once, on one picture, and carried to the later pictures on which the
/// face has only moved: a clip draws a face whose look has not changed by moving the drawing
/// of an earlier frame with it, whole pixels at a time, instead of drawing it again.
///
/// Drawn again on every frame, a face moving across a clip was drawn from a picture a pixel or
/// a fraction of one off the last, and a drawing is no smooth function of its picture (strokes
/// begin where a gradient passes a threshold): its strokes and shading shimmered from frame to
/// frame, and the encoder paid for every change as new picture (`DrawingCarrier`, in Video,
/// decides where a drawing is carried and where one is made).
///
/// A drawing is a group's: the faces drawn on one crop (one face, or faces whose regions meet).
/// It is made lazily, at most once, from a copy of the picture it belongs to, by
/// whichever frame's worker asks first: every frame carrying it gets the same bytes, so a
/// clip's pixels do not depend on which worker ran first.
public final class CarriedDrawing: @unchecked Sendable {
    /// A part of a picture as drawn (`drawing`) and as it was (`photo`), with the faces' region
    /// mask over it (255 = drawn), its top-left corner at (`x`, `y`) of the picture it was made on.
    public struct Layer: Sendable {
        public var drawing: [UInt8]
        public var photo: [UInt8]
        public var mask: [UInt8]
        public var x: Int, y: Int, width: Int, height: Int
        /// The bands of `drawing` and `photo` (3: RGB).
        public var bands: Int
        public init(drawing: [UInt8], photo: [UInt8], mask: [UInt8], x: Int, y: Int, width: Int, height: Int, bands: Int) {
            self.drawing = drawing; self.photo = photo; self.mask = mask
            self.x = x; self.y = y; self.width = width; self.height = height; self.bands = bands
        }

        /// Laid over `picture` (`width` × `height`, `bands` bytes a pixel) with its corner at
        /// `corner`: where the mask is 0 the picture is left as it is; elsewhere the drawing,
        /// plus the picture's change since, (255 − mask) / 255 of it, where the mask fades. On
        /// the picture it was made from, that is the drawing, byte for byte; on one where the
        /// faces have only moved, the soft edge of their region shows the picture as it is now.
        public func laid(over picture: inout [UInt8], width pictureWidth: Int, height pictureHeight: Int, at corner: SIMD2<Int>) throws {
            try PortraitOperations.layCarried(drawing, photo: photo, mask: mask, width: width, height: height, bands: bands,
                                              over: &picture, pictureWidth: pictureWidth, pictureHeight: pictureHeight,
                                              x: corner.x, y: corner.y)
        }
    }

    /// A drawing laid on a picture `offset` whole pixels from where it was made: its corner,
    /// (`Layer.x`, `Layer.y`) on the picture it was made on, lands at that plus `offset` in the
    /// coordinates of the picture it is laid on.
    public struct Placement: Sendable, Equatable {
        public let drawing: CarriedDrawing
        public let offset: SIMD2<Int>
        public init(_ drawing: CarriedDrawing, offset: SIMD2<Int>) { self.drawing = drawing; self.offset = offset }
    }

    private let lock = NSLock()
    private var made: Layer??
    private var make: (() throws -> Layer?)?

    /// The number of the picture (a clip's frame) the drawing belongs to.
    public let frame: Int

    /// The drawing of picture `frame`, made by `make` when first asked for (nil: nothing of the
    /// face is drawn).
    public init(frame: Int, make: @escaping () throws -> Layer?) { self.frame = frame; self.make = make }

    /// The drawing, made now if it was not yet.
    public func layer() throws -> Layer? {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let layer = try make!()
        made = .some(layer)
        make = nil
        return layer
    }
}

extension CarriedDrawing: Equatable {
    public static func == (a: CarriedDrawing, b: CarriedDrawing) -> Bool { a === b }
}
