import Foundation
import HTTPTypes
import Hummingbird
import SketchEase

/// The page (with the token for its requests) and its scripts, styles and icon.
struct SiteRoutes: Sendable {
    let api: API

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try page(request) }
        router.get("/app/:file") { _, context in try asset(context.parameters.require("file")) }
    }

    /// The page, with the token for its requests; a first load by the printed URL also sets
    /// the cookie that carries the token for its scripts, styles and pictures.
    private func page(_ request: Request) throws -> Response {
        guard let file = api.site.files["index.html"] else { throw APIError(status: .internalServerError, message: "index.html missing") }
        let html = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "{{TOKEN}}", with: api.settings.token)
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        if request.uri.queryParameters["token"] != nil { headers[.setCookie] = api.guardian.cookieHeader() }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func asset(_ name: String) throws -> Response {
        guard name != "index.html", let file = api.site.files[name] else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}

