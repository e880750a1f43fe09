import Foundation
import HTTPTypes
import Hummingbird
import SketchEase

/// The photos and clips of the folder: the listing, thumbnails, uploads and the download of
/// an exported picture.
struct LibraryRoutes: Sendable {
    let api: API

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/library") { _, _ in try api.json(listing()) }
        router.get("/api/thumbnail") { request, _ in
            let entry = try api.photo(request)
            return api.jpeg(try await Background.run { try api.library.thumbnail(entry) })
        }
        router.post("/api/upload") { request, _ in
            try api.json(try await upload(request))
        }
        router.get("/api/download") { request, _ in
            let workspace = try await api.workspaces.workspace(for: try api.photo(request))
            guard let (path, data) = workspace.exported() else {
                throw APIError(status: .notFound, message: "not exported yet")
            }
            var headers = HTTPFields()
            headers[.contentType] = API.mediaType(ofExport: path)
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: "\"", with: "")
            headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

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

    private func listing() -> Listing {
        let (entries, problems) = api.library.refresh()
        // A clip that cannot be read is named in the list with its reason, as a bad photo is.
        var clipProblems: [String] = []
        for entry in entries where entry.isClip {
            do { _ = try api.library.clipInfo(entry) } catch { clipProblems.append(APIError(error).message) }
        }
        return Listing(photos: entries.map(api.summary), problems: problems.map(\.description) + clipProblems,
                       filters: api.registry.filters.map(FilterDescription.init), defaultStyle: api.settings.defaultStyle,
                       output: api.settings.outputFolder, uploads: api.settings.uploadFolder,
                       uploadLimit: api.settings.uploadLimit, pixelLimit: api.settings.pixelLimit, live: api.settings.live)
    }

    private func upload(_ request: Request) async throws -> PhotoSummary {
        let name = request.uri.queryParameters["name"].map(String.init) ?? "upload"
        let limit = api.settings.uploadLimit
        let tooLarge = APIError(status: .contentTooLarge,
                                message: "\(PhotoLibrary.safeName(name)): too large to upload (limit \(limit / 1_000_000) MB; see --max-upload)")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: limit) } catch { throw tooLarge }
        let bytes = Array(buffer.readableBytesView)
        let entry = try await Background.run { try api.library.upload(named: name, bytes: bytes) }
        api.log("uploaded \(entry.file.path)")
        return api.summary(entry)
    }
}
