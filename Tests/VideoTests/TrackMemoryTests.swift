import FaceDetector
import Foundation
import SketchEase
import Testing
@testable import Video

/// A long clip's tracks hold the same memory at its end as at its start.
@Suite struct TrackMemoryTests {
    /// One face seen three times a second, drifting, for `frames` frames at 30 fps: the steps
    /// the tracker holds then.
    func heldSteps(after frames: Int) -> Int {
        let tracker = FaceTracker(frameRate: 30, frameWidth: 1920, frameHeight: 1080)
        for frame in 0..<frames {
            let x = 800 + 200 * sin(Double(frame) / 90)
            let detections = tracker.shouldDetect(frame: frame)
                ? [DetectedFace(box: FaceBox(x: x, y: 300, width: 160, height: 190), score: 0.9)] : nil
            _ = tracker.add(frame: frame, time: Double(frame) / 30, detections: detections)
        }
        return tracker.heldSteps
    }

    /// Until 2026-11-28 a track kept every step of its motion filters from its first sighting
    /// on (~1.3 KB a face a frame: +62 MB over 10 minutes of the three-face bench clip).
    @Test func aLongTrackHoldsNoMoreThanAShortOne() {
        let short = heldSteps(after: 300), long = heldSteps(after: 3000)
        #expect(short > 0)
        #expect(long <= short, "held \(short) steps after 10 s, \(long) after 100 s")
    }
}
