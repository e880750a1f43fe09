import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct SessionFileTests {
    let size = ImageSize(width: 512, height: 600)

    func sampleHistory() throws -> EditHistory {
        var h = EditHistory(detected: [
            EditableFace(id: 1, box: FaceBox(x: 175, y: 132, width: 182, height: 205), landmarks: [Point(x: 230, y: 210)]),
            EditableFace(id: 2, box: FaceBox(x: 20, y: 400, width: 100, height: 100)),
        ], imageSize: size)
        let dark = FaceStyle(filterID: "pencil", settings: try FilterRegistry.standard.settings(for: "pencil", assignments: ["darkness": "2"]))
        try h.perform(.setStyle(faces: [1, 2], style: dark))
        try h.perform(.move(face: 2, dx: 5, dy: -3.5))
        try h.perform(.resize(face: 2, width: 90, height: 95))
        try h.perform(.add(face: 3, box: FaceBox(x: 400, y: 10, width: 50, height: 60), style: nil))
        try h.perform(.removeStyle(faces: [1]))
        try h.perform(.delete(faces: [2]))
        try h.perform(.redetect(faces: [EditableFace(id: 1, box: FaceBox(x: 176, y: 130, width: 180, height: 200), style: dark)]))
        try h.undo()
        try h.undo()
        return h
    }

    func session(_ history: EditHistory) throws -> SessionFile {
        SessionFile(sourcePath: TestAssets.graceHopper, fingerprint: try SourceFingerprint.of(file: TestAssets.graceHopper),
                    exportPath: "/out/grace_hopper.png", detection: DetectionOptions(maxSide: 800, threshold: 0.4),
                    render: RenderOptions(boxScale: 1.5, feather: 0.2), export: ExportOptions(compression: 3),
                    history: history, exported: false)
    }

    @Test func roundTripRestoresEveryEditAndTheUndoPosition() throws {
        let folder = try TestAssets.temporaryFolder("session")
        let history = try sampleHistory()
        let path = folder + "/grace_hopper.sketchease.json"
        try session(history).write(to: path)
        let read = try SessionFile.read(from: path)
        #expect(read == (try session(history)))
        let restored = try read.history(file: path, imageSize: size)
        #expect(restored == history)
        #expect(restored.position == 5 && restored.canRedo)
        #expect(read.detection.options == DetectionOptions(maxSide: 800, threshold: 0.4))
        #expect(read.source.path == TestAssets.graceHopper)
        try read.checkSource(file: path)
        // No temporary file is left behind by the atomic write.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["grace_hopper.sketchease.json"])
    }

    /// What opening a photo or a clip finds in its output folder: nothing, its own session, or
    /// one it refuses, saying why and how to start over.
    @Test func resumeFindsTheSessionMadeForThisFileOnly() throws {
        let folder = try TestAssets.temporaryFolder("session-resume")
        let path = folder + "/grace_hopper.sketchease.json"
        let photo = InputFile(path: TestAssets.graceHopper)
        let fingerprint = try SourceFingerprint.of(file: TestAssets.graceHopper)
        #expect(try SessionFile.resume(at: path, for: photo, fingerprint: fingerprint) == nil)
        try session(try sampleHistory()).write(to: path)
        #expect(try SessionFile.resume(at: path, for: photo, fingerprint: fingerprint) == (try session(try sampleHistory())))
        func refusal(_ body: () throws -> SessionFile?) -> String {
            do { _ = try body(); return "" } catch { return (error as? SessionError)?.description ?? "\(error)" }
        }
        let other = try SourceFingerprint.of(file: TestAssets.astronaut)
        let foreign = refusal { try SessionFile.resume(at: path, for: photo, fingerprint: other) }
        #expect(foreign.contains(path) && foreign.contains("made for a different or changed photo than \(TestAssets.graceHopper)")
                && foreign.hasSuffix("(delete it to start this photo over)"), "\(foreign)")
        let asClip = refusal { try SessionFile.resume(at: path, for: photo, fingerprint: fingerprint, clip: true) }
        #expect(asClip.contains("made for a different or changed file") && asClip.contains("start this clip over"), "\(asClip)")
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
        let damaged = refusal { try SessionFile.resume(at: path, for: photo, fingerprint: fingerprint) }
        #expect(damaged.contains(path) && damaged.hasSuffix("; delete it to start this photo over"), "\(damaged)")
    }

    func write(_ text: String) throws -> String {
        let path = try TestAssets.temporaryFolder("bad-session") + "/x.sketchease.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func readError(_ path: String) -> SessionError? {
        do { _ = try SessionFile.read(from: path); return nil } catch { return error as? SessionError }
    }

    @Test func corruptForeignAndNewerFilesGiveOneLineNamingTheFile() throws {
        let corrupt = try write("{\"format\": \"sketchease-session\", \"version\": 1, \"faces\": [")
        let foreign = try write("{\"name\": \"my-package\", \"version\": \"1.0.0\"}")
        let array = try write("[1, 2, 3]")
        let plan = try write("{\"format\": \"sketchease-plan\", \"version\": 1, \"photos\": []}")
        let newer = try write("{\"format\": \"sketchease-session\", \"version\": 7}")
        let missing = try TestAssets.temporaryFolder("none") + "/gone.json"
        let cases: [(String, SessionError.Reason?)] = [
            (foreign, .foreign("sketchease-session")), (array, .foreign("sketchease-session")),
            (plan, .foreign("sketchease-session")), (newer, .newerVersion(found: 7, supported: 2)),
            (missing, .unreadable("no such file")),
        ]
        for (path, reason) in cases {
            let error = try #require(readError(path))
            #expect(error.reason == reason)
            #expect(error.description.hasPrefix(path + ": ") && !error.description.contains("\n"))
        }
        let damaged = try #require(readError(corrupt))
        guard case .notJSON = damaged.reason else { Issue.record("\(damaged)"); return }
        #expect(damaged.description.contains("newer SketchEase") == false)
        #expect(try #require(readError(newer)).description.contains("newer SketchEase"))
    }

    @Test func wellFormedButInconsistentSessionsAreRejected() throws {
        let folder = try TestAssets.temporaryFolder("inconsistent")
        var s = try session(try sampleHistory())
        s.edits.append(.delete(faces: [42]))
        let path = folder + "/s.sketchease.json"
        try s.write(to: path)
        let read = try SessionFile.read(from: path)
        #expect(throws: SessionError.self) { try read.history(file: path, imageSize: size) }
        // An unknown filter inside an edit is caught while reading.
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"pencil\"", with: "\"crayon\"")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(readError(path))
        #expect(error.description.contains("unknown filter 'crayon'"))
    }

    @Test func aChangedPhotoIsNoticed() throws {
        let folder = try TestAssets.temporaryFolder("changed")
        let copy = folder + "/photo.jpg"
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: copy)
        let s = SessionFile(sourcePath: copy, fingerprint: try SourceFingerprint.of(file: copy), exportPath: folder + "/photo.png",
                            detection: .init(), render: .init(), export: ExportOptions(compression: 6), history: try sampleHistory(),
                            exported: true)
        try s.checkSource(file: "s.json")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
        try handle.seek(toOffset: 1000)
        try handle.write(contentsOf: Data([0x42]))
        try handle.close()
        #expect(throws: SessionError.self) { try s.checkSource(file: "s.json") }
    }

    @Test func sessionsLiveInTheHiddenFolderAndNameTheirExport() throws {
        #expect(SessionFile.path(forExport: "/out/trip/beach.jpg") == "/out/trip/.sketchease/beach.sketchease.json")
        let s = try session(try sampleHistory())
        #expect(s.output == "../grace_hopper.png")
        #expect(s.exportPath(sessionFile: "/out/.sketchease/grace_hopper.sketchease.json") == "/out/grace_hopper.png")
        #expect(s.exportPath(sessionFile: "/out/.sketchease/grace_hopper.sketchease.json", folder: "/elsewhere")
            == "/elsewhere/grace_hopper.png")
        #expect(s.exportOptions.compression == 3 && s.exportOptions.format == .png && s.exportOptions.overwrite)
    }

    @Test func versionOneSessionsAreStillRead() throws {
        // Written by the first SketchEase: beside the export, one face per delete, no format.
        let folder = try TestAssets.temporaryFolder("v1")
        let path = folder + "/grace_hopper.sketchease.json"
        let fingerprint = try SourceFingerprint.of(file: TestAssets.graceHopper)
        try Data("""
            {"format": "sketchease-session", "version": 1, "compression": 6, "exported": false, "output": "grace_hopper.png",
             "detection": {"maxSide": 640, "threshold": 0.5}, "render": {"boxScale": 1.3, "feather": 0.3},
             "source": {"path": "\(TestAssets.graceHopper)", "fingerprint": {"size": \(fingerprint.size), "hash": "\(fingerprint.hash)"}},
             "faces": [{"id": 1, "box": {"x": 175, "y": 132, "width": 182, "height": 205}, "landmarks": []},
                       {"id": 2, "box": {"x": 20, "y": 400, "width": 100, "height": 100}, "landmarks": []}],
             "edits": [{"kind": "delete", "face": 2}], "position": 1}
            """.utf8).write(to: URL(fileURLWithPath: path))
        let read = try SessionFile.read(from: path)
        #expect(try read.history(file: path, imageSize: size).faces.map(\.id) == [1])
        #expect(read.exportPath(sessionFile: path) == folder + "/grace_hopper.png")
        #expect(read.exportOptions.format == .png)
        // Drawn as then: the ellipse with a soft edge, on white paper.
        #expect(read.render.region == .ellipse && read.render.edge == .soft && read.render.tone == .paper)
    }
}
