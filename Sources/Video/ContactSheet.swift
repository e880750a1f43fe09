import FFmpeg
import Foundation
import SketchEase
import Synchronization

/// Each track's clearest picture (the face large, sharp, confidently found, fully shown), cut
/// out of the frame with room around it: the tiles of a clip's contact sheet.
///
/// Taken from a frame the detector saw the face on with nothing in front of it wherever the
/// track has one: between sightings a track's box is followed, and where its face passes
/// behind another, the box sits on the other face (the tile of a face crossing behind another
/// showed the other person).
final class TrackPictures: Sendable {
    struct Picture: Sendable {
        var pixels: [UInt8]
        /// Where the picture was cut from, in frame pixels.
        var region: PixelRect
        /// The face's box and landmarks on that frame.
        var box: FaceBox
        var landmarks: [Point]
        var frame: Int
        /// Whether the face was seen on that frame: found by the detector there with nothing
        /// covering it (or boxed by hand there).
        var seen: Bool
        var quality: Double

        /// Whether a picture of `seen` and `quality` from `frame` is to be kept over this one:
        /// a seen face first, then the clearer, then the earlier frame.
        func isWorse(than seen: Bool, _ quality: Double, frame: Int) -> Bool {
            if seen != self.seen { return seen }
            return quality > self.quality || (quality == self.quality && frame < self.frame)
        }
    }

    private let table = Mutex<[Int: Picture]>([:])

    var pictures: [Int: Picture] { table.withLock { $0 } }

    /// Keeps each face on `frame` whose picture is clearer than the one kept for its track.
    func consider(_ frame: VideoFrame, _ tracked: TrackedFrame) {
        for face in tracked.faces where face.opacity >= 1 && face.id > 0 {
            let inside = face.box.intersection(FaceBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)))
            let quality = face.score * face.box.area.squareRoot() * ((inside?.area ?? 0) / max(face.box.area, 1))
            let seen = face.detected && face.cover == nil
            // Ties go to the earlier frame, so the choice is the same however frames arrive
            // (frames come from several workers at once: checked again as it is kept).
            func better(than kept: [Int: Picture]) -> Bool {
                kept[face.id]?.isWorse(than: seen, quality, frame: frame.index) ?? true
            }
            guard table.withLock({ better(than: $0) }),
                  let picture = Self.picture(face.box, landmarks: face.landmarks, from: frame, seen: seen, quality: quality)
            else { continue }
            table.withLock { kept in if better(than: kept) { kept[face.id] = picture } }
        }
    }

    /// Keeps `box` on `frame` as the picture of `id` (a box drawn by hand there).
    func take(_ id: Int, box: FaceBox, landmarks: [Point] = [], from frame: VideoFrame, quality: Double = 0) {
        guard let picture = Self.picture(box, landmarks: landmarks, from: frame, seen: true, quality: quality) else { return }
        table.withLock { $0[id] = picture }
    }

    static func picture(_ box: FaceBox, landmarks: [Point], from frame: VideoFrame, seen: Bool, quality: Double) -> Picture? {
        guard let region = PixelRect(evenCornersAround: box.grown(by: 1.8), in: (frame.width, frame.height)) else { return nil }
        let pixels = frame.rgb(x: region.x, y: region.y, width: region.width, height: region.height)
        return Picture(pixels: pixels, region: region, box: box, landmarks: landmarks, frame: frame.index, seen: seen, quality: quality)
    }
}

/// The pictures of a clip's tracks side by side, in rows: what `edit` shows for a clip, each
/// face numbered and drawn in its style as on the frame it comes from.
struct ContactSheet {
    let photo: Photo
    /// Per id: what to add to a frame position to get its place on the sheet.
    let offsets: [Int: (dx: Double, dy: Double)]

    static let gap = 16
    static let rowWidth = 1800

    /// The sheet of `ids`' pictures (ids without one are left out), in id order.
    init(_ pictures: [Int: TrackPictures.Picture], ids: [Int]) throws {
        var x = Self.gap, y = Self.gap, rowHeight = 0, width = Self.gap
        var placed: [(id: Int, picture: TrackPictures.Picture, x: Int, y: Int)] = []
        for id in ids.sorted() {
            guard let p = pictures[id] else { continue }
            if x > Self.gap, x + p.region.width > Self.rowWidth {
                x = Self.gap; y += rowHeight + Self.gap; rowHeight = 0
            }
            placed.append((id, p, x, y))
            x += p.region.width + Self.gap
            width = max(width, x)
            rowHeight = max(rowHeight, p.region.height)
        }
        let height = y + rowHeight + Self.gap
        var sheet = try VipsImage.solid(width: max(width, 64), height: max(height, 64), pixel: [48, 48, 48])
        var offsets: [Int: (Double, Double)] = [:]
        for p in placed {
            let tile = try VipsImage.fromPixels(p.picture.pixels, width: p.picture.region.width, height: p.picture.region.height, bands: 3)
            sheet = try sheet.inserting(tile, x: p.x, y: p.y)
            offsets[p.id] = (Double(p.x - p.picture.region.x), Double(p.y - p.picture.region.y))
        }
        photo = try Photo(image: sheet.reinterpreted(as: .srgb).inMemory())
        self.offsets = offsets
    }

    /// `face` (in frame pixels) placed on the sheet; nil for a face with no picture.
    func place(_ face: EditableFace) -> EditableFace? {
        guard let o = offsets[face.id] else { return nil }
        var f = face
        f.box = FaceBox(x: face.box.x + o.dx, y: face.box.y + o.dy, width: face.box.width, height: face.box.height)
        f.landmarks = face.landmarks.map { Point(x: $0.x + o.dx, y: $0.y + o.dy) }
        return f
    }
}
