import Foundation
import SketchEase
import Video

/// The page's view of an open clip, sent after every request that changes it: its tracks (the
/// faces of `edit clip.mp4`, each on the frame that shows it best), and a key to every frame's
/// boxes (`ClipBoxes`), which the page asks for only when the key changed: most edits restyle a
/// track and move no box, and a long clip's boxes are a few hundred kilobytes.
struct ClipState: EditingAnswer {
    struct Track: Encodable, Sendable {
        var id: Int
        /// `[x, y, width, height]` on the frame that shows it best (`frame`): what a move or a
        /// resize changes, for the whole track.
        var box: [Double]
        var frame: Int?
        var style: FaceStyle?
        var label: String?
        /// The first and last frames it is drawn on.
        var first: Int?
        var last: Int?
        /// The face report's warnings are a photo's; a track has none here.
        var warnings: [String] = []
        var drawn: Bool
    }

    /// What a clip adds to `EditingState`.
    struct Own: Encodable, Sendable {
        var kind = "clip"
        /// The same value as `EditingState.photo`.
        var clip: String
        var frameRate: Double
        var frameCount: Int
        var duration: Double
        /// Each frame's presentation time in seconds.
        var times: [Double]
        /// Names every frame's boxes as they are now (`ClipBoxes.key`).
        var boxesKey: String
        var tracks: [Track]
        var summary: String
    }

    var editing: EditingState
    var own: Own

    init(entry: PhotoLibrary.Entry, session: ClipEditingSession, drawn: (tracks: ClipTracks, styles: TrackStyles), revision: Int,
         message: String?) {
        let tracks = drawn.tracks
        editing = EditingState(entry: entry, session: session, width: tracks.width, height: tracks.height, revision: revision, message: message)
        var span: [Int: (Int, Int)] = [:]
        for f in tracks.frames { for face in f.faces { span[face.id] = (span[face.id]?.0 ?? f.index, f.index) } }
        own = Own(clip: entry.id, frameRate: tracks.frameRate, frameCount: tracks.frames.count,
                  duration: (tracks.frames.last?.time ?? 0) + 1 / max(tracks.frameRate, 1),
                  times: tracks.frames.map { ($0.time * 1000).rounded() / 1000 }, boxesKey: ClipBoxes.key(tracks),
                  tracks: session.history.faces.map { face in
                      Track(id: face.id, box: face.box.array, frame: session.pictureFrame(of: face.id), style: face.style, label: face.style?.label,
                            first: span[face.id]?.0, last: span[face.id]?.1, drawn: face.landmarks.isEmpty)
                  },
                  summary: session.summary)
    }
}

/// One clip in the strip: its length and size, read from its header.
struct ClipSummary: Encodable, Sendable {
    var duration: Double?
    var width: Int
    var height: Int
    var frames: Int?
}

/// Every frame's drawn boxes, `[id, x, y, width, height]` in frame pixels (to a tenth), and a key
/// that changes whenever any of them does (`/api/clip/boxes`).
struct ClipBoxes: Encodable, Sendable {
    var key: String
    var boxes: [[[Double]]]

    init(_ tracks: ClipTracks) {
        boxes = tracks.frames.map { f in Self.drawn(f).map { [Double($0.id), Self.tenth($0.box.x), Self.tenth($0.box.y), Self.tenth($0.box.width), Self.tenth($0.box.height)] } }
        key = Self.key(tracks)
    }

    /// The key of `tracks`' boxes, hashed as they come (FNV-1a over the boxes in tenths of a
    /// pixel and the frames' ends: the same boxes, the same key, in any process), without
    /// building them: every state the page is sent carries it.
    static func key(_ tracks: ClipTracks) -> String {
        var hash = FNV1a()
        func add(_ v: Double) { hash.add(UInt64(bitPattern: Int64((v * 10).rounded()))) }
        for frame in tracks.frames {
            for face in drawn(frame) {
                add(Double(face.id)); add(face.box.x); add(face.box.y); add(face.box.width); add(face.box.height)
            }
            hash.add(0xffff_ffff)
        }
        return String(hash.value, radix: 36)
    }

    /// A frame's faces that are drawn (not faded out).
    private static func drawn(_ frame: TrackedFrame) -> [TrackedFace] { frame.faces.filter { $0.opacity > 0 } }

    private static func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
