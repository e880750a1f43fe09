import Foundation
import Testing
import TestSupport
@testable import SketchEase

/// A photo open for editing, as both the prompt and the browser open it: detected once, saved
/// after every change, resumed exactly, exported as `apply` would.
@Suite struct PhotoSessionTests {
    let detector: OpenCVFaceDetector
    init() throws { detector = try .centerFace(modelPath: TestAssets.model) }

    func open(_ out: String) throws -> PhotoSession {
        try PhotoSession(file: InputFile(path: TestAssets.group, outputName: "group.png"), outputFolder: out, detector: detector,
                         detection: DetectionOptions(), render: RenderOptions(), compression: 2)
    }

    @Test func aSavedSessionResumesWithItsHistory() throws {
        let out = try TestAssets.temporaryFolder("session")
        let first = try open(out)
        #expect(!first.resumed && first.image.faces.count == 3)
        try first.image.perform(.setStyle(faces: [2], style: try .named("pencil")))
        try first.image.perform(.delete(face: 3))
        try first.image.undo()
        try first.changed()
        #expect(first.hasUnexportedChanges)
        let second = try open(out)
        #expect(second.resumed)
        #expect(second.image.history == first.image.history)
        #expect(second.sessionPath == out + "/group.sketchease.json")
    }

    @Test func redetectingKeepsNumbersAndStylesAndTheThreshold() throws {
        let out = try TestAssets.temporaryFolder("session-detect")
        let session = try open(out)
        try session.image.perform(.setStyle(faces: [2], style: try .named("ink")))
        let faces = try session.redetect(threshold: 0.3, detector: detector)
        #expect(faces.prefix(3).map(\.id) == [1, 2, 3])
        #expect(faces.first { $0.id == 2 }?.style?.filterID == "ink")
        #expect(session.detection.threshold == 0.3)
        try session.image.undo()
        #expect(session.image.faces.count == 3)
        try session.changed()
        #expect(try open(out).detection.threshold == 0.3, "kept in the session file")
    }

    @Test func exportWritesThePNGAndMarksItExported() throws {
        let out = try TestAssets.temporaryFolder("session-export")
        let session = try open(out)
        try session.image.perform(.setStyle(faces: [1, 2, 3], style: try .named("pencil")))
        try session.changed()
        try session.export(compare: false)
        #expect(!session.hasUnexportedChanges)
        #expect(FileManager.default.fileExists(atPath: out + "/group.png"))
        #expect(try SessionFile.read(from: session.sessionPath).exported)
    }
}
