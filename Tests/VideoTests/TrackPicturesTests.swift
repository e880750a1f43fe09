import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// Each track's clearest picture (the contact sheet's tile, the browser's track tile and its
/// style samples) shows that track's own face: taken on a frame the detector saw it on, with
/// nothing in front of it.
@Suite struct TrackPicturesTests {
    /// The fast scene (`ClipFixtures.FastScene`): one face crosses behind another, moving ~20 px
    /// a frame. Between sightings the face behind is followed, and its box slides over the face in
    /// front; the frame chosen for its picture was such a frame, and its tile showed the other
    /// person (the browser's tracks of this clip at 1920 × 1080: track 3, the astronaut, as
    /// Grace Hopper).
    @Test func aFacePassingBehindAnotherIsPicturedWhereItWasSeen() throws {
        let scene = try ClipFixtures.FastScene("track-pictures")
        let truths = scene.truths
        let session = try ClipEditingSession(file: InputFile(path: scene.path), outputFolder: scene.folder + "/out",
                                              detector: ClipFixtures.detector(), detection: DetectionOptions(),
                                              render: RenderOptions(), settings: ClipSessionSettings(tracking: TrackerSettings()))
        let frames = session.drawnFrames().tracks.frames
        let ids = Set(frames.flatMap { $0.faces.map(\.id) })
        #expect(ids.count >= 4, "the scene's four faces are followed: \(ids.sorted())")
        for id in ids.sorted() {
            let at = try #require(session.pictureFrame(of: id), "track \(id) has a picture")
            let face = try #require(frames[at].faces.first { $0.id == id })
            #expect(face.detected, "track \(id)'s picture comes from frame \(at), where its box was only followed")
            #expect(face.cover == nil, "track \(id)'s picture comes from frame \(at), where something covers it")
            // And there its box is on a face a viewer sees, not on one hidden behind another.
            let box = TruthBox(x: face.box.x, y: face.box.y, width: face.box.width, height: face.box.height)
            let truth = try #require(truths[at].max { $0.box.iou(box) < $1.box.iou(box) })
            #expect(truth.box.iou(box) >= 0.3 && truth.visible,
                    "track \(id) on frame \(at): its box on a face \(Int(truth.covered * 100)) % covered (IoU \(truth.box.iou(box)))")
        }
    }
}
