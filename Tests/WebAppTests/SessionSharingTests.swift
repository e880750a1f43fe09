import Foundation
import Testing
import SketchEase
import TestSupport

/// One model, two front ends: a photo edited at the `edit` prompt opens in the browser with
/// the same faces, styles and undo history, and the other way round; exports agree with
/// `apply` byte for byte.
@Suite struct SessionSharingTests {
    @Test func promptThenBrowserThenPrompt() throws {
        let folder = try TestAssets.temporaryFolder("shared")
        let out = try TestAssets.temporaryFolder("shared-out")
        try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/group.jpg")
        let label = (folder as NSString).lastPathComponent
        let photo = label + "/group.jpg"

        let first = try CLIRunner.run(["edit", folder + "/group.jpg", "--out", out],
                                      stdin: "set 1 ink\nset 2 pencil darkness=2\ndelete 3\nundo\nquit!\n")
        #expect(first.status == 0, "\(first.stderr)")

        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }
        let opened = ServerProcess.object(try server.post("/api/open", json: ["photo": photo]))
        #expect(opened["resumed"] as? Bool == true)
        let faces = opened["faces"] as? [[String: Any]] ?? []
        #expect(faces.map { $0["label"] as? String } == ["ink", "pencil (darkness=2)", nil])
        #expect(opened["redo"] as? String == "face 3 deleted")
        #expect(opened["undo"] as? String == "face 2: pencil (darkness=2)")

        // In the browser: redo the delete, restyle face 1, export.
        #expect(try server.post("/api/redo", json: ["photo": photo]).status == 200)
        let edit: [String: Any] = ["kind": "style", "faces": [1], "style": ["filter": "charcoal", "parameters": ["grain": 0.5]]]
        let styled = ServerProcess.object(try server.post("/api/edit", json: ["photo": photo, "edit": edit]))
        #expect((styled["faces"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1, 2])
        let exported = try server.post("/api/export", json: ["photo": photo])
        #expect(exported.status == 200 && ServerProcess.object(exported)["exported"] as? Bool == true)
        let png = try Data(contentsOf: URL(fileURLWithPath: out + "/group.png"))
        let download = try server.get("/api/download?photo=\(photo)")
        #expect(download.status == 200 && download.body == png)
        #expect(download.header("Content-Disposition") == "attachment; filename=\"group.png\"")
        #expect(download.header("Content-Type") == "image/png")

        let again = try TestAssets.temporaryFolder("shared-apply")
        #expect(try CLIRunner.run(["apply", out + "/.sketchease/group.sketchease.json", "--out", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/group.png")) == png)

        // Back at the prompt: the browser's edits, undoable one by one.
        let second = try CLIRunner.run(["edit", folder + "/group.jpg", "--out", out], stdin: "list\nundo\nundo\nlist\nquit!\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("(4 edits in effect)"))
        #expect(second.stdout.contains("charcoal (grain=0.5)"))
        #expect(second.stdout.contains("undone: face 1: charcoal (grain=0.5)"))
        #expect(second.stdout.contains("undone: face 3 deleted"))

    }

    /// A download says what it is: a JPEG or WebP export (`serve --format`) is not sent as PNG.
    @Test func aDownloadIsSentAsTheFormatItWasExportedIn() throws {
        for (format, type) in [("jpeg", "image/jpeg"), ("webp", "image/webp")] {
            let folder = try TestAssets.temporaryFolder("download-\(format)")
            let out = try TestAssets.temporaryFolder("download-\(format)-out")
            try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/group.jpg")
            let photo = (folder as NSString).lastPathComponent + "/group.jpg"
            let server = try ServerProcess([folder, "--out", out, "--format", format])
            defer { server.stop() }
            #expect(try server.post("/api/open", json: ["photo": photo]).status == 200)
            #expect(try server.post("/api/export", json: ["photo": photo]).status == 200)
            let download = try server.get("/api/download?photo=\(photo)")
            let name = "group." + (format == "jpeg" ? "jpg" : format)
            let file = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            #expect(download.status == 200 && download.body == file)
            #expect(download.header("Content-Type") == type, "\(format): \(download.header("Content-Type") ?? "none")")
            #expect(download.header("Content-Disposition") == "attachment; filename=\"\(name)\"")
        }
    }

