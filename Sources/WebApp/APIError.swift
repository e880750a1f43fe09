import Foundation
import HTTPTypes
import Hummingbird
import FFmpeg
import SketchEase

/// An answer the page shows as one line: `{"error": "…"}` with a 4xx or 5xx status.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String

    init(status: HTTPResponse.Status, message: String) {
        self.status = status; self.message = message
    }

    init(status: Int, message: String) {
        self.init(status: HTTPResponse.Status(code: status), message: message)
    }

    /// Any error from the model as the page should see it: edits that do not fit, unknown
    /// styles and bad parameters are the request's fault (4xx); a photo that cannot be read
    /// is 422; anything else is the server's (500).
    init(_ error: any Error) {
        switch error {
        case let error as APIError: self = error
        case let error as FolderAccess.Refusal: self.init(status: error.status, message: error.reason)
        case let error as PhotoLibrary.UploadRefusal: self.init(status: error.status, message: error.description)
        case let error as EditError: self.init(status: .conflict, message: error.description)
        case let error as FilterError: self.init(status: .badRequest, message: error.description)
        case let error as PhotoError: self.init(status: .unprocessableContent, message: error.description)
        case let error as SessionError: self.init(status: .conflict, message: error.description)
        case let error as MediaError: self.init(status: .unprocessableContent, message: error.description)
        case let error as EditingRefusal: self.init(status: .conflict, message: error.description)
        case is DecodingError: self.init(status: .badRequest, message: "malformed request")
        default: self.init(status: .internalServerError, message: "\(error)")
        }
    }

    func response() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = response()
        RequestGuard<BasicRequestContext>.secure(&response.headers)
        return response
    }
}
