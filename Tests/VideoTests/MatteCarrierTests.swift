import FaceDetector
import SketchEase
import Testing
import TestSupport
import Vips
@testable import Video

/// A head's matte is carried with its box while the head looks as it did, and cut again when
/// its look changes: on every frame in a clip, only where the detector saw the face in Live
/// (`looksWhereDetected`), whose faces in between are only where their motion says.
@Suite struct MatteCarrierTests {
    static let portrait = try! VipsImage.load(path: TestAssets.graceHopper).extractBands(0, count: 3).inMemory()
    static let face: TrackedFace = {
        let detector = try! OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let found = try! detector.detect(in: portrait)[0]
        return TrackedFace(id: 1, box: found.box, landmarks: found.landmarks, detected: true)
    }()

    /// The portrait with a dark bar across the head's reach (something passing in front).
    static func covered() throws -> RGBPixels {
        let box = face.box
        let bar = try VipsImage.solid(width: Int(box.width * 1.6), height: Int(box.height * 0.3), pixel: [10, 10, 10])
        return try RGBPixels(portrait.inserting(bar, x: Int(box.x - box.width * 0.3), y: Int(box.y + box.height * 0.2)))
    }

    func carrier(looksWhereDetected: Bool) -> MatteCarrier {
        MatteCarrier(compositor: FaceCompositor(options: RenderOptions()), longest: 30, looksWhereDetected: looksWhereDetected,
                     draws: { _ in true })
    }

    @Test func aMatteIsCarriedWhileTheHeadLooksAsItDidAndCutAgainWhenItChanges() throws {
        let carrier = carrier(looksWhereDetected: false)
        let frame = try RGBPixels(Self.portrait)
        let first = try #require(carrier.mattes(for: [Self.face], index: 0, on: frame)[1])
        #expect(carrier.mattes(for: [Self.face], index: 1, on: frame)[1] === first, "the same look: carried")
        var followed = Self.face
        followed.detected = false
        #expect(carrier.mattes(for: [followed], index: 2, on: try Self.covered())[1] !== first,
                "a clip's face only followed: its look is compared too")
    }

    @Test func inLiveTheLookIsComparedOnlyWhereTheDetectorSawTheFace() throws {
        let carrier = carrier(looksWhereDetected: true)
        let first = try #require(carrier.mattes(for: [Self.face], index: 0, on: try RGBPixels(Self.portrait))[1])
        var predicted = Self.face
        predicted.detected = false
        #expect(carrier.mattes(for: [predicted], index: 1, on: try Self.covered())[1] === first, "a predicted face keeps its matte")
        #expect(carrier.mattes(for: [Self.face], index: 2, on: try Self.covered())[1] !== first, "a detected one is cut again")
    }
}
