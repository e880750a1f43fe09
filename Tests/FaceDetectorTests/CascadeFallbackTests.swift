import Testing
import TestSupport
import Vips
@testable import FaceDetector

@Suite struct CascadeFallbackTests {
    @Test func cascadeFindsTheExampleFaces() throws {
        let cascade = try OpenCVFaceDetector.cascade(path: TestAssets.cascade)
        let faces = try cascade.detect(in: try VipsImage.load(path: TestAssets.graceHopper))
        #expect(faces.count == 1)
        #expect((faces.first?.box.iou(KnownFaces.graceHopper) ?? 0) >= 0.4)
        #expect(faces.first?.landmarks.isEmpty == true)
    }

    @Test func locatorFallsBackToTheCascadeWithAWarning() throws {
        let (detector, warning) = try DetectorLocator.open(modelPath: "/no/such/centerface.onnx")
        #expect(detector.kind == .cascade)
        #expect(warning?.contains("cascade") == true)
    }

    @Test func locatorUsesCenterFaceWhenTheModelIsThere() throws {
        let (detector, warning) = try DetectorLocator.open(modelPath: TestAssets.model)
        #expect(detector.kind == .centerFace)
        #expect(warning == nil)
    }
}
