import Foundation
import Testing
import TestSupport
@testable import SketchEase

/// A photo open for editing, as both the prompt and the browser open it: detected once, saved
/// after every change, resumed exactly, exported as `apply` would.
@Suite struct EditingSessionTests {
    let detector: OpenCVFaceDetector
    init() throws { detector = try .centerFace(modelPath: TestAssets.model) }

    func open(_ out: String) throws -> EditingSession {
        try EditingSession(file: InputFile(path: TestAssets.group), outputFolder: out, detector: detector,
                           detection: DetectionOptions(), render: RenderOptions(), export: ExportOptions())
    }

    @Test func aSavedSessionResumesWithItsHistory() throws {
        let out = try TestAssets.temporaryFolder("session")
        let first = try open(out)
        #expect(!first.resumed && first.image.faces.count == 3)
        try first.perform(.setStyle(faces: [2], style: try .named("pencil")))
        try first.perform(.delete(faces: [3]))
        try first.undo()
        #expect(first.hasUnexportedChanges)
        let second = try open(out)
        #expect(second.resumed)
        #expect(second.image.history == first.image.history)
        #expect(second.sessionPath == out + "/.sketchease/group.sketchease.json")
    }

    @Test func redetectingKeepsNumbersAndStylesAndTheThreshold() throws {
        let out = try TestAssets.temporaryFolder("session-detect")
        let session = try open(out)
        try session.perform(.setStyle(faces: [2], style: try .named("ink")))
        var options = session.detection
        options.threshold = 0.3
        let count = try session.redetect(with: detector, options: options)
        #expect(count >= 3)
        #expect(session.image.faces.prefix(3).map(\.id) == [1, 2, 3])
        #expect(session.image.history.face(2)?.style?.filterID == "ink")
        try session.undo()
        #expect(session.image.faces.count == 3)
        #expect(try open(out).detection.threshold == 0.3, "kept in the session file")
    }

    @Test func exportWritesTheImageAndMarksItExported() throws {
        let out = try TestAssets.temporaryFolder("session-export")
        let session = try open(out)
        try session.perform(.setStyle(faces: [1, 2, 3], style: try .named("pencil")))
        try session.export(compare: false)
        #expect(!session.hasUnexportedChanges)
        #expect(FileManager.default.fileExists(atPath: out + "/group.png"))
        #expect(try SessionFile.read(from: session.sessionPath).exported)
    }
}
