import Hummingbird

/// Every route's errors as the page's one-line answer (`APIError`): the one place that turns
/// what the model throws into a status and a message. Refusals of names (outside the folders,
/// traversal) also get one line in the log, as do the server's own failures. Hummingbird's own
/// answers (no such route, no such file) pass as they are.
struct ErrorAnswers<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            throw error
        } catch {
            let api = APIError(error)
            let route = "\(request.method) \(request.uri.path)"
            if error is FolderAccess.Refusal, api.status.code == 403 { log("refused \(route): \(api.message)") }
            if api.status.code >= 500 { log("error in \(route): \(api.message)") }
            return api.response()
        }
    }
}
