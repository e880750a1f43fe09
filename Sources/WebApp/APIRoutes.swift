import Foundation
import HTTPTypes
import Hummingbird
import SketchEase

/// The page and its JSON API. Every route works through the model (`EditingSession`,
/// `FilteredImage`, `EditHistory`, `FilterRegistry`): no editing logic lives here.
struct APIRoutes: Sendable {
    let settings: ServeSettings
    let library: PhotoLibrary
    let workspaces: Workspaces
    let site: SiteFiles
    let guardian: RequestGuard<BasicRequestContext>
    let registry = FilterRegistry.standard
    let log: @Sendable (String) -> Void

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try page(request) }
        router.get("/app/:file") { _, context in try asset(context.parameters.require("file")) }

        router.get("/api/library") { request, _ in try await answer(request) { try json(libraryListing()) } }
        router.get("/api/thumbnail") { request, _ in
            try await answer(request) {
                let entry = try photo(request)
                return jpeg(try await Background.run { try library.thumbnail(entry) })
            }
        }
        router.post("/api/open") { request, _ in
            try await answer(request) {
                let body = try await decode(OpenRequest.self, request)
                let side = body.side.map { min(max($0, Workspaces.displaySides.lowerBound), Workspaces.displaySides.upperBound) }
                let workspace = try await workspaces.workspace(for: try library.entry(body.photo), displaySide: side)
                return try json(try await Background.run { try workspace.snapshot() })
            }
        }
        router.get("/api/preview") { request, _ in
            try await answer(request) { jpeg(try await work(request) { try $0.preview() }) }
        }
        router.post("/api/preview") { request, _ in
            try await answer(request) {
                let body = try await decode(TrialRequest.self, request)
                return jpeg(try await work(body.photo) { workspace in
                    try Self.checkFiles(in: body.edit, workspace)
                    return try workspace.preview(trial: body.edit, onRevision: body.revision)
                })
            }
        }
        router.get("/api/original") { request, _ in
            try await answer(request) { jpeg(try await work(request) { try $0.original() }) }
        }
        router.get("/api/sample") { request, _ in
            try await answer(request) {
                let query = request.uri.queryParameters
                guard let face = query["face"].flatMap({ Int($0) }), let text = query["style"] else {
                    throw APIError(status: .badRequest, message: "expected ?face=N&style={…}")
                }
                let style = try JSONDecoder().decode(FaceStyle.self, from: Data(text.utf8))
                let side = min(max(query["side"].flatMap { Int($0) } ?? 160, 48), 512)
                return jpeg(try await work(request) { workspace in
                    try Self.checkFiles(in: style, workspace)
                    return try workspace.sample(face: face, style: style, side: side)
                })
            }
        }
        router.post("/api/edit") { request, _ in
            try await answer(request) {
                let body = try await decode(EditRequest.self, request)
                if case .redetect = body.edit { throw APIError(status: .badRequest, message: "use /api/detect to find faces again") }
                if case .add = body.edit { throw APIError(status: .badRequest, message: "use /api/add to draw a box") }
                return try json(try await work(body.photo) { workspace in
                    try Self.checkFiles(in: body.edit, workspace)
                    return try workspace.perform(body.edit)
                })
            }
        }
        router.post("/api/add") { request, _ in
            try await answer(request) {
                let body = try await decode(AddRequest.self, request)
                let box = FaceBox(x: body.box[safe: 0], y: body.box[safe: 1], width: body.box[safe: 2], height: body.box[safe: 3])
                return try json(try await work(body.photo) { workspace in
                    if let style = body.style { try Self.checkFiles(in: style, workspace) }
                    return try workspace.addFace(box: box, style: body.style)
                })
            }
        }
        router.post("/api/undo") { request, _ in
            try await answer(request) {
                let body = try await decode(PhotoRequest.self, request)
                return try json(try await work(body.photo) { try $0.undo() })
            }
        }
        router.post("/api/redo") { request, _ in
            try await answer(request) {
                let body = try await decode(PhotoRequest.self, request)
                return try json(try await work(body.photo) { try $0.redo() })
            }
        }
        router.post("/api/detect") { request, _ in
            try await answer(request) {
                let body = try await decode(DetectRequest.self, request)
                guard body.threshold.isFinite, (0...1).contains(body.threshold) else {
                    throw APIError(status: .badRequest, message: "the threshold must be between 0 and 1")
                }
                return try json(try await work(body.photo) { try $0.redetect(threshold: body.threshold) })
            }
        }
        router.post("/api/export") { request, _ in
            try await answer(request) {
                let body = try await decode(PhotoRequest.self, request)
                let state = try await work(body.photo) { try $0.export() }
                log("exported \(state.output)")
                return try json(state)
            }
        }
        router.get("/api/download") { request, _ in
            try await answer(request) {
                let workspace = try await workspaces.workspace(for: try photo(request))
                guard let (path, data) = workspace.exported() else {
                    throw APIError(status: .notFound, message: "not exported yet")
                }
                var headers = HTTPFields()
                headers[.contentType] = Self.mediaType(ofExport: path)
                let name = (path as NSString).lastPathComponent.replacingOccurrences(of: "\"", with: "")
                headers[.contentDisposition] = "attachment; filename=\"\(name)\""
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
        }
        router.post("/api/upload") { request, _ in
            try await answer(request) { try json(try await upload(request)) }
        }
    }

    /// The media type of an exported picture, from its file's extension (`--format`).
    static func mediaType(ofExport path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        default: "image/png"
        }
    }

    // MARK: - Requests

    struct PhotoRequest: Decodable { var photo: String }
    struct OpenRequest: Decodable { var photo: String; var side: Int? }
    struct EditRequest: Decodable { var photo: String; var edit: Edit }
    struct TrialRequest: Decodable { var photo: String; var edit: Edit; var revision: Int? }
    struct AddRequest: Decodable { var photo: String; var box: [Double]; var style: FaceStyle? }
    struct DetectRequest: Decodable { var photo: String; var threshold: Double }

    /// A JSON request body; a malformed one is a 400 saying what is wrong with it. Errors the
    /// model raises while decoding (an unknown style, a parameter out of range) pass as they are.
    func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        var request = request
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: 1_000_000) } catch {
            throw APIError(status: .contentTooLarge, message: "request too large")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch DecodingError.dataCorrupted(let context) {
            // The model's own words: "unknown filter 'crayon' (available: …)".
            throw APIError(status: .badRequest, message: context.debugDescription)
        } catch let error as DecodingError {
            throw APIError(status: .badRequest, message: "malformed request (\(Self.describe(error)))")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "\(error)"
        }
    }

    /// The photo named by `?photo=`, checked by `FolderAccess`.
    private func photo(_ request: Request) throws -> PhotoLibrary.Entry {
        guard let id = request.uri.queryParameters["photo"] else {
            throw APIError(status: .badRequest, message: "expected ?photo=…")
        }
        return try library.entry(String(id))
    }

    private func work<T: Sendable>(_ request: Request, _ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        let workspace = try await workspaces.workspace(for: try photo(request))
        return try await Background.run { try body(workspace) }
    }

    private func work<T: Sendable>(_ id: String, _ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        let workspace = try await workspaces.workspace(for: try library.entry(id))
        return try await Background.run { try body(workspace) }
    }

    /// Styles from the page may not name new files: a `path` parameter (chroma's picture) could
    /// read any file on the machine. A file a face's style already names (set at the `edit`
    /// prompt) may be sent back unchanged, so its other parameters can still be changed here.
    static func checkFiles(in edit: Edit, _ workspace: Workspace) throws {
        switch edit {
        case .setStyle(_, let style), .add(_, _, let style?): try checkFiles(in: style, workspace)
        default: break
        }
    }

    static func checkFiles(in style: FaceStyle, _ workspace: Workspace) throws {
        let known = workspace.namedFiles()
        for (parameter, file) in Workspace.files(namedBy: style) where !known.contains(file) {
            throw APIError(status: .forbidden, message: "'\(parameter)' names a file: set it with `sketchease edit`, not in the browser")
        }
    }

    private func upload(_ request: Request) async throws -> PhotoSummary {
        let name = request.uri.queryParameters["name"].map(String.init) ?? "upload"
        let limit = settings.uploadLimit
        let tooLarge = APIError(status: .contentTooLarge,
                                message: "\(PhotoLibrary.safeName(name)): too large to upload (limit \(limit / 1_000_000) MB; see --max-upload)")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: limit) } catch { throw tooLarge }
        let bytes = Array(buffer.readableBytesView)
        let entry = try await Background.run { try library.upload(named: name, bytes: bytes) }
        log("uploaded \(entry.file.path)")
        return summary(entry)
    }

    // MARK: - Answers

    struct Listing: Encodable {
        var photos: [PhotoSummary]
        var problems: [String]
        var filters: [FilterDescription]
        var defaultStyle: FaceStyle
        var output: String
        var uploads: String
        var uploadLimit: Int
        var pixelLimit: Int
        /// Opened with `serve --live`: the page starts in Live.
        var live: Bool
    }

    private func libraryListing() -> Listing {
        let (entries, problems) = library.refresh()
        // A clip that cannot be read is named in the list with its reason, as a bad photo is.
        var clipProblems: [String] = []
        for entry in entries where entry.isClip {
            do { _ = try library.clipInfo(entry) } catch { clipProblems.append(APIError(error).message) }
        }
        return Listing(photos: entries.map(summary), problems: problems.map(\.description) + clipProblems,
                       filters: registry.filters.map(FilterDescription.init), defaultStyle: settings.defaultStyle,
                       output: settings.outputFolder, uploads: settings.uploadFolder,
                       uploadLimit: settings.uploadLimit, pixelLimit: settings.pixelLimit, live: settings.live)
    }

    private func summary(_ entry: PhotoLibrary.Entry) -> PhotoSummary {
        let name = entry.isClip ? entry.file.outputStem + ".mp4" : entry.file.outputName(settings.export.format)
        let export = (settings.outputFolder as NSString).appendingPathComponent(name)
        let folder = entry.id.parentPath
        var summary = PhotoSummary(id: entry.id, name: (entry.id as NSString).lastPathComponent, folder: folder,
                                   edited: FileManager.default.fileExists(atPath: SessionFile.path(forExport: export)))
        if entry.isClip {
            summary.kind = "clip"
            if let info = try? library.clipInfo(entry).summary {
                summary.duration = info.duration; summary.width = info.width; summary.height = info.height; summary.frames = info.frames
            }
        }
        return summary
    }

    /// Runs a route; any error becomes the page's one-line answer. Refusals of names (outside
    /// the folders, traversal) also get one line in the log, as do the server's own failures.
    func answer(_ request: Request, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            let api = APIError(error)
            let route = "\(request.method) \(request.uri.path)"
            if error is FolderAccess.Refusal, api.status.code == 403 { log("refused \(route): \(api.message)") }
            if api.status.code >= 500 { log("error in \(route): \(api.message)") }
            return api.response()
        }
    }

    func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    func jpeg(_ bytes: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "image/jpeg"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The page, with the token for its requests; a first load by the printed URL also sets
    /// the cookie that carries the token for its scripts, styles and pictures.
    private func page(_ request: Request) throws -> Response {
        guard let file = site.files["index.html"] else { throw APIError(status: .internalServerError, message: "index.html missing") }
        let html = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "{{TOKEN}}", with: settings.token)
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        if request.uri.queryParameters["token"] != nil { headers[.setCookie] = guardian.cookieHeader() }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func asset(_ name: String) throws -> Response {
        guard name != "index.html", let file = site.files[name] else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
