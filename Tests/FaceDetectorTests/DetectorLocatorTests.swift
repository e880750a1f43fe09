import Foundation
import Testing
import TestSupport
@testable import FaceDetector

@Suite struct DetectorLocatorTests {
    @Test func theRunningExecutableIsFoundWithoutArgvZero() throws {
        let exe = try #require(DetectorLocator.runningExecutable())
        #expect(exe == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        #expect(FileManager.default.isExecutableFile(atPath: exe))
    }

    @Test func candidatesFollowTheInstallLayout() {
        let candidates = DetectorLocator.modelCandidates(environment: ["SKETCHEASE_MODEL": "/m/explicit.onnx"],
                                                         workingDirectory: "/home/me/photos", executable: "/opt/se/bin/sketchease")
        #expect(candidates.first == "/m/explicit.onnx")
        #expect(candidates.contains("/home/me/photos/models/centerface.onnx"))
        #expect(candidates.contains("/opt/se/share/sketchease/centerface.onnx"))
        #expect(candidates.contains("/opt/se/bin/models/centerface.onnx"))
        #expect(candidates.last == "/usr/local/share/sketchease/centerface.onnx")
        #expect(Set(candidates).count == candidates.count)
    }

    @Test func aMissingModelSaysWhereItWasLookedFor() throws {
        let places = ["/nowhere/a/centerface.onnx", "/nowhere/b/centerface.onnx"]
        let (detector, warning) = try DetectorLocator.open(candidates: places)
        #expect(detector.kind == .cascade)
        let text = try #require(warning)
        for place in places { #expect(text.contains(place), "\(text)") }
        #expect(text.contains("SKETCHEASE_MODEL") && text.contains("--model"))
        #expect(!text.contains("make model"))
    }
}
