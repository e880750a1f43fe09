import Foundation
import HTTPTypes
import Hummingbird
import SketchEase

/// Editing a photo: open it, previews and style samples, edits, undo and redo, finding faces
/// again and the export. Every route works through the photo's `Workspace` and the model
/// (`EditingSession`): no editing logic lives here.
struct EditingRoutes: Sendable {
    let api: API

    struct PhotoRequest: Decodable { var photo: String }
    struct OpenRequest: Decodable { var photo: String; var side: Int? }
    struct EditRequest: Decodable { var photo: String; var edit: Edit }
    struct TrialRequest: Decodable { var photo: String; var edit: Edit; var revision: Int? }
    struct AddRequest: Decodable { var photo: String; var box: [Double]; var style: FaceStyle? }
    struct DetectRequest: Decodable { var photo: String; var threshold: Double }

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/open") { request, _ in
            let body = try await api.decode(OpenRequest.self, request)
            let side = body.side.map { min(max($0, Workspaces.displaySides.lowerBound), Workspaces.displaySides.upperBound) }
            let workspace = try await api.workspaces.workspace(for: try api.library.entry(body.photo), displaySide: side)
            return try api.json(try await Background.run { try workspace.snapshot() })
        }
        router.get("/api/preview") { request, _ in
            api.jpeg(try await api.work(request) { try $0.preview() })
        }
        router.post("/api/preview") { request, _ in
            let body = try await api.decode(TrialRequest.self, request)
            return api.jpeg(try await api.work(body.photo) { workspace in
                try API.checkFiles(in: body.edit, workspace)
                return try workspace.preview(trial: body.edit, onRevision: body.revision)
            })
        }
        router.get("/api/original") { request, _ in
            api.jpeg(try await api.work(request) { try $0.original() })
        }
        router.get("/api/sample") { request, _ in
            let query = request.uri.queryParameters
            guard let face = query["face"].flatMap({ Int($0) }), let text = query["style"] else {
                throw APIError(status: .badRequest, message: "expected ?face=N&style={…}")
            }
            let style = try JSONDecoder().decode(FaceStyle.self, from: Data(text.utf8))
            let side = min(max(query["side"].flatMap { Int($0) } ?? 160, 48), 512)
            return api.jpeg(try await api.work(request) { workspace in
                try API.checkFiles(in: style, workspace)
                return try workspace.sample(face: face, style: style, side: side)
            })
        }
        router.post("/api/edit") { request, _ in
            let body = try await api.decode(EditRequest.self, request)
            if case .redetect = body.edit { throw APIError(status: .badRequest, message: "use /api/detect to find faces again") }
            if case .add = body.edit { throw APIError(status: .badRequest, message: "use /api/add to draw a box") }
            return try api.json(try await api.work(body.photo) { workspace in
                try API.checkFiles(in: body.edit, workspace)
                return try workspace.perform(body.edit)
            })
        }
        router.post("/api/add") { request, _ in
            let body = try await api.decode(AddRequest.self, request)
            let box = FaceBox(x: body.box[safe: 0], y: body.box[safe: 1], width: body.box[safe: 2], height: body.box[safe: 3])
            return try api.json(try await api.work(body.photo) { workspace in
                if let style = body.style { try API.checkFiles(in: style, workspace) }
                return try workspace.addFace(box: box, style: body.style)
            })
        }
        router.post("/api/undo") { request, _ in
            let body = try await api.decode(PhotoRequest.self, request)
            return try api.json(try await api.work(body.photo) { try $0.undo() })
        }
        router.post("/api/redo") { request, _ in
            let body = try await api.decode(PhotoRequest.self, request)
            return try api.json(try await api.work(body.photo) { try $0.redo() })
        }
        router.post("/api/detect") { request, _ in
            let body = try await api.decode(DetectRequest.self, request)
            guard body.threshold.isFinite, (0...1).contains(body.threshold) else {
                throw APIError(status: .badRequest, message: "the threshold must be between 0 and 1")
            }
            return try api.json(try await api.work(body.photo) { try $0.redetect(threshold: body.threshold) })
        }
        router.post("/api/export") { request, _ in
            let body = try await api.decode(PhotoRequest.self, request)
            let state = try await api.work(body.photo) { try $0.export() }
            api.log("exported \(state.editing.output)")
            return try api.json(state)
        }
    }
}
