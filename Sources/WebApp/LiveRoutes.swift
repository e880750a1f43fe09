import Foundation
import HTTPTypes
import Hummingbird
import SketchEase

/// Live, under /api/live/: the page's camera frames in, each back with every face drawn in
/// its style (`LiveSession`); a face's style chosen by tapping it.
struct LiveRoutes: Sendable {
    let api: API
    let sessions: LiveSessions
    let recordings: LiveRecordings

    struct StyleRequest: Decodable { var session: String; var track: Int; var style: FaceStyle? }

    func register(on router: Router<BasicRequestContext>) {
        // Body: RGBA pixels; ?session=…&w=…&h=…&t=seconds. Answer: the styled frame (JPEG) with
        // its number and faces in headers, or 204 while the tracker still holds it.
        router.post("/api/live/frame") { request, _ in
            let query = request.uri.queryParameters
            let session = try sessions.session(query["session"].map(String.init) ?? "")
            guard let width = query["w"].flatMap({ Int($0) }), let height = query["h"].flatMap({ Int($0) }),
                  let time = query["t"].flatMap({ Double($0) }), time.isFinite else {
                throw APIError(status: .badRequest, message: "expected ?session=…&w=…&h=…&t=…")
            }
            guard width > 0, height > 0, width * height <= LiveSession.pixelLimit else {
                throw APIError(status: .contentTooLarge, message: "a live frame is at most \(LiveSession.pixelLimit) pixels (got \(width)×\(height))")
            }
            var request = request
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: width * height * 4) } catch {
                throw APIError(status: .contentTooLarge, message: "a \(width)×\(height) frame is \(width * height * 4) bytes of RGBA")
            }
            let pixels = Array(body.readableBytesView)
            // `c`: which camera the page is showing (it counts its switches).
            let camera = query["c"].flatMap { Int($0) } ?? 0
            guard let output = try await Background.run({ try session.take(rgba: pixels, width: width, height: height, time: time, camera: camera) }) else {
                return Response(status: .noContent)
            }
            var headers = HTTPFields()
            headers[.contentType] = "image/jpeg"
            headers[HTTPField.Name("X-SketchEase-Frame")!] = String(output.frame)
            let faces = try JSONEncoder().encode(output.faces)
            headers[HTTPField.Name("X-SketchEase-Faces")!] = String(decoding: faces, as: UTF8.self)
            headers[HTTPField.Name("X-SketchEase-Guidance")!] = String(decoding: try JSONEncoder().encode(output.guidance), as: UTF8.self)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: output.jpeg)))
        }
        router.post("/api/live/style") { request, _ in
            let body = try await api.decode(StyleRequest.self, request)
            if let style = body.style, let (parameter, _) = Workspace.files(namedBy: style).first {
                throw APIError(status: .forbidden, message: "'\(parameter)' names a file: not in the browser")
            }
            let session = try sessions.session(body.session)
            session.setStyle(body.style, forTrack: body.track)
            return try api.json(session.state)
        }
        // Green screen: {session, pick: [x, y] | null, photo: a served photo's or clip's id (behind) | null}.
        router.post("/api/live/green") { request, _ in
            struct Body: Decodable { var session: String; var pick: [Double]?; var photo: String? }
            let body = try await api.decode(Body.self, request)
            let session = try sessions.session(body.session)
            // The picture behind is named as the page names photos and clips: only a served one.
            let picture = try body.photo.map { try api.library.entry($0).file.path }
            let pick = try body.pick.map { p -> (x: Double, y: Double) in
                guard p.count == 2, p.allSatisfy(\.isFinite) else { throw APIError(status: .badRequest, message: "pick is [x, y] on the frame") }
                return (p[0], p[1])
            }
            try await Background.run { try session.setGreenScreen(pick: pick, picture: picture) }
            return try api.json(session.state)
        }
        // Take picture: the styled frame shown now, and its face report, in OUT/.
        router.post("/api/live/still") { request, _ in
            struct Body: Decodable { var session: String }
            let body = try await api.decode(Body.self, request)
            let session = try sessions.session(body.session)
            let still = try await Background.run { try session.takePicture(outputFolder: api.settings.outputFolder) }
            api.log("took \(still.output)")
            return try api.json(still)
        }
        // A recording in pieces: ?recording=ID&piece=N, body the piece; finished by
        // /api/live/record/finish {recording} (or when pieces stop coming, or the server stops).
        router.post("/api/live/record/piece") { request, _ in
            let query = request.uri.queryParameters
            let id = query["recording"].map(String.init) ?? ""
            guard let piece = query["piece"].flatMap({ Int($0) }), piece >= 0 else {
                throw APIError(status: .badRequest, message: "expected ?recording=…&piece=N")
            }
            var request = request
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: api.settings.uploadLimit) } catch {
                throw APIError(status: .contentTooLarge, message: "a piece of a recording is at most \(api.settings.uploadLimit / 1_000_000) MB")
            }
            let bytes = Array(body.readableBytesView)
            try await Background.run { try recordings.append(bytes, to: id, sequence: piece) }
            return try api.json(["pieces": piece + 1])
        }
        // {recording, leaving: true while the page goes away (finished once its last pieces came)}.
        router.post("/api/live/record/finish") { request, _ in
            struct Body: Decodable { var recording: String; var leaving: Bool? }
            let body = try await api.decode(Body.self, request)
            if body.leaving == true {
                try recordings.leave(body.recording)
                return try api.json(["finishing": true])
            }
            return try api.json(try await Background.run { try recordings.finish(body.recording) })
        }
        router.get("/api/live/download") { request, _ in
            let name = request.uri.queryParameters["name"].map(String.init) ?? ""
            guard LiveRecording.isRecordingName(name) else { throw APIError(status: .badRequest, message: "not a recording's name") }
            let path = (api.settings.outputFolder as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else { throw APIError(status: .notFound, message: "no recording \(name)") }
            var headers = HTTPFields()
            headers[.contentType] = name.hasSuffix(".png") ? "image/png" : "video/mp4"
            headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/api/live/state") { request, _ in
            try api.json(try sessions.session(request.uri.queryParameters["session"].map(String.init) ?? "").state)
        }
    }
}
