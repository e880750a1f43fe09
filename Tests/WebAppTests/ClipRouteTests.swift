import Foundation
import Testing
import TestSupport
import Vips

/// Clips in `serve`, over HTTP as the page uses them: listed with their length, opened into
/// tracks, a frame drawn with a styled track, exported as `video`/`apply` write it (audio
/// kept), an export cancelled without a file left, and bad clips named with their reason.
@Suite(.serialized) struct ClipRouteTests {
    /// A folder with the standard synthetic scene (`SyntheticClip`: faces from the example
    /// photos moving over a wall, with a tone), made with FFmpeg.
    static func clipFolder(_ label: String, width: Int = 640, height: Int = 360, seconds: Double = 3) throws -> (folder: String, id: String) {
        let folder = try TestAssets.temporaryFolder(label)
        try SyntheticClip.standard(width: width, height: height, seconds: seconds).write(to: folder + "/walk.mp4")
        return (folder, (folder as NSString).lastPathComponent + "/walk.mp4")
    }

    static func number(_ value: Any?) -> Double { (value as? Double) ?? Double((value as? Int) ?? -1) }

    /// An image answer decoded: width, height, RGB pixels.
    static func picture(_ response: RawHTTP.Response) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let file = try TestAssets.temporaryFolder("picture") + "/frame.jpg"
        try response.body.write(to: URL(fileURLWithPath: file))
        let image = try VipsImage.load(path: file)
        return (image.width, image.height, try image.extractBands(0, count: 3).pixels())
    }

    /// Mean absolute difference of two same-sized RGB pictures over a rectangle (picture pixels).
    static func difference(_ a: [UInt8], _ b: [UInt8], width: Int, in rect: (x: Int, y: Int, w: Int, h: Int)) -> Double {
        var total = 0.0, n = 0
        for y in rect.y..<(rect.y + rect.h) {
            for x in rect.x..<(rect.x + rect.w) {
                let i = (y * width + x) * 3
                for c in 0..<3 { total += abs(Double(a[i + c]) - Double(b[i + c])); n += 1 }
            }
        }
        return n == 0 ? 0 : total / Double(n)
    }

    static func waitForExport(_ server: ServerProcess, _ clip: String, timeout: TimeInterval = 300) throws -> [String: Any] {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let state = ServerProcess.object(try server.get("/api/clip/export?clip=\(clip)"))
            if let status = state["status"] as? String, status != "running" { return state }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw ServerProcess.Failure(description: "the export did not end")
    }

    @Test func aClipIsListedOpenedStyledCancelledAndExportedWithItsSound() throws {
        let (folder, clip) = try Self.clipFolder("clip-routes")
        let out = try TestAssets.temporaryFolder("clip-routes-out")
        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }

        // Listed beside the photos, with its length; its poster is a picture.
        let listing = ServerProcess.object(try server.get("/api/library"))
        let entry = (listing["photos"] as? [[String: Any]] ?? []).first { $0["id"] as? String == clip }
        #expect(entry?["kind"] as? String == "clip")
        #expect(abs(Self.number(entry?["duration"]) - 3) < 0.1, "\(entry ?? [:])")
        #expect(entry?["width"] as? Int == 640 && entry?["height"] as? Int == 360)
        let poster = try server.get("/api/thumbnail?photo=\(clip)")
        #expect(poster.status == 200 && poster.header("Content-Type") == "image/jpeg")
        #expect(try Self.picture(poster).width == 240)

        // Photo routes refuse it with one line.
        let asPhoto = try server.post("/api/open", json: ["photo": clip])
        #expect(asPhoto.status == 400 && asPhoto.error?.contains("is a clip") == true, "\(asPhoto.text)")

        // Opened: its tracks, each with the frame that shows it best, and a key to every frame's
        // boxes, which come apart (asked for when the key changes).
        func boxesOf(_ state: [String: Any]) throws -> [[[Double]]] {
            let answer = ServerProcess.object(try server.get("/api/clip/boxes?clip=\(clip)"))
            #expect(answer["key"] as? String == state["boxesKey"] as? String, "the boxes are the state's")
            return answer["boxes"] as? [[[Double]]] ?? []
        }
        let opened = try server.post("/api/clip/open", json: ["clip": clip])
        #expect(opened.status == 200, "\(opened.text)")
        let state = ServerProcess.object(opened)
        #expect(state["frameCount"] as? Int == 90)
        let tracks = state["tracks"] as? [[String: Any]] ?? []
        #expect(tracks.count >= 3, "\(tracks.map { $0["id"] ?? "" })")
        #expect(state["boxes"] == nil, "not sent with every state")
        let boxes = try boxesOf(state)
        #expect(boxes.count == 90)
        // The track shown largest on its own frame: the zooming face, at its clearest.
        guard let track = tracks.max(by: { Self.number(($0["box"] as? [Any])?[2]) < Self.number(($1["box"] as? [Any])?[2]) }),
              let id = track["id"] as? Int, let frame = track["frame"] as? Int else {
            Issue.record("no track with a picture"); return
        }
        let tile = try server.get("/api/clip/track?clip=\(clip)&track=\(id)")
        #expect(tile.status == 200 && tile.header("Content-Type") == "image/jpeg")

        // Frame `frame` as filmed, then with the track in pencil: changed in its box, not elsewhere.
        let plain = try Self.picture(try server.get("/api/clip/frame?clip=\(clip)&frame=\(frame)"))
        let edit: [String: Any] = ["kind": "style", "faces": [id], "style": ["filter": "pencil"]]
        let styled = try server.post("/api/clip/edit", json: ["clip": clip, "edit": edit])
        #expect(styled.status == 200, "\(styled.text)")
        #expect(ServerProcess.object(styled)["boxesKey"] as? String == state["boxesKey"] as? String, "a style moves no box")
        #expect(FileManager.default.fileExists(atPath: out + "/.sketchease/walk.sketchease.json"), "the session is saved as at the prompt")
        let drawn = try Self.picture(try server.get("/api/clip/frame?clip=\(clip)&frame=\(frame)&rev=2"))
        #expect(drawn.width == plain.width && drawn.height == plain.height)
        let scale = Double(plain.width) / 640
        guard let here = boxes[frame].first(where: { Int($0[0]) == id }) else { Issue.record("track \(id) not on frame \(frame)"); return }
        let inside = (x: Int(here[1] * scale + here[3] * scale * 0.25), y: Int(here[2] * scale + here[4] * scale * 0.25),
                      w: Int(here[3] * scale * 0.5), h: Int(here[4] * scale * 0.5))
        let faceChange = Self.difference(plain.pixels, drawn.pixels, width: plain.width, in: inside)
        // A strip along the top of the frame, clear of every face: only JPEG noise.
        let wall = Self.difference(plain.pixels, drawn.pixels, width: plain.width, in: (0, 0, plain.width, 12))
        #expect(faceChange > 12, "the face is drawn in pencil (mean change \(faceChange))")
        #expect(wall < 3, "the wall is left as filmed (mean change \(wall))")

        // A track moved on a frame moves on every frame; undo puts it back.
        let moved = ServerProcess.object(try server.post("/api/clip/edit", json: ["clip": clip, "edit": ["kind": "move", "face": id, "dx": 20, "dy": -10]]))
        #expect(moved["boxesKey"] as? String != state["boxesKey"] as? String, "a move does")
        let movedBoxes = try boxesOf(moved)
        for n in [0, frame, 89] {
            guard let a = boxes[n].first(where: { Int($0[0]) == id }), let b = movedBoxes[n].first(where: { Int($0[0]) == id }) else { continue }
            #expect(abs(b[1] - a[1] - 20) < 0.2 && abs(b[2] - a[2] + 10) < 0.2, "frame \(n): \(a) → \(b)")
        }
        let resized = ServerProcess.object(try server.post("/api/clip/edit", json: ["clip": clip, "edit": ["kind": "resize", "face": id, "width": Self.number((track["box"] as? [Any])?[2]) * 1.5, "height": Self.number((track["box"] as? [Any])?[3]) * 1.5]]))
        if let a = boxes[frame].first(where: { Int($0[0]) == id }), let b = try boxesOf(resized)[frame].first(where: { Int($0[0]) == id }) {
            #expect(abs(b[3] / a[3] - 1.5) < 0.01, "resized by half on its frame: \(a) → \(b)")
        }
        #expect(try server.post("/api/clip/undo", json: ["clip": clip]).status == 200)
        let undone = ServerProcess.object(try server.post("/api/clip/undo", json: ["clip": clip]))
        #expect(try boxesOf(undone)[frame] == boxes[frame], "undo twice: as tracked")
        #expect(undone["boxesKey"] as? String == state["boxesKey"] as? String, "the same boxes, the same key")
        #expect((undone["redo"] as? String)?.contains("moved") == true, "\(undone["redo"] ?? "")")

        // A box drawn on a frame for a face the tracker missed: a new track, followed from there.
        let missed: [Double] = [280, 250, 60, 60]
        let added = try server.post("/api/clip/add", json: ["clip": clip, "frame": 30, "box": missed])
        #expect(added.status == 200, "\(added.text)")
        let after = ServerProcess.object(added)["tracks"] as? [[String: Any]] ?? []
        #expect(after.count == tracks.count + 1)
        let known = Set(tracks.compactMap { $0["id"] as? Int })
        let new = after.first { !known.contains($0["id"] as? Int ?? -1) }
        #expect((new?["first"] as? Int ?? 99) <= 30 && (new?["last"] as? Int ?? -1) >= 30, "\(new ?? [:])")
        #expect(try server.post("/api/clip/undo", json: ["clip": clip]).status == 200)

        // A frame past the end: one line saying so.
        let past = try server.get("/api/clip/frame?clip=\(clip)&frame=900")
        #expect(past.status == 400 && past.error?.contains("past the end") == true, "\(past.text)")

        // Export, cancelled once frames are being written: nothing is written, nothing left behind.
        #expect(try server.post("/api/clip/export", json: ["clip": clip]).status == 200)
        for _ in 0..<400 {
            let now = ServerProcess.object(try server.get("/api/clip/export?clip=\(clip)"))
            if (now["frames"] as? Int ?? 0) >= 1 || now["status"] as? String != "running" { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(try server.post("/api/clip/cancel", json: ["clip": clip]).status == 200)
        let cancelled = try Self.waitForExport(server, clip)
        #expect(cancelled["status"] as? String == "cancelled", "\(cancelled)")
        #expect(!FileManager.default.fileExists(atPath: out + "/walk.mp4"))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: out + "/.sketchease")
        #expect(!hidden.contains { $0.hasSuffix(".mp4") }, "\(hidden)")

        // Export in full: frames and timestamps as filmed, the tone kept; the download is the file.
        #expect(try server.post("/api/clip/export", json: ["clip": clip]).status == 200)
        let done = try Self.waitForExport(server, clip)
        #expect(done["status"] as? String == "done", "\(done)")
        #expect(done["frames"] as? Int == 90)
        let exported = out + "/walk.mp4"
        let streams = try TestClips.ffprobe(["-show_entries", "stream=codec_type", "-of", "csv=p=0", exported])
        #expect(streams.split(separator: "\n").sorted() == ["audio", "video"], "\(streams)")
        #expect(try TestClips.frameSeconds(exported) == (try TestClips.frameSeconds(folder + "/walk.mp4")))
        let download = try server.get("/api/clip/download?clip=\(clip)")
        #expect(download.status == 200 && download.header("Content-Type") == "video/mp4")
        #expect(download.body == (try Data(contentsOf: URL(fileURLWithPath: exported))))
        #expect(ServerProcess.object(try server.post("/api/clip/open", json: ["clip": clip]))["exported"] as? Bool == true)

        // `apply` on the saved session writes the same clip, byte for byte.
        let again = try TestAssets.temporaryFolder("clip-routes-apply")
        let applied = try CLIRunner.run(["apply", out + "/.sketchease/walk.sketchease.json", "--out", again])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(FileManager.default.contents(atPath: again + "/walk.mp4") == FileManager.default.contents(atPath: exported))

        // One session file: the prompt resumes the page's edits, and its own show in the page.
        let prompt = try CLIRunner.run(["edit", folder + "/walk.mp4", "--out", out], stdin: "list\nset \(id) ink\nquit!\n")
        #expect(prompt.status == 0, "\(prompt.stderr)")
        #expect(prompt.stdout.contains("resumed from"), "\(prompt.stdout)")
        #expect(prompt.stdout.contains("pencil"), "\(prompt.stdout)")
        let reopened = ServerProcess.object(try server.post("/api/clip/open", json: ["clip": clip]))
        let mine = (reopened["tracks"] as? [[String: Any]] ?? []).first { $0["id"] as? Int == id }
        #expect((mine?["style"] as? [String: Any])?["filter"] as? String == "ink", "\(mine ?? [:])")
        #expect(reopened["canUndo"] as? Bool == true && (reopened["undo"] as? String)?.contains("ink") == true, "\(reopened["undo"] ?? "")")
    }

    @Test func badClipsAreOneLineNamingTheFileAndWhy() throws {
        let folder = try TestAssets.temporaryFolder("clip-bad")
        try Data("this is not a video".utf8).write(to: URL(fileURLWithPath: folder + "/broken.mp4"))
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/hopper.jpg")
        let out = try TestAssets.temporaryFolder("clip-bad-out")
        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }
        let label = (folder as NSString).lastPathComponent

        let listing = ServerProcess.object(try server.get("/api/library"))
        let problems = listing["problems"] as? [String] ?? []
        #expect(problems.count == 1 && problems[0].hasSuffix("broken.mp4: not a video (unrecognised format)"), "\(problems)")
        let opened = try server.post("/api/clip/open", json: ["clip": label + "/broken.mp4"])
        #expect(opened.status == 422, "\(opened.text)")
        #expect(opened.error?.hasSuffix("broken.mp4: not a video (unrecognised format)") == true, "\(opened.text)")
        #expect(server.log(atLeast: 1).contains { $0.hasPrefix("serve: cannot open ") && $0.hasSuffix("broken.mp4: not a video (unrecognised format)") },
                "one line on the server too: \(server.log)")
        #expect(try server.post("/api/clip/open", json: ["clip": "../etc/passwd.mp4"]).status >= 400)
        let traversal = try server.post("/api/clip/open", json: ["clip": label + "/../../etc/passwd.mp4"])
        #expect(traversal.status == 403 && traversal.error?.contains("traversal") == true, "\(traversal.text)")
        let absolute = try server.get("/api/clip/frame?clip=/etc/passwd&frame=0")
        #expect(absolute.status == 403, "\(absolute.text)")

        // The run's token on every clip and Live request, as on every other.
        for (method, path) in [("POST", "/api/clip/open"), ("POST", "/api/clip/export"), ("POST", "/api/live/frame?session=a&w=2&h=2&t=0"),
                               ("GET", "/api/clip/frame?clip=\(label)/broken.mp4&frame=0"), ("GET", "/api/live/state?session=a")] {
            let bare = try RawHTTP.request(method, port: server.port, path: path, headers: ["Content-Type": "application/json"],
                                           body: method == "POST" ? Data("{}".utf8) : nil)
            #expect(bare.status == 401, "\(method) \(path) without the token: \(bare.status)")
        }

        // Uploads: a clip is checked as one, a bad one refused with its name and reason.
        let bad = try server.upload(Data("nope".utf8), name: "holiday.mp4")
        #expect(bad.status == 422 && bad.error == "holiday.mp4: not a video (unrecognised format)", "\(bad.text)")
        let good = try TestAssets.temporaryFolder("clip-upload") + "/tone.mp4"
        try TestClips.pattern(good, seconds: 1)
        let uploaded = try server.upload(try Data(contentsOf: URL(fileURLWithPath: good)), name: "tone.mp4")
        #expect(uploaded.status == 200, "\(uploaded.text)")
        #expect(ServerProcess.object(uploaded)["kind"] as? String == "clip")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/uploads") == ["tone.mp4"])
    }
}