    @Test func editsThatDoNotFitAreOneLineAndChangeNothing() throws {
        let folder = try TestAssets.temporaryFolder("misfit")
        try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/group.jpg")
        let out = try TestAssets.temporaryFolder("misfit-out")
        let photo = (folder as NSString).lastPathComponent + "/group.jpg"
        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }
        #expect(try server.post("/api/open", json: ["photo": photo]).status == 200)
        let cases: [([String: Any], String)] = [
            (["kind": "style", "faces": [9], "style": ["filter": "pencil"]], "there is no face 9 (faces: 1-3)"),
            (["kind": "style", "faces": [1], "style": ["filter": "crayon"]], "unknown filter 'crayon'"),
            (["kind": "style", "faces": [1], "style": ["filter": "pencil", "parameters": ["darkness": 99]]],
             "invalid parameter darkness=99: expected 0.5...4 (default 1.3)"),
            (["kind": "resize", "face": 1, "width": 1, "height": 50], "invalid box: width and height must be at least 2 pixels"),
            (["kind": "teleport", "face": 1], "unknown edit kind 'teleport'"),
            (["kind": "move", "face": 1], "malformed request (missing \"dx\")"),
        ]
        for (edit, message) in cases {
            let answer = try server.post("/api/edit", json: ["photo": photo, "edit": edit])
            #expect(answer.status >= 400 && answer.status < 500 && answer.error?.hasPrefix(message) == true, "\(answer.text)")
        }
        let outside = try server.post("/api/add", json: ["photo": photo, "box": [5000, 5000, 10, 10]])
        #expect(outside.error == "that box would be outside the photo (1500×720)")
        let threshold = try server.post("/api/detect", json: ["photo": photo, "threshold": 2])
        #expect(threshold.status == 400)
        let undo = try server.post("/api/undo", json: ["photo": photo])
        #expect(undo.status == 409 && undo.error == "nothing to undo", "none of the above was recorded")
        if FileManager.default.fileExists(atPath: out + "/.sketchease/group.sketchease.json") {
            #expect(try SessionFile.read(from: out + "/.sketchease/group.sketchease.json").edits.isEmpty)
        }

        // Re-detecting at a lower threshold is one undoable edit; faces keep their numbers.
        let found = ServerProcess.object(try server.post("/api/detect", json: ["photo": photo, "threshold": 0.3]))
        #expect((found["faces"] as? [[String: Any]])?.prefix(3).map { $0["id"] as? Int } == [1, 2, 3])
        #expect((found["message"] as? String)?.hasPrefix("found ") == true)
        #expect(found["undo"] as? String != nil)
    }

    @Test func aPictureNamedAtThePromptStaysButNoOtherFileCanBeNamed() throws {
        let folder = try TestAssets.temporaryFolder("chroma")
        let out = try TestAssets.temporaryFolder("chroma-out")
        try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/group.jpg")
        let beach = folder + "/beach.png"
        try FileManager.default.copyItem(atPath: TestAssets.astronaut, toPath: beach)
        let prompt = try CLIRunner.run(["edit", folder + "/group.jpg", "--out", out], stdin: "set 2 chroma image=\(beach)\nquit!\n")
        #expect(prompt.status == 0, "\(prompt.stderr)")
        let photo = (folder as NSString).lastPathComponent + "/group.jpg"
        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }
        #expect(try server.post("/api/open", json: ["photo": photo]).status == 200)
        func style(_ image: String) -> [String: Any] {
            ["kind": "style", "faces": [2], "style": ["filter": "chroma", "parameters": ["image": image, "tolerance": 20]]]
        }
        let kept = try server.post("/api/edit", json: ["photo": photo, "edit": style(beach)])
        #expect(kept.status == 200, "\(kept.text)")
        let other = try server.post("/api/edit", json: ["photo": photo, "edit": style("/etc/hostname")])
        #expect(other.status == 403 && other.error?.contains("'image' names a file") == true)
        let tried = try server.post("/api/preview", json: ["photo": photo, "edit": style("/etc/hostname")])
        #expect(tried.status == 403)
    }
}
