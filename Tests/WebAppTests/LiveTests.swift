import Foundation
import Synchronization
import Testing
import TestSupport
import Video
import Vips
@testable import WebApp
import FaceDetector
import SketchEase

/// Live: frames in, styled frames out, faces followed and styled per face; over HTTP as the
/// page sends them, and in headless Chromium with a fake camera playing a Y4M made here from
/// the example photos (`--use-file-for-fake-video-capture`).
@Suite(.serialized) struct LiveTests {
    /// examples/group.jpg at 640 pixels wide, letterboxed to 640×480: three faces.
    static func groupFrame() throws -> VipsImage {
        let group = try VipsImage.load(path: TestAssets.group).extractBands(0, count: 3)
        let small = try group.resize(scale: 640 / Double(group.width))
        let top = (480 - small.height) / 2
        return try VipsImage.solid(width: 640, height: 480, pixel: [0, 0, 0]).inserting(small, x: 0, y: top).inMemory()
    }

    static func rgba(_ image: VipsImage) throws -> Data {
        Data(rgba(rgb: try image.pixels()))
    }

    /// RGB bytes as the page sends a frame: RGBA, opaque.
    static func rgba(rgb: [UInt8]) -> [UInt8] {
        var out = [UInt8](); out.reserveCapacity(rgb.count / 3 * 4)
        for i in stride(from: 0, to: rgb.count, by: 3) { out += [rgb[i], rgb[i + 1], rgb[i + 2], 255] }
        return out
    }

    static func faces(_ response: RawHTTP.Response) -> [[String: Any]] {
        guard let text = response.header("X-SketchEase-Faces") else { return [] }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }

