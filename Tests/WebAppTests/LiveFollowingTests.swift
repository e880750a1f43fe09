import FaceDetector
import Foundation
import SketchEase
import Testing
import TestSupport
import Vips
@testable import WebApp

/// Where Live puts each face's drawing on a panning camera, measured against where the face is
/// (`PanningCamera`: its faces are known on every frame), as fast as a page sends frames on a
/// quick machine and as slowly as on a busy one.
@Suite(.serialized) struct LiveFollowingTests {
    /// How far Live's faces were from the camera's, in widths of the face.
    struct Misplaced: CustomStringConvertible {
        var mean = 0.0, worst = 0.0, frames = 0, missing = 0
        var description: String {
            "\(frames) frames: mean \(String(format: "%.3f", mean)), worst \(String(format: "%.3f", worst)) face widths off, \(missing) faces not drawn"
        }
    }

    /// Sends the camera's frames to one Live session a few frames apart (`steps`, over and over;
    /// at the times they were filmed, 15 frames a second), three times round the loop, and
    /// measures the faces each frame came back with from the sixth on (a face is drawn once its
    /// track is made, from its second sighting: on the fourth frame, a look being made every
    /// other frame).
    static func follow(_ camera: PanningCamera, steps: [Int]) throws -> Misplaced {
        let settings = ServeSettings(inputs: [], outputFolder: try TestAssets.temporaryFolder("live-following"),
                                     defaultStyle: try FaceStyle.named("pencil"))
        let session = LiveSession(id: "following", settings: settings,
                                  detector: try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model), detectorLock: NSLock())
        var misplaced = Misplaced(), total = 0.0, counted = 0
        var k = 0, sent = 0
        while k < 3 * PanningCamera.frames {
            let step = steps[sent % steps.count]
            defer { sent += 1; k += step }
            guard let out = try session.take(rgba: LiveTests.rgba(rgb: camera.window(k)), width: PanningCamera.width, height: PanningCamera.height,
                                             time: Double(k) / 15) else { continue }
            guard sent >= 5 else { continue }
            let shift = Double(PanningCamera.offset(k))
            for truth in camera.faces {
                let x = truth.center.x - shift, y = truth.center.y
                let nearest = out.faces.filter { $0.id > 0 }.map { face -> Double in
                    let dx = face.box[0] + face.box[2] / 2 - x, dy = face.box[1] + face.box[3] / 2 - y
                    return (dx * dx + dy * dy).squareRoot() / truth.width
                }.min()
                guard let off = nearest, off < 1.5 else { misplaced.missing += 1; continue }
                total += off; counted += 1
                misplaced.worst = max(misplaced.worst, off)
            }
            misplaced.frames += 1
        }
        misplaced.mean = counted > 0 ? total / Double(counted) : .infinity
        return misplaced
    }

    /// At 15 frames a second; at 3.75 and at 2 (a busy machine's rate, where the camera moves
    /// 15 px between two frames and turns back within four); and with uneven gaps, as a page
    /// sends frames when the one before has come back: every face on every frame, its drawing
    /// where the face is.
    @Test(arguments: [[1], [4], [7], [1, 3, 2, 1, 2, 3]])
    func facesAreDrawnWhereTheCameraShowsThem(steps: [Int]) throws {
        let camera = try PanningCamera()
        let misplaced = try Self.follow(camera, steps: steps)
        print("live following, camera frames \(steps) apart: \(misplaced)")
        #expect(misplaced.missing == 0, "\(misplaced)")
        #expect(misplaced.mean < 0.08 && misplaced.worst < 0.25, "\(misplaced)")
    }
}
