import Foundation
import HTTPTypes
import Hummingbird
import SketchEase

/// What the web app's route collections share (`SiteRoutes`, `LibraryRoutes`, `EditingRoutes`,
/// `ClipRoutes`, `LiveRoutes`): the folder, the open photos, and how a request is read and
/// answered (a JSON body; a JSON or JPEG answer). Errors become answers in one place for all
/// of them: `ErrorAnswers`.
struct API: Sendable {
    let settings: ServeSettings
    let library: PhotoLibrary
    let workspaces: Workspaces
    let site: SiteFiles
    let guardian: RequestGuard<BasicRequestContext>
    let registry = FilterRegistry.standard
    let log: @Sendable (String) -> Void

    /// The media type of an exported picture, from its file's extension (`--format`).
    static func mediaType(ofExport path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        default: "image/png"
        }
    }

    // MARK: - Reading requests

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
    func photo(_ request: Request) throws -> PhotoLibrary.Entry {
        guard let id = request.uri.queryParameters["photo"] else {
            throw APIError(status: .badRequest, message: "expected ?photo=…")
        }
        return try library.entry(String(id))
    }

    func work<T: Sendable>(_ request: Request, _ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
        let workspace = try await workspaces.workspace(for: try photo(request))
        return try await Background.run { try body(workspace) }
    }

    func work<T: Sendable>(_ id: String, _ body: @escaping @Sendable (Workspace) throws -> T) async throws -> T {
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

    // MARK: - Answers

    func summary(_ entry: PhotoLibrary.Entry) -> PhotoSummary {
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
}
