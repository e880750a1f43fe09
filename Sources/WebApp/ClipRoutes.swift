import FFmpeg
import Foundation
import HTTPTypes
import Hummingbird
import SketchEase
import Video

/// The clip editor's JSON API, under /api/clip/: open a clip (its tracks; every frame's boxes apart),
/// a frame of the player with the faces styled, each track's picture and style samples, edits,
/// undo and redo, and the export with its progress, cancel and download. Every change goes
/// through the clip's `ClipEditingSession`, as at the `edit` prompt.
struct ClipRoutes: Sendable {
    let api: API
    let clips: ClipWorkspaces

    struct ClipRequest: Decodable { var clip: String }
    struct EditRequest: Decodable { var clip: String; var edit: Edit }
    struct AddRequest: Decodable { var clip: String; var frame: Int; var box: [Double]; var style: FaceStyle? }
    struct TrialRequest: Decodable { var clip: String; var frame: Int; var faces: [Int]; var style: FaceStyle? }

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/clip/open") { request, _ in
            let body = try await api.decode(ClipRequest.self, request)
            let entry = try api.library.entry(body.clip)
            do {
                let workspace = try await clips.workspace(for: entry)
                return try api.json(workspace.state())
            } catch let error as MediaError {
                // A clip that cannot be read: one line on the server too.
                api.log("cannot open \(error)")
                throw error
            }
        }
        // How far the pass over a clip being opened has got.
        router.get("/api/clip/progress") { request, _ in
            let id = try clipID(request)
            let now = clips.opening.table.withLock { $0[id] }
            struct Answer: Encodable { var frames: Int; var expected: Int? }
            return try api.json(Answer(frames: now?.frames ?? 0, expected: now?.expected))
        }
        // Every frame's boxes, asked for when the state's `boxesKey` changed.
        router.get("/api/clip/boxes") { request, _ in
            let workspace = try await opened(request)
            return try api.json(workspace.boxes())
        }
        router.get("/api/clip/frame") { request, _ in
            guard let n = request.uri.queryParameters["frame"].flatMap({ Int($0) }), n >= 0 else {
                throw APIError(status: .badRequest, message: "expected ?clip=…&frame=N")
            }
            let workspace = try await opened(request)
            return api.jpeg(try await Background.run { try workspace.picture(frame: n) })
        }
        // A frame with a style tried out on some tracks (a slider being moved): shown, not recorded.
        router.post("/api/clip/frame") { request, _ in
            let body = try await api.decode(TrialRequest.self, request)
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            if let style = body.style { try Self.checkFiles(in: style, workspace) }
            return api.jpeg(try await Background.run { try workspace.picture(frame: body.frame, trial: (body.faces, body.style)) })
        }
        // A track's clearest picture in its style: a tile of the tracks' sheet.
        router.get("/api/clip/track") { request, _ in
            let id = try track(request)
            let side = min(max(request.uri.queryParameters["side"].flatMap { Int($0) } ?? 240, 48), 720)
            let workspace = try await opened(request)
            return api.jpeg(try await Background.run { try workspace.trackPicture(id, side: side) })
        }
        // A track's picture in a given style, for the style picker.
        router.get("/api/clip/sample") { request, _ in
            let id = try track(request)
            guard let text = request.uri.queryParameters["style"] else { throw APIError(status: .badRequest, message: "expected &style={…}") }
            let style = try JSONDecoder().decode(FaceStyle.self, from: Data(text.utf8))
            let side = min(max(request.uri.queryParameters["side"].flatMap { Int($0) } ?? 160, 48), 512)
            let workspace = try await opened(request)
            try Self.checkFiles(in: style, workspace)
            return api.jpeg(try await Background.run { try workspace.trackPicture(id, style: .some(style), side: side) })
        }
        router.post("/api/clip/edit") { request, _ in
            let body = try await api.decode(EditRequest.self, request)
            if case .redetect = body.edit {
                throw APIError(status: .badRequest, message: "a clip's faces are followed once; to follow them with other settings, delete its session")
            }
            if case .add = body.edit { throw APIError(status: .badRequest, message: "use /api/clip/add to draw a box on a frame") }
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            if case .setStyle(_, let style) = body.edit { try Self.checkFiles(in: style, workspace) }
            return try api.json(try await Background.run { try workspace.perform(body.edit) })
        }
        router.post("/api/clip/add") { request, _ in
            let body = try await api.decode(AddRequest.self, request)
            let box = FaceBox(x: body.box[safe: 0], y: body.box[safe: 1], width: body.box[safe: 2], height: body.box[safe: 3])
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            if let style = body.style { try Self.checkFiles(in: style, workspace) }
            return try api.json(try await Background.run { try workspace.addFace(box: box, frame: body.frame, style: body.style) })
        }
        router.post("/api/clip/undo") { request, _ in
            let body = try await api.decode(ClipRequest.self, request)
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            return try api.json(try await Background.run { try workspace.undo() })
        }
        router.post("/api/clip/redo") { request, _ in
            let body = try await api.decode(ClipRequest.self, request)
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            return try api.json(try await Background.run { try workspace.redo() })
        }
        router.post("/api/clip/export") { request, _ in
            let body = try await api.decode(ClipRequest.self, request)
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            return try api.json(try workspace.startExport(log: api.log))
        }
        router.get("/api/clip/export") { request, _ in
            let workspace = try await opened(request)
            return try api.json(workspace.export.withLock { $0 })
        }
        router.post("/api/clip/cancel") { request, _ in
            let body = try await api.decode(ClipRequest.self, request)
            let workspace = try await clips.workspace(for: try api.library.entry(body.clip))
            return try api.json(workspace.cancelExport())
        }
        router.get("/api/clip/download") { request, _ in
            let workspace = try await opened(request)
            guard let path = workspace.exported() else { throw APIError(status: .notFound, message: "not exported yet") }
            let data = try await Background.run { try Data(contentsOf: URL(fileURLWithPath: path)) }
            var headers = HTTPFields()
            headers[.contentType] = "video/mp4"
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: "\"", with: "")
            headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    private func clipID(_ request: Request) throws -> String {
        guard let id = request.uri.queryParameters["clip"] else { throw APIError(status: .badRequest, message: "expected ?clip=…") }
        _ = try api.library.access.resolve(String(id))
        return String(id)
    }

    private func track(_ request: Request) throws -> Int {
        guard let id = request.uri.queryParameters["track"].flatMap({ Int($0) }) else {
            throw APIError(status: .badRequest, message: "expected &track=N")
        }
        return id
    }

    /// The clip `?clip=` names, opened if need be.
    private func opened(_ request: Request) async throws -> ClipWorkspace {
        try await clips.workspace(for: try api.library.entry(try clipID(request)))
    }

    /// As for photos: a style from the page may not name a new file.
    static func checkFiles(in style: FaceStyle, _ workspace: ClipWorkspace) throws {
        let known = workspace.namedFiles()
        for (parameter, file) in Workspace.files(namedBy: style) where !known.contains(file) {
            throw APIError(status: .forbidden, message: "'\(parameter)' names a file: set it with `sketchease edit`, not in the browser")
        }
    }
}

extension Array where Element == Double {
    /// The element, or NaN (which the model refuses as a box) when the array is too short.
    subscript(safe index: Int) -> Double { indices.contains(index) ? self[index] : .nan }
}
