import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// Plans for clips: faces named by track id or by a box on a frame.
@Suite struct PlannedClipTests {
    func plan(_ json: String, clip: String) throws -> PlannedClip {
        let folder = try TestAssets.temporaryFolder("clip-plan")
        let file = folder + "/plan.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let plan = try BatchPlan.read(from: file)
        return PlannedClip(entry: try #require(plan.entry(for: clip)), plan: file)
    }

    @Test func tracksNamedByIdOrByABoxOnAFrame() throws {
        let scene = try ClipFixtures.standard.get()
        let renderer = ClipFixtures.renderer(ClipOptions(styles: TrackStyles(others: nil)))
        let hopper = scene.truths[30].first { $0.sprite == 2 }!.box
        let suit = scene.truths[30].first { $0.sprite == 0 }!.box  // the zooming astronaut: her suit, below the face
        let planned = try plan("""
            {"format": "sketchease-plan", "version": 1, "photos": [{"path": "\(scene.path)", "faces": [
              {"face": 1, "style": {"filter": "blur"}},
              {"box": [\(hopper.x), \(hopper.y), \(hopper.width), \(hopper.height)], "frame": 30, "style": {"filter": "ink"}},
              {"box": [\(suit.x), \(suit.maxY + 10), \(suit.width), \(suit.height)], "time": 1.0, "style": {"filter": "pixelate"}}
            ]}]}
            """, clip: scene.path)
        #expect(planned.needsTracks)
        let found = try renderer.track(MediaSource(path: scene.path), follow: planned.follows).tracks
        let (tracks, styles) = try planned.resolve(found)
        let hopperID = try #require(found.track(on: 30, overlapping: FaceBox(x: hopper.x, y: hopper.y, width: hopper.width, height: hopper.height)))
        #expect(styles.style(forTrack: 1)?.filterID == "blur")
        #expect(styles.style(forTrack: hopperID)?.filterID == "ink")
        #expect(styles.style(forTrack: 99) == nil)  // not listed, no `others`: left as filmed
        // The suit is no face: followed from frame 30 as a track of its own, the next id.
        let added = found.nextID
        #expect(styles.style(forTrack: added)?.filterID == "pixelate")
        let followed = tracks.faces(of: added)
        #expect(followed.count > 60, "followed over \(followed.count) frames")
        // It moves with the astronaut (who drifts right and grows): its centre follows hers.
        for (n, face) in followed where n % 20 == 0 {
            let truth = scene.truths[n].first { $0.sprite == 0 }!.box
            #expect(abs(face.box.center.x - truth.centerX) < truth.width * 0.5, "frame \(n)")
        }
        #expect(tracks.frames.allSatisfy { $0.faces.allSatisfy { $0.id > 0 } })
    }

    @Test func aTrackNamedTwiceIsRefused() throws {
        let scene = try ClipFixtures.standard.get()
        let hopper = scene.truths[30].first { $0.sprite == 2 }!.box
        let found = try ClipFixtures.renderer(ClipOptions(styles: TrackStyles(others: nil))).track(MediaSource(path: scene.path)).tracks
        let id = try #require(found.track(on: 30, overlapping: FaceBox(x: hopper.x, y: hopper.y, width: hopper.width, height: hopper.height)))
        let planned = try plan("""
            {"format": "sketchease-plan", "version": 1, "photos": [{"path": "\(scene.path)", "faces": [
              {"face": \(id), "style": {"filter": "blur"}},
              {"box": [\(hopper.x), \(hopper.y), \(hopper.width), \(hopper.height)], "frame": 30}]}]}
            """, clip: scene.path)
        #expect(throws: SessionError.self) { try planned.resolve(found) }
    }

    /// A plan's box at a time or frame past the clip's end was never placed, without a word; it
    /// is refused as `add … @9` is at the prompt, naming the plan, the clip and its length.
    @Test func aMomentPastTheEndIsRefused() throws {
        let scene = try ClipFixtures.standard.get()
        let found = try ClipFixtures.renderer(ClipOptions(styles: TrackStyles(others: nil))).track(MediaSource(path: scene.path)).tracks
        let clip = (scene.path as NSString).lastPathComponent
        for (moment, words) in [("\"time\": 9", "@9 is past the end of the clip: it is 6.0 s long"),
                                ("\"frame\": \(found.frames.count)", "frame \(found.frames.count) is past the end of the clip")] {
            let planned = try plan("""
                {"format": "sketchease-plan", "version": 1, "photos": [{"path": "\(scene.path)", "faces": [
                  {"box": [10, 10, 50, 50], \(moment), "style": {"filter": "blur"}}]}]}
                """, clip: scene.path)
            let error = #expect(throws: SessionError.self) { try planned.resolve(found) }
            #expect(error?.description.contains("\(clip): faces[0]: \(words)") == true, "\(String(describing: error))")
            #expect(error?.description.contains(planned.plan) == true)
        }
        // The last frame itself is within the clip.
        let last = try plan("""
            {"format": "sketchease-plan", "version": 1, "photos": [{"path": "\(scene.path)", "faces": [
              {"box": [10, 10, 50, 50], "frame": \(found.frames.count - 1), "style": {"filter": "blur"}}]}]}
            """, clip: scene.path)
        _ = try last.resolve(found)
    }
}
