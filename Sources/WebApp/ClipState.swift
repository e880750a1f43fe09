import Foundation
import SketchEase
import Video

/// The page's view of an open clip, sent after every request that changes it: its tracks (the
/// faces of `edit clip.mp4`, each on the frame that shows it best), and a key to every frame's
/// boxes (`ClipBoxes`), which the page asks for only when the key changed: most edits restyle a
/// track and move no box, and a long clip's boxes are a few hundred kilobytes.
struct ClipState: Encodable, Sendable {
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

    var kind = "clip"
    var clip: String
    /// The same value as `clip`: the page's photo code keys on it.
    var photo: String
    var name: String
    var width: Int
    var height: Int
    var frameRate: Double
    var frameCount: Int
    var duration: Double
    var revision: Int
    /// Each frame's presentation time in seconds.
    var times: [Double]
    /// Names every frame's boxes as they are now (`ClipBoxes.key`).
    var boxesKey: String
    var tracks: [Track]
    var canUndo: Bool
    var canRedo: Bool
    var undo: String?
    var redo: String?
    var exported: Bool
    var output: String
    var session: String
    var resumed: Bool
    var summary: String
    var message: String?

    init(entry: PhotoLibrary.Entry, session: ClipEditingSession, drawn: (tracks: ClipTracks, styles: TrackStyles), revision: Int,
         frames: FrameStore, message: String?) {
        let history = session.history
        let tracks = drawn.tracks
        clip = entry.id
        photo = entry.id
        name = (entry.file.path as NSString).lastPathComponent
        width = tracks.width; height = tracks.height
        frameRate = tracks.frameRate
        frameCount = tracks.frames.count
        duration = (tracks.frames.last?.time ?? 0) + 1 / max(tracks.frameRate, 1)
        self.revision = revision
        times = tracks.frames.map { ($0.time * 1000).rounded() / 1000 }
        boxesKey = ClipBoxes(tracks).key
        var span: [Int: (Int, Int)] = [:]
        for f in tracks.frames { for face in f.faces { span[face.id] = (span[face.id]?.0 ?? f.index, f.index) } }
        self.tracks = history.faces.map { face in
            Track(id: face.id, box: face.box.array, frame: session.pictureFrame(of: face.id), style: face.style, label: face.style?.label,
                  first: span[face.id]?.0, last: span[face.id]?.1, drawn: face.landmarks.isEmpty)
        }
        canUndo = history.canUndo; canRedo = history.canRedo
        undo = history.canUndo ? history.edits[history.position - 1].summary : nil
        redo = history.canRedo ? history.edits[history.position].summary : nil
        exported = session.exported && FileManager.default.fileExists(atPath: session.exportPath)
        output = session.exportPath
        self.session = session.sessionPath
        resumed = session.resumed
        summary = session.summary
        self.message = message
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
        func r(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        boxes = tracks.frames.map { f in f.faces.filter { $0.opacity > 0 }.map { [Double($0.id), r($0.box.x), r($0.box.y), r($0.box.width), r($0.box.height)] } }
        // FNV-1a over the numbers and the frames' ends: the same boxes, the same key, in any process.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100_0000_01b3 }
        for frame in boxes {
            for box in frame { for v in box { mix(UInt64(bitPattern: Int64((v * 10).rounded()))) } }
            mix(0xffff_ffff)
        }
        key = String(hash, radix: 36)
    }
}