    /// A server of `folder` (what goes behind put there first), sent Live's frames 0 and 1 of
    /// the group photo in front of a green screen, as session `session`.
    func greenScreen(_ folder: String, session: String) throws -> (server: ServerProcess, frame: VipsImage, body: Data) {
        let out = try TestAssets.temporaryFolder("live-green-out")
        let server = try ServerProcess([folder, "--out", out])
        let group = try VipsImage.load(path: TestAssets.group).extractBands(0, count: 3)
        let small = try group.resize(scale: 480 / Double(group.width))
        let frame = try VipsImage.solid(width: 640, height: 480, pixel: [0, 177, 64]).inserting(small, x: 80, y: 120).inMemory()
        let body = try Self.rgba(frame)
        for n in 0..<2 { #expect(try send(server, body, session: session, n: n).status == 200) }
        return (server, frame, body)
    }

    @Test func greenScreenKeysTheTappedColourAndPutsAServedPhotoBehind() throws {
        let folder = try TestAssets.temporaryFolder("live-green")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/hopper.jpg")
        let (server, frame, body) = try greenScreen(folder, session: "green")
        defer { server.stop() }
        let label = (folder as NSString).lastPathComponent
        let keyed = try server.post("/api/live/green", json: ["session": "green", "pick": [20, 20], "photo": label + "/hopper.jpg"])
        #expect(keyed.status == 200, "\(keyed.text)")
        let drawn = try ClipRouteTests.picture(try send(server, body, session: "green", n: 2))
        let plain = try frame.pixels()
        let screen = ClipRouteTests.difference(plain, drawn.pixels, width: 640, in: (0, 0, 640, 100))
        let photo = ClipRouteTests.difference(plain, drawn.pixels, width: 640, in: (100, 140, 60, 40))
        #expect(screen > 60, "the green is replaced (mean change \(screen))")
        #expect(photo < 9, "the photo in front is kept (mean change \(photo))")
        // A file outside the folders cannot be put behind; off again: as filmed.
        #expect(try server.post("/api/live/green", json: ["session": "green", "pick": [20, 20], "photo": "/etc/passwd"]).status == 403)
        #expect(try server.post("/api/live/green", json: ["session": "green", "pick": NSNull(), "photo": NSNull()]).status == 200)
        let again = try ClipRouteTests.picture(try send(server, body, session: "green", n: 3))
        #expect(ClipRouteTests.difference(plain, again.pixels, width: 640, in: (0, 0, 640, 100)) < 6)
    }

    /// A served clip behind the green screen plays from the moment the key is picked, by the
    /// camera's time, and starts over at its end: here red for a second, then blue.
    @Test func greenScreenPlaysAServedClipBehindAndStartsItOver() throws {
        let folder = try TestAssets.temporaryFolder("live-green-clip")
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=320x240:r=10:d=2,format=rgb24,geq=r='if(lt(T,1),230,20)':g=20:b='if(lt(T,1),20,230)'",
                              "-c:v", "libx264", "-pix_fmt", "yuv420p", folder + "/behind.mp4"])
        try Data("not a clip".utf8).write(to: URL(fileURLWithPath: folder + "/broken.mp4"))
        let (server, _, body) = try greenScreen(folder, session: "clip")
        defer { server.stop() }
        let label = (folder as NSString).lastPathComponent
        let keyed = try server.post("/api/live/green", json: ["session": "clip", "pick": [20, 20], "photo": label + "/behind.mp4"])
        #expect(keyed.status == 200, "\(keyed.text)")
        // The key was picked at frame 1 (1/15 s): frames 3, 20 and 35 show the clip 0.13, 1.27
        // and 2.27 s in (0.27 s into its second round).
        func screen(_ n: Int) throws -> (red: Double, blue: Double) {
            let drawn = try ClipRouteTests.picture(try send(server, body, session: "clip", n: n))
            var red = 0.0, blue = 0.0
            for y in 0..<100 { for x in 0..<640 { let i = (y * 640 + x) * 3; red += Double(drawn.pixels[i]); blue += Double(drawn.pixels[i + 2]) } }
            return (red / 64_000, blue / 64_000)
        }
        let first = try screen(3), second = try screen(20), again = try screen(35)
        #expect(first.red > 180 && first.blue < 70, "the clip's first second, red, behind: \(first)")
        #expect(second.blue > 180 && second.red < 70, "its second second, blue: \(second)")
        #expect(again.red > 180 && again.blue < 70, "started over: \(again)")
        // A clip that cannot be read is one line.
        let broken = try server.post("/api/live/green", json: ["session": "clip", "pick": [20, 20], "photo": label + "/broken.mp4"])
        #expect(broken.status == 422, "\(broken.status) \(broken.text)")
        #expect(broken.text.contains("broken.mp4 (behind the green screen): not a video"), "\(broken.text)")
    }

    /// A recording holds at most twenty uploads' worth (`--max-upload 1`: 20 MB): a page that
    /// never stops cannot fill the disk; the piece past that is refused in one line.
    @Test func aRecordingHoldsAtMostTwentyUploadsWorth() throws {
        let folder = try TestAssets.temporaryFolder("live-cap")
        let out = try TestAssets.temporaryFolder("live-cap-out")
        let server = try ServerProcess([folder, "--out", out, "--max-upload", "1"])
        defer { server.stop() }
        let piece = Data(repeating: 0x1a, count: 1_000_000)
        func send(_ n: Int) throws -> RawHTTP.Response {
            try RawHTTP.request("POST", port: server.port, path: "/api/live/record/piece?recording=long&piece=\(n)",
                                headers: ["X-SketchEase-Token": server.token, "Content-Type": "application/octet-stream"], body: piece)
        }
        for n in 0..<20 { #expect(try send(n).status == 200, "piece \(n)") }
        let over = try send(20)
        #expect(over.status == 413 && over.error?.hasPrefix("the recording has reached 20 MB") == true, "\(over.status) \(over.text)")
    }

    /// A recording sent in pieces is finished when its pieces stop coming (the page closed
    /// without a word) and when the server stops (Ctrl+C): an MP4 either way.
    @Test func aRecordingInPiecesIsFinishedWhenThePageGoesAndWhenTheServerStops() throws {
        let folder = try TestAssets.temporaryFolder("live-rec")
        let out = try TestAssets.temporaryFolder("live-rec-out")
        // What a browser's MediaRecorder sends: WebM, VP8 and Opus.
        let webm = try TestAssets.temporaryFolder("live-rec-webm") + "/rec.webm"
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:duration=2", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                              "-c:v", "libvpx", "-deadline", "realtime", "-b:v", "500k", "-c:a", "libopus", "-shortest", webm])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: webm))
        let third = bytes.count / 3
        let pieces = [bytes.prefix(third), bytes.dropFirst(third).prefix(third), bytes.dropFirst(2 * third)].map { Data($0) }
        let server = try ServerProcess([folder, "--out", out])
        func send(_ piece: Data, _ id: String, _ n: Int) throws -> RawHTTP.Response {
            try RawHTTP.request("POST", port: server.port, path: "/api/live/record/piece?recording=\(id)&piece=\(n)",
                                headers: ["X-SketchEase-Token": server.token, "Content-Type": "application/octet-stream"], body: piece)
        }
        func recordings() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasPrefix("live-") && $0.hasSuffix(".mp4") }
        }
        for (n, piece) in pieces.enumerated() { #expect(try send(piece, "gone", n).status == 200) }
        #expect(try send(pieces[0], "gone", 7).status == 409, "a piece out of order is refused")
        // The page went away: after ten seconds without a piece, the MP4 is there.
        for _ in 0..<150 where recordings().isEmpty { Thread.sleep(forTimeInterval: 0.2) }
        #expect(recordings().count == 1)
        // Ctrl+C while another is being recorded: it is finished before the server exits.
        for (n, piece) in pieces.prefix(2).enumerated() { #expect(try send(piece, "stopped", n).status == 200) }
        server.stop()
        let made = recordings()
        #expect(made.count == 2, "\(made)")
        for name in made {
            let streams = try TestClips.ffprobe(["-show_entries", "stream=codec_type", "-of", "csv=p=0", out + "/" + name])
            #expect(streams.split(separator: "\n").sorted() == ["audio", "video"], "\(name): \(streams)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out + "/.sketchease")) ?? []).allSatisfy { !$0.hasSuffix(".part") })
    }

    func send(_ server: ServerProcess, _ body: Data, session: String, n: Int, width: Int = 640, height: Int = 480, camera: Int = 0) throws -> RawHTTP.Response {
        try RawHTTP.request("POST", port: server.port, path: "/api/live/frame?session=\(session)&w=\(width)&h=\(height)&t=\(Double(n) / 15)&c=\(camera)",
                            headers: ["X-SketchEase-Token": server.token, "Content-Type": "application/octet-stream"], body: body)
    }

    /// Capture guidance: each of the face report's checks, said as an instruction over the
    /// live view (the report's own measures are tested in `FaceReportTests`).
    @Test func guidanceSaysEachCheckAsAnInstruction() throws {
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let hopper = try VipsImage.load(path: TestAssets.graceHopper).extractBands(0, count: 3).inMemory()
        func said(_ image: VipsImage) throws -> Set<String> {
            let faces = try detector.detect(in: image).enumerated().map {
                TrackedFace(id: $0.offset + 1, box: $0.element.box, landmarks: $0.element.landmarks, score: $0.element.score ?? 1)
            }
            #expect(faces.count == 1)
            return Set(try LiveSession.guidance(for: faces, on: image).map(\.say))
        }
        #expect(try said(hopper).isEmpty, "a good picture: nothing to say")
        #expect(try said(hopper.resize(scale: 0.4)) == ["move closer"])
        #expect(try said(hopper.crop(x: 200, y: 0, width: 312, height: 600)).contains("face cut off"))
        let nose = try #require(try detector.detect(in: hopper).first?.landmarks[2])
        let rightOfNose = try VipsImage.coordinates(width: hopper.width, height: hopper.height).extractBands(0).relational("more", constant: [nose.x])
        #expect(try said(rightOfNose.ifThenElse(hopper.linear(0.3, 0).cast(.uchar), hopper)).contains("light is uneven"))
        #expect(try said(hopper.gaussianBlur(sigma: 2.5).cast(.uchar)).contains("hold still"))
        #expect(try said(hopper.rotated(degrees: 30, background: [255, 255, 255]).cast(.uchar)).contains("hold your head straight"))
    }

    /// Every style the page offers draws a face live: the stickers on its landmarks and the
    /// relief too (`chroma` keys a colour the face does not have, `none` leaves it).
    @Test func everyStyleIsDrawnLive() throws {
        let folder = try TestAssets.temporaryFolder("live-styles")
        let out = try TestAssets.temporaryFolder("live-styles-out")
        let server = try ServerProcess([folder, "--out", out, "--live"])
        defer { server.stop() }
        let filters = (ServerProcess.object(try server.get("/api/library"))["filters"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(filters.contains("mask") && filters.contains("relief"), "\(filters)")
        let frame = try Self.groupFrame()
        let body = try Self.rgba(frame), plain = try frame.pixels()
        var n = 0
        var last: RawHTTP.Response?
        for _ in 0..<10 { last = try send(server, body, session: "styles", n: n); n += 1 }
        guard let b = (Self.faces(last!).first { $0["id"] as? Int == 2 }?["box"] as? [Any])?.map({ ClipRouteTests.number($0) }) else {
            Issue.record("face 2 is followed: \(Self.faces(last!))"); return
        }
        let inner = (x: Int(b[0] + b[2] * 0.25), y: Int(b[1] + b[3] * 0.25), w: Int(b[2] * 0.5), h: Int(b[3] * 0.5))
        var changes: [String: Double] = [:]
        for filter in filters where filter != "chroma" && filter != "none" {
            let set = try server.post("/api/live/style", json: ["session": "styles", "track": 2, "style": ["filter": filter]])
            #expect(set.status == 200, "\(filter): \(set.text)")
            let answer = try send(server, body, session: "styles", n: n); n += 1
            #expect(Self.faces(answer).first { $0["id"] as? Int == 2 }?["style"] as? String == filter)
            changes[filter] = ClipRouteTests.difference(plain, try ClipRouteTests.picture(answer).pixels, width: 640, in: inner)
        }
        #expect(changes.count == filters.count - 2 && changes.values.allSatisfy { $0 > 15 }, "face 2 drawn in each style (mean change): \(changes)")
    }

    @Test func framesComeBackWithEveryFaceStyledAndAFaceRestyledByItself() throws {
        let folder = try TestAssets.temporaryFolder("live")
        let out = try TestAssets.temporaryFolder("live-out")
        let server = try ServerProcess([folder, "--out", out, "--live"])
        defer { server.stop() }
        #expect(server.url.hasSuffix("#live"), "serve --live prints the address of Live")
        #expect(ServerProcess.object(try server.get("/api/library"))["live"] as? Bool == true)

        let frame = try Self.groupFrame()
        let body = try Self.rgba(frame)
        var last: RawHTTP.Response?
        var answers: [RawHTTP.Response] = []
        for n in 0..<10 {
            last = try send(server, body, session: "test-1", n: n)
            #expect(last?.status == 200, "\(last?.text ?? "")")
            if let last { answers.append(last) }
        }
        // Each face is left as filmed until it is followed, then fades in over a few frames.
        let plainPixels = try frame.pixels()
        if let hopper = Self.faces(last!).first(where: { $0["id"] as? Int == 2 })?["box"] as? [Any] {
            let b = hopper.map { ClipRouteTests.number($0) }
            let inner = (x: Int(b[0] + b[2] * 0.25), y: Int(b[1] + b[3] * 0.25), w: Int(b[2] * 0.5), h: Int(b[3] * 0.5))
            let changes = try answers.map { ClipRouteTests.difference(plainPixels, try ClipRouteTests.picture($0).pixels, width: 640, in: inner) }
            #expect(changes[0] < 9, "not styled before it is followed: \(changes)")
            let final = changes.last!
            #expect(changes.contains { $0 > 9 && $0 < final * 0.85 }, "partly styled while fading in: \(changes)")
            #expect(final > 20, "\(changes)")
        }
        // Three faces, followed (ids 1–3 once the tracker has confirmed them), in the default style.
        let faces = Self.faces(last!)
        #expect(faces.compactMap { $0["id"] as? Int }.sorted() == [1, 2, 3], "\(faces)")
        #expect(faces.allSatisfy { $0["style"] as? String == "pencil" })

        // Face 2 left as filmed, the others in pencil: only their boxes change.
        let restyled = try server.post("/api/live/style", json: ["session": "test-1", "track": 2, "style": NSNull()])
        #expect(restyled.status == 200, "\(restyled.text)")
        let answer = try send(server, body, session: "test-1", n: 12)
        let drawn = try ClipRouteTests.picture(answer)
        let plain = try frame.pixels()
        for face in Self.faces(answer) {
            let b = (face["box"] as? [Any] ?? []).map { ClipRouteTests.number($0) }
            let inner = (x: Int(b[0] + b[2] * 0.25), y: Int(b[1] + b[3] * 0.25), w: Int(b[2] * 0.5), h: Int(b[3] * 0.5))
            let change = ClipRouteTests.difference(plain, drawn.pixels, width: 640, in: inner)
            if face["id"] as? Int == 2 {
                #expect(change < 9, "face 2 is left as filmed, JPEG noise aside (mean change \(change))")
            } else {
                #expect(change > 12, "face \(face["id"] ?? "?") is drawn in pencil (mean change \(change))")
            }
        }

        // Capture guidance from the face report: the small faces are told to come closer.
        let guidance = (try? JSONSerialization.jsonObject(with: Data((answer.header("X-SketchEase-Guidance") ?? "[]").utf8)) as? [[String: Any]]) ?? []
        #expect(guidance.contains { $0["say"] as? String == "move closer" && $0["face"] as? Int == 3 }, "\(guidance)")

        // Take picture: the styled frame and its face report in OUT/.
        let still = try server.post("/api/live/still", json: ["session": "test-1"])
        #expect(still.status == 200, "\(still.text)")
        let saved = ServerProcess.object(still)
        let png = saved["output"] as? String ?? ""
        #expect(png.hasPrefix(out + "/live-") && png.hasSuffix(".png") && FileManager.default.fileExists(atPath: png), "\(saved)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved["report"] as? String ?? ""))) as? [[String: Any]] ?? []
        #expect(report.count == 3, "\(report)")
        #expect(try VipsImage.load(path: png).width == 640)

        // Bad frames: one line saying what is wrong.
        let short = try send(server, Data(count: 100), session: "test-1", n: 13)
        #expect(short.status == 400 && short.error?.contains("RGBA") == true, "\(short.text)")
        let huge = try send(server, Data(count: 4), session: "test-1", n: 13, width: 10_000, height: 10_000)
        #expect(huge.status == 413, "\(huge.text)")
        let odd = try send(server, body, session: "../x", n: 13)
        #expect(odd.status == 400, "\(odd.text)")
    }

    /// Between two detections (every other frame), a face is where its last two detections say
    /// it is going: moved on at their speed, never further ahead than one more interval; a face
    /// found only once stays where it was found.
    /// Frames from another camera (the page counts its switches) are followed afresh: its
    /// faces are not the first camera's, wherever they are in the picture.
    @Test func anotherCamerasFacesAreFollowedAfresh() throws {
        let folder = try TestAssets.temporaryFolder("live-switch")
        let out = try TestAssets.temporaryFolder("live-switch-out")
        let server = try ServerProcess([folder, "--out", out, "--live"])
        defer { server.stop() }
        let body = try Self.rgba(try Self.groupFrame())
        var last: RawHTTP.Response?
        for n in 0..<10 { last = try send(server, body, session: "switch", n: n) }
        #expect(Self.faces(last!).compactMap { $0["id"] as? Int }.sorted() == [1, 2, 3])
        let switched = try send(server, body, session: "switch", n: 10, camera: 1)
        #expect(Self.faces(switched).compactMap { $0["id"] as? Int } == [0, 0, 0], "new faces, not yet followed: \(Self.faces(switched))")
    }

    /// Switch camera, in the page, where there are two (Chromium's two fake cameras).
    @Test(.enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (scripts/setup.sh)"))
    func switchCameraShowsTheOtherCamera() throws {
        let folder = try TestAssets.temporaryFolder("live-two")
        let out = try TestAssets.temporaryFolder("live-two-out")
        let server = try ServerProcess([folder, "--out", out, "--live"])
        defer { server.stop() }
        let browser = try WebDriver(downloads: try TestAssets.temporaryFolder("live-two-downloads"),
                                    arguments: ["--use-fake-device-for-media-stream=device-count=2"])
        defer { browser.quit() }
        try browser.open(server.url)
        try browser.wait("frames", for: "return window.sketchease.live?.stats.shown >= 5", timeout: 120)
        #expect(try browser.script("return document.getElementById('live-switch').hidden") as? Bool == false)
        let camera = "return window.sketchease.live.stream.getVideoTracks()[0].label"
        let first = try browser.script(camera) as? String ?? ""
        try browser.click("#live-switch")
        try browser.wait("the other camera", for: "return window.sketchease.live.stream.getVideoTracks()[0].label !== '\(first)' && window.sketchease.live.cameraNumber === 1")
        let shown = number(try browser.script("return window.sketchease.live.stats.shown"))
        try browser.wait("its frames", for: "return window.sketchease.live.stats.shown >= \(Int(shown) + 5)", timeout: 60)
        let second = try browser.script(camera) as? String ?? ""
        #expect(Set([first, second]) == ["fake_device_0", "fake_device_1"], "\(first) then \(second)")
        // And back.
        try browser.click("#live-switch")
        try browser.wait("the first camera again", for: "return window.sketchease.live.stream.getVideoTracks()[0].label === '\(first)'")
    }

    /// A face keeps the id it had on the frame before, whatever the tracker (which measures a
    /// small face's motion poorly) made of it; the tracker places a face only between looks.
    @Test func aFaceKeepsTheIdItHadOnTheFrameBefore() {
        func found(_ x: Double) -> DetectedFace {
            DetectedFace(box: FaceBox(x: x, y: 100, width: 26, height: 32), score: 0.9, landmarks: [Point(x: x + 8, y: 110), Point(x: x + 18, y: 110)])
        }
        func tracked(_ id: Int, _ x: Double) -> TrackedFace { TrackedFace(id: id, box: FaceBox(x: x, y: 100, width: 26, height: 32)) }
        // The camera turned back: the tracker ran on past the face (its track 3 at 520) and
        // gave it a new track (4); it is face 3 where it is found, and nothing is drawn at 520.
        let turned = LiveSession.current([found(552)], followed: [tracked(3, 520), tracked(4, 553)], shown: [tracked(3, 548)])
        #expect(turned.map(\.id) == [3] && turned[0].box.x == 552, "\(turned)")
        // A few frames a second, the camera turning: the face 30 px (more than its width) from
        // where it was shown, the tracker's track run on the other way; still face 3, found.
        let jumped = LiveSession.current([found(581)], followed: [tracked(3, 646)], shown: [tracked(3, 611)])
        #expect(jumped.map(\.id) == [3] && jumped[0].box.x == 581, "\(jumped)")
        // Two faces side by side keep their own ids.
        let pair = LiveSession.current([found(130), found(100)], followed: [], shown: [tracked(1, 98), tracked(2, 128)])
        #expect(pair.map(\.id) == [2, 1], "\(pair)")
        // Missed by the detector this once: where the tracker follows it, as face 3.
        let missed = LiveSession.current([], followed: [tracked(4, 556)], shown: [tracked(3, 552)])
        #expect(missed.map(\.id) == [3] && missed[0].box.x == 556, "\(missed)")
        // A track that continues no face shown (lost, running on) is not drawn.
        #expect(LiveSession.current([], followed: [tracked(5, 420)], shown: [tracked(3, 552)]).isEmpty)
        // A face found anew is not drawn (id 0) until the tracker has a track on it.
        #expect(LiveSession.current([found(552), found(100)], followed: [], shown: [tracked(3, 548)]).map(\.id) == [3, 0])
        #expect(LiveSession.current([found(100)], followed: [tracked(6, 101)], shown: []).map(\.id) == [6])
        // Between looks a face is where the tracker's motion puts it, landmarks and all; where
        // its track has run off elsewhere, where the looks say it is going.
        let moved = LiveSession.moved([found(552)], asFollowed: [tracked(3, 556)])
        #expect(moved[0].box.x == 556 && moved[0].landmarks.map(\.x) == [564, 574])
        #expect(LiveSession.moved([found(552)], asFollowed: [tracked(3, 530)])[0].box.x == 552)
    }

    @Test func aFaceBetweenDetectionsIsWhereItsLastTwoSayItIsGoing() {
        func face(_ x: Double, _ y: Double, _ side: Double) -> DetectedFace {
            DetectedFace(box: FaceBox(x: x, y: y, width: side, height: side), score: 0.9,
                         landmarks: [Point(x: x + side * 0.3, y: y + side * 0.4), Point(x: x + side * 0.7, y: y + side * 0.4)])
        }
        let sightings = [(time: 1.0, faces: [face(100, 50, 80), face(400, 300, 60)]),
                         (time: 1.2, faces: [face(120, 50, 84), face(500, 100, 40)])]
        let halfway = LiveSession.predicted(from: sightings, at: 1.3)
        #expect(halfway.count == 2)
        #expect(abs(halfway[0].box.x - 130) < 1e-9 && abs(halfway[0].box.width - 86) < 1e-9 && halfway[0].box.y == 50)
        #expect(abs(halfway[0].landmarks[0].x - (130 + 86 * 0.3)) < 1e-9, "the landmarks move with the face")
        #expect(halfway[1].box == sightings[1].faces[1].box, "a face not seen before stays where it was found")
        let late = LiveSession.predicted(from: sightings, at: 2.0)
        #expect(abs(late[0].box.x - 140) < 1e-9, "one interval ahead at most")
        #expect(LiveSession.predicted(from: Array(sightings.prefix(1)), at: 1.1) == sightings[0].faces)
        #expect(LiveSession.predicted(from: [], at: 1).isEmpty)
    }

    /// The grey copy the tracker measures motion on is made from the page's RGBA bytes: at most
    /// 480 px long, luma (Rec. 601) sampled between the four nearest pixels.
    @Test func theGreyCopyForMotionIsTheFramesLumaAtMost480PixelsLong() {
        let (width, height) = (640, 480)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = 4 * (y * width + x)
                rgba[o] = UInt8(x * 255 / (width - 1)); rgba[o + 1] = UInt8(y * 255 / (height - 1)); rgba[o + 2] = 40
            }
        }
        let grey = LiveSession.grey(rgba: rgba, width: width, height: height)
        #expect(grey.width == 480 && grey.height == 360 && abs(grey.scale - 0.75) < 1e-9)
        for (x, y) in [(0, 0), (240, 180), (479, 359), (100, 300)] {
            // The output pixel's centre in the frame, and the luma the frame has there.
            let fx = (Double(x) + 0.5) / 0.75 - 0.5, fy = (Double(y) + 0.5) / 0.75 - 0.5
            let r = fx * 255 / Double(width - 1), g = fy * 255 / Double(height - 1)
            let expected = (77 * r + 150 * g + 29 * 40) / 256
            #expect(abs(Double(grey.pixels[y * 480 + x]) - expected) <= 2, "(\(x), \(y)): \(grey.pixels[y * 480 + x]) for \(expected)")
        }
        let small = LiveSession.grey(rgba: Array(rgba.prefix(320 * 240 * 4)), width: 320, height: 240)
        #expect(small.width == 320 && small.height == 240 && small.scale == 1, "a small frame is kept at its size")
    }

    /// A look or a measurement worked out in the background: its value (or its error) once it
    /// has finished, as often as it is asked for.
    @Test func aPendingValueIsWaitedForOnce() throws {
        let started = Date()
        let value = LiveSession.Pending { () -> Int in
            Thread.sleep(forTimeInterval: 0.2)
            return 42
        }
        #expect(Date().timeIntervalSince(started) < 0.15, "started in the background")
        #expect(try value.get() == 42)
        #expect(try value.get() == 42)
        struct Broken: Error {}
        let failing = LiveSession.Pending { () throws -> Int in throw Broken() }
        #expect(throws: Broken.self) { try failing.get() }
    }

    /// A face that comes on fades in over a fifth of a second, whatever the frames' rate: over
    /// four frames at 15 a second, and by its second frame at two a second (counted in frames,
    /// it stayed half in colour for 1.5 s there).
    /// A camera in a dim room (the group photo at a quarter of the light: nothing white in
    /// it) has its faces drawn at a normal exposure, the camera's white followed from frame to
    /// frame (`PictureExposure.Follower`); in good light they are drawn at the camera's own.
    @Test func aDimCamerasFacesAreDrawnAtANormalExposure() throws {
        let lit = try Self.groupFrame()
        let dim = try lit.colourspace(.scrgb).linear(0.25, 0).colourspace(.srgb).cast(.uchar).inMemory()
        func drawnAndFilmed(_ frame: VipsImage) throws -> (drawn: Double, filmed: Double) {
            let settings = ServeSettings(inputs: [], outputFolder: try TestAssets.temporaryFolder("live-exposure"),
                                         defaultStyle: try FaceStyle.named("pencil"))
            let session = LiveSession(id: "exposure", settings: settings,
                                      detector: try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model), detectorLock: NSLock())
            var last: LiveSession.Output?
            for n in 0..<12 {
                if let out = try session.take(rgba: Self.rgba(rgb: frame.pixels()), width: 640, height: 480, time: Double(n) / 15) { last = out }
            }
            let out = try #require(last)
            let box = try #require(out.faces.first { $0.id > 0 }?.box)
            let file = try TestAssets.temporaryFolder("live-exposure-frame") + "/frame.jpg"
            try Data(out.jpeg).write(to: URL(fileURLWithPath: file))
            let (x, y, w, h) = (Int(box[0] + box[2] * 0.25), Int(box[1] + box[3] * 0.25), Int(box[2] * 0.5), Int(box[3] * 0.5))
            func grey(_ image: VipsImage) throws -> Double {
                try image.extractBands(0, count: 3).crop(x: x, y: y, width: w, height: h).colourspace(.bw).extractBands(0).average()
            }
            return (try grey(VipsImage.load(path: file)), try grey(frame))
        }
        let inLight = try drawnAndFilmed(lit), inDim = try drawnAndFilmed(dim)
        print("a face in good light: grey \(inLight.filmed) filmed, \(inLight.drawn) drawn; in a dim room \(inDim.filmed), \(inDim.drawn)")
        #expect(inDim.drawn > inDim.filmed + 15, "lifted in the dim room")
        #expect(abs(inLight.drawn - inLight.filmed) < 12, "as it is in good light")
    }

    @Test func aFaceFadesInOverAFifthOfASecondAtAnyFrameRate() {
        let at15 = (0..<5).map { LiveSession.fadeOpacity(shownFor: Double($0) / 15) }
        #expect(zip(at15, [0.25, 0.5, 0.75, 1, 1]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(at15)")
        #expect(LiveSession.fadeOpacity(shownFor: 0) == 0.25)
        #expect(LiveSession.fadeOpacity(shownFor: 0.5) == 1)
    }

    @Test func theFramesColourIsItsRGBAWithoutAlpha() throws {
        let rgba: [UInt8] = (0..<(7 * 5 * 4)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let bands = try VipsImage.fromPixels(rgba, width: 7, height: 5, bands: 4).extractBands(0, count: 3).pixels()
        #expect(LiveSession.rgb(rgba: rgba) == bands)
    }

    /// The page keeps two frames in flight: the server follows them in order and draws them side
    /// by side. A frame from before one already taken (the two overtook each other on the way)
    /// is dropped, as the tracker only goes forward; so is one beyond the two.
    @Test func twoFramesInFlightAreFollowedInOrderAndAnOlderOneIsDropped() throws {
        let folder = try TestAssets.temporaryFolder("live-flight")
        let out = try TestAssets.temporaryFolder("live-flight-out")
        let server = try ServerProcess([folder, "--out", out, "--live"])
        defer { server.stop() }
        let body = try Self.rgba(try Self.groupFrame())
        #expect(try send(server, body, session: "flight", n: 30).status == 200)
        let older = try send(server, body, session: "flight", n: 20)
        #expect(older.status == 429 && older.error?.contains("newer frame") == true, "\(older.text)")

        // Pairs sent at once: each answered, a drawn frame or a dropped one, never an error;
        // the frames drawn numbered in the order they were taken.
        let answers = Mutex<[(n: Int, response: RawHTTP.Response)]>([])
        for pair in 0..<4 {
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let n = 40 + 2 * pair + i
                if let response = try? send(server, body, session: "flight", n: n) {
                    answers.withLock { $0.append((n, response)) }
                }
            }
        }
        let all = answers.withLock { $0 }
        #expect(all.count == 8, "every frame is answered")
        #expect(all.allSatisfy { $0.response.status == 200 || $0.response.status == 429 }, "\(all.map { ($0.n, $0.response.status, $0.response.text) })")
        let drawn = all.filter { $0.response.status == 200 }
            .map { (n: $0.n, frame: Int($0.response.header("X-SketchEase-Frame") ?? "") ?? -1) }.sorted { $0.n < $1.n }
        #expect(drawn.count >= 4, "at least one of each pair is drawn: \(drawn)")
        #expect(zip(drawn, drawn.dropFirst()).allSatisfy { $0.frame < $1.frame }, "frames numbered in time order: \(drawn)")
        let facesDrawn = drawn.map { d in Self.faces(all.first { $0.n == d.n }!.response).count }
        #expect(facesDrawn.allSatisfy { $0 == 3 }, "every drawn frame has its three faces: \(facesDrawn)")
        let state = ServerProcess.object(try server.get("/api/live/state?session=flight"))
        let taken = (state["framesIn"] as? Int ?? -1), dropped = (state["dropped"] as? Int ?? -1)
        #expect(taken == 1 + drawn.count, "\(state)")
        #expect(dropped >= 0)
    }

    @Test(.enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver"))
    func liveInChromiumFromAFakeCameraTapAFacePickAStyleAndRecord() throws {
        let folder = try TestAssets.temporaryFolder("live-browser")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/hopper.jpg")
        let out = try TestAssets.temporaryFolder("live-browser-out")
        // The fake camera: the group photo panning (`PanningCamera`), played in a loop.
        let camera = try TestAssets.temporaryFolder("live-camera") + "/group.y4m"
        let pan = try PanningCamera()
        try pan.write(to: camera)
        // A clip to put behind the green screen: the astronaut's photo, panned over in 2 s.
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "15", "-i", TestAssets.astronaut, "-t", "2",
                              "-vf", "crop=w=iw*0.7:h=ih*0.7:x=(iw-ow)*t/2:y=(ih-oh)/2,scale=480:-2,format=yuv420p",
                              "-c:v", "libx264", folder + "/behind.mp4"])
        let server = try ServerProcess([folder, "--out", out, "--live"])
        defer { server.stop() }
        let downloads = try TestAssets.temporaryFolder("live-downloads")
        let browser = try WebDriver(downloads: downloads, arguments: ["--use-file-for-fake-video-capture=\(camera)"])
        defer { browser.quit() }
        let shots = BrowserTests.screenshots

        // `serve --live` opens straight into Live: the camera's faces come back styled.
        try browser.open(server.url)
        try browser.wait("faces live", for: "return window.sketchease.live?.faces.filter(f => f.id > 0).length === 3 && window.sketchease.live.stats.shown >= 5", timeout: 120)
        #expect(try browser.script("return document.getElementById('live-switch').hidden") as? Bool == true, "one camera: no Switch camera")
        Thread.sleep(forTimeInterval: 3)
        try browser.screenshot(to: shots + "/live.png")

        // Tap face 2, pick ink: that face alone is drawn in ink.
        try browser.script("document.querySelector(\".live-face[data-id='2']\").click()")
        try browser.wait("the styles", for: "return !document.getElementById('live-styles').hidden")
        try browser.click(".live-style[data-filter='ink']")
        try browser.wait("ink on face 2", for: "return window.sketchease.live.faces.find(f => f.id === 2)?.style === 'ink'", timeout: 60)
        let shownBefore = number(try browser.script("return window.sketchease.live.stats.shown"))
        try browser.wait("frames after", for: "return window.sketchease.live.stats.shown >= \(Int(shownBefore) + 3)", timeout: 60)
        try browser.screenshot(to: shots + "/live-ink.png")
        #expect((try browser.script("return window.sketchease.live.faces.map(f => f.style)") as? [String])?.sorted() == ["ink", "pencil", "pencil"])

        // Guidance over the picture; Take picture saves the styled frame and its report.
        try browser.wait("guidance", for: "return [...document.querySelectorAll('#live-guidance li')].some(li => li.textContent.startsWith('move closer'))")
        try browser.click("#live-still")
        let still = try browser.wait("the picture", for: "return window.sketchease.still ?? null") as? [String: Any] ?? [:]
        #expect(FileManager.default.fileExists(atPath: still["output"] as? String ?? "") && FileManager.default.fileExists(atPath: still["report"] as? String ?? ""), "\(still)")

        // Record 5 s with the (fake) microphone: OUT/live-….mp4 with sound, as long as recorded.
        try browser.click("#live-record")
        try browser.wait("recording", for: "return document.getElementById('live-record').getAttribute('aria-pressed') === 'true'")
        // How many styled frames the server sent back a second while recording: whether it kept
        // up (the recording itself may hold a frame more than once).
        let shownAtStart = number(try browser.script("return window.sketchease.live.stats.shown")), startedAt = Date()
        Thread.sleep(forTimeInterval: 5)
        let shownRate = (number(try browser.script("return window.sketchease.live.stats.shown")) - shownAtStart) / Date().timeIntervalSince(startedAt)
        try browser.click("#live-record")
        let saved = try browser.wait("the recording", for: "return window.sketchease.recording ?? null", timeout: 120) as? [String: Any] ?? [:]
        let name = saved["name"] as? String ?? ""
        #expect(name.hasPrefix("live-") && name.hasSuffix(".mp4"), "\(saved)")
        let recording = out + "/" + name
        // The sound as AAC (the browser recorded Opus, which not every MP4 player plays), the
        // pictures as H.264: as `video` writes a clip.
        let streams = try TestClips.ffprobe(["-show_entries", "stream=codec_type,codec_name", "-of", "csv=p=0", recording])
        #expect(streams.split(separator: "\n").map { $0.split(separator: ",").last.map(String.init) ?? "" }.sorted() == ["audio", "video"], "\(streams)")
        #expect(streams.contains("h264,video"), "\(streams)")
        #expect(streams.contains("aac,audio"), "\(streams)")
        let length = Double(try TestClips.ffprobe(["-show_entries", "format=duration", "-of", "csv=p=0", recording])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(length > 4.5 && length < 6.5, "recorded about 5 s: \(length) s")
        let sound = Double(try TestClips.ffprobe(["-select_streams", "a:0", "-show_entries", "stream=duration", "-of", "csv=p=0", recording])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(sound > 4.5 && sound < 6.5, "the sound as long: \(sound) s")
        let times = try TestClips.frameSeconds(recording)
        #expect(times.count >= 10 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "frames in order: \(times)")
        // In the recording's frames: every face drawn, following the camera, the rest as filmed.
        let drawn = try pan.drawnFaces(in: recording)
        // (At least two frames a second: ~10 shown a second here, 4-7 with the machine busy.)
        #expect(drawn.frames >= 10, "\(drawn)")
        // Grey: a drawn face keeps a tenth or two of its colour. Before Live kept ids from
        // frame to frame, the 26 px face was left as filmed (0.9 of its colour) for 5-10
        // frames running. Where the machine cannot keep up (fewer than 6 styled frames shown a
        // second while recording: other work on both cores, as when the whole suite runs, or a
        // slower machine; the recording can hold a frame more than once), the faces move
        // up to a face's width between frames, and where the camera turns the small face's
        // drawing has been seen beside it for a frame or two. There, three frames in five with
        // every face drawn; where it keeps up, every frame. (Measured on a 2-core machine with a
        // batch run busy on both cores, at 2.1-2.6 frames a second shown: every face on every
        // frame in 5 runs of 7, on 10 of 12 and 9 of 13 in the other two (the 26 px face as
        // filmed for a few frames running). Before each face was moved on from the frame
        // before by its own motion, `LiveSession.placed`: 3-4 of 12-14, failing 2 runs of 3.
        // `LiveFollowingTests` measures where the drawings go, frame by frame.)
        let keptUp = shownRate >= 6
        print("live recording: \(shownRate) styled frames a second shown while recording")
        if keptUp {
            #expect(drawn.weakestFace > 15 && drawn.colourKept < 0.5 && drawn.undrawn.count <= 2,
                    "every face drawn in a style (grey) on every frame: \(drawn)")
        } else {
            #expect(Double(drawn.allDrawn) >= 0.6 * Double(drawn.frames), "every face drawn on three frames in five, at \(shownRate) frames/s shown: \(drawn)")
        }
        #expect(drawn.wall < 9, "the rest as filmed on every frame: \(drawn)")
        print("live recording over the panning camera: \(drawn)")
        try browser.wait("the download link", for: "return !document.getElementById('live-download').hidden")
        let said = try browser.script("return document.getElementById('toast').textContent") as? String ?? ""
        #expect(said.hasPrefix("Recorded \(name) ("), "\(said)")
        let download = try server.get("/api/live/download?name=\(name)")
        #expect(download.status == 200 && download.body == FileManager.default.contents(atPath: recording))
        #expect(try server.get("/api/live/download?name=../uploads/x.mp4").status == 400)

        // Green screen: the served clip picked to go behind, Green screen, a tap on the green
        // above the photos; the green is replaced by the clip, the photos stay as filmed.
        try browser.script("""
            const s = document.getElementById('live-behind');
            s.value = [...s.options].find(o => o.textContent.startsWith('behind.mp4')).value;
            """)
        try browser.click("#live-green")
        let view = try browser.rect("#live-boxes")
        try browser.tap(at: (view.x + view.width * 0.1, view.y + view.height * 0.05))
        try browser.wait("the green screen", for: "return window.sketchease.greenScreen?.photo?.endsWith('behind.mp4') ?? false")
        let shownKeyed = number(try browser.script("return window.sketchease.live.stats.shown"))
        try browser.wait("frames keyed", for: "return window.sketchease.live.stats.shown >= \(Int(shownKeyed) + 4)", timeout: 60)
        try browser.screenshot(to: shots + "/live-green.png")
        let strip = try browser.script("""
            const c = document.getElementById('live-canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, 40).data;
            const m = [0, 0, 0]; for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) m[k] += d[i + k];
            return m.map(v => v / (d.length / 4));
            """) as? [Any] ?? []
        let above = strip.map(number)
        #expect(above.count == 3 && zip(above, PanningCamera.green).map { abs($0 - $1) }.reduce(0, +) / 3 > 40,
                "the green above the photos replaced by the clip: \(above)")
        try browser.click("#live-green")
        try browser.wait("the green screen off", for: "return document.getElementById('live-green').getAttribute('aria-pressed') === 'false'")

        // Phone width.
        try browser.resize(width: 390, height: 844)
        // Once the message about the recording has gone (it shows for 3.5 s).
        Thread.sleep(forTimeInterval: 4)
        try browser.screenshot(to: shots + "/live-phone.png")

        let stats = try browser.script("const l = window.sketchease.live; return { fps: l.fps, stats: l.stats }") as? [String: Any] ?? [:]
        try JSONSerialization.data(withJSONObject: ["live": "640×480, 3 faces (pencil, ink), the camera panning", "stats": stats], options: [.prettyPrinted])
            .write(to: URL(fileURLWithPath: shots + "/timings-live.json"))
        let latencies = ((stats["stats"] as? [String: Any])?["latencies"] as? [Any] ?? []).map(number).sorted()
        if !latencies.isEmpty {
            print("live 640×480, 3 faces: \(String(format: "%.1f", number(stats["fps"] ?? 0))) fps shown, camera to screen median \(latencies[latencies.count / 2]) ms (n=\(latencies.count)); screenshots in \(shots)")
        }
        #expect(((stats["stats"] as? [String: Any])?["dropped"] as? Int ?? -1) >= 0)

        // Recording again, and the page goes away (another address): the server finishes what
        // it was sent once the last pieces have come, not after ten seconds without a piece.
        func recordings() -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasPrefix("live-") && $0.hasSuffix(".mp4") })
        }
        let before = recordings()
        try browser.click("#live-record")
        try browser.wait("recording again", for: "return document.getElementById('live-record').getAttribute('aria-pressed') === 'true'")
        Thread.sleep(forTimeInterval: 2.5)
        try browser.open("about:blank")
        for _ in 0..<100 where recordings().subtracting(before).isEmpty { Thread.sleep(forTimeInterval: 0.2) }
        let left = try #require(recordings().subtracting(before).first, "a recording made when the page went: \(server.log)")
        #expect(server.log.contains { $0.contains(left) && $0.contains("its page went away") }, "\(server.log)")
        let kept = Double(try TestClips.ffprobe(["-show_entries", "format=duration", "-of", "csv=p=0", out + "/" + left])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        // (2.2-2.3 s on a quiet machine; 0.7-1.4 with two other processes busy on both cores,
        // where the recorder starts late and its last piece goes with the page.)
        #expect(kept > 0.5, "what was recorded before the page went, about 2.5 s: \(kept) s")
    }

    func number(_ value: Any) -> Double { (value as? Double) ?? Double((value as? Int) ?? -1) }
}
