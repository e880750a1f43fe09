import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// The tracker on the synthetic scene, whose every face's true box is known.
@Suite struct FaceTrackerTests {
    func tracked(_ settings: TrackerSettings = .init()) throws -> (score: TrackingScore, report: ClipReport) {
        let scene = try ClipFixtures.standard.get()
        let options = ClipOptions(tracking: settings, styles: TrackStyles(others: nil))
        let (tracks, report) = try ClipFixtures.renderer(options).track(MediaSource(path: scene.path))
        let frames = tracks.frames.map { $0.faces.map { (box: $0.box, id: $0.id, opacity: $0.opacity) } }
        return (TrackingScore(truths: scene.truths, frames: frames), report)
    }

    @Test func facesAreFollowedWithoutSwitchesOrShaking() throws {
        let every = Int(ProcessInfo.processInfo.environment["SKETCHEASE_DETECT_EVERY"] ?? "0") ?? 0
        let (score, report) = try tracked(TrackerSettings(detectEvery: every))
        print("tracker: \(score); \(report.detections) detections on \(report.frames) frames")
        #expect(report.frames == (try ClipFixtures.standard.get()).clip.frameCount)
        #expect(score.missed == 0)
        #expect(score.idSwitches == 0)
        #expect(score.splitFaces == 0)
        #expect(score.medianJitter <= 0.005)
        #expect(score.p95Jitter <= 0.02)
    }

    /// The fast scene (`ClipFixtures.FastScene`: a face sets off from rest at a quarter of its
    /// width a frame, entering and leaving on the right): every box drawn lies on a face. (The
    /// motion search looked only as far as the face was expected to go, so a face setting off
    /// fast was lost between sightings: its box stayed behind, and its style was drawn on the
    /// wall where it had been, at full strength for up to half a second after it left.)
    @Test func aFaceSettingOffFastIsFollowedNotLeftOnTheWall() throws {
        let scene = try ClipFixtures.FastScene("fast-scene")
        let truths = scene.truths
        let tracks = try OcclusionTrackingTests.tracked(scene.path)
        let frame = FaceBox(x: 0, y: 0, width: 640, height: 360)
        var astray: [String] = []
        for tracked in tracks.frames where tracked.index < truths.count {
            for face in tracked.faces where face.opacity > 0 {
                // Boxes mostly in the picture, where a style drawn off the face shows.
                guard (face.box.intersection(frame)?.area ?? 0) >= 0.5 * face.box.area else { continue }
                let best = truths[tracked.index].map { OcclusionTrackingTests.box($0.box).iou(face.box) }.max() ?? 0
                if best < 0.3 { astray.append("frame \(tracked.index) track \(face.id): IoU \(String(format: "%.2f", best))") }
            }
        }
        print("fast scene: \(astray.count) drawn boxes off every face \(astray.prefix(8))")
        #expect(astray.isEmpty, "styles drawn where no face is: \(astray.prefix(10))")
    }

    /// What the tracker improves on: the detector run on every frame, boxes linked by overlap
    /// (a measurement for the README, not a check: run with SKETCHEASE_BASELINE=1).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SKETCHEASE_BASELINE"] != nil))
    func rawDetectionsAsABaseline() throws {
        let scene = try ClipFixtures.standard.get()
        let reader = try MediaReader(MediaSource(path: scene.path))
        let detector = try ClipFixtures.detector()
        let scaler = FrameScaler()
        var frames: [[(box: FaceBox, id: Int, opacity: Double)]] = []
        var previous: [(box: FaceBox, id: Int, opacity: Double)] = []
        var nextID = 1
        while let item = try reader.next() {
            guard case .frame(let frame) = item else { continue }
            let found = try detector.detect(in: frame, scaler: scaler, options: DetectionOptions())
            let linked = found.map { face -> (box: FaceBox, id: Int, opacity: Double) in
                if let match = previous.max(by: { $0.box.iou(face.box) < $1.box.iou(face.box) }), match.box.iou(face.box) >= 0.3 {
                    return (face.box, match.id, 1)
                }
                nextID += 1
                return (face.box, nextID - 1, 1)
            }
            frames.append(linked)
            previous = linked
        }
        let score = TrackingScore(truths: scene.truths, frames: frames)
        print("every-frame detection, overlap links: \(score)")
        #expect(frames.count == scene.clip.frameCount)
    }
}
