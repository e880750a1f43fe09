import Foundation
import HTTPTypes
import Hummingbird

/// What every request must pass before it reaches a route, as for any local server:
///
/// - the Host header names this server by an IP address, `localhost` or the `--host` name, at
///   its port (a page on another site that rebinds its own name to 127.0.0.1 is refused);
/// - no cross-origin requests: an `Origin` other than the server's own is refused, and
///   preflight (`OPTIONS`) is never answered, so no other page can read or change anything;
/// - the run's token, from the URL (`?token=`), the cookie the first page load sets, or, for
///   every request that changes something, the `X-SketchEase-Token` header the page sends
///   (a header other sites' forms and images cannot send).
///
/// A refusal is a 4xx with a one-line reason and one line in the server's log.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    let port: Int
    /// Host names allowed besides IP literals and `localhost` (the `--host` name).
    let hostNames: Set<String>
    let log: @Sendable (String) -> Void

    static var tokenHeader: HTTPField.Name { HTTPField.Name("X-SketchEase-Token")! }
    var cookieName: String { "sketchease-\(port)" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = check(request) {
            log("refused \(request.method) \(request.uri.path): \(refusal.reason)")
            return APIError(status: refusal.status, message: refusal.reason).response()
        }
        var response = try await next(request, context)
        Self.secure(&response.headers)
        return response
    }

    struct Refusal { var status: HTTPResponse.Status; var reason: String }

    func check(_ request: Request) -> Refusal? {
        guard let authority = request.head.authority, allows(authority: authority) else {
            return Refusal(status: .misdirectedRequest, reason: "unexpected Host header '\(request.head.authority ?? "")'")
        }
        if let origin = request.headers[.origin], origin != "http://" + authority {
            return Refusal(status: .forbidden, reason: "cross-origin request from \(origin)")
        }
        if request.method == .options {
            return Refusal(status: .methodNotAllowed, reason: "cross-origin requests are not served")
        }
        let changes = request.method != .get && request.method != .head
        let presented: String?
        if changes {
            presented = request.headers[Self.tokenHeader]
        } else {
            presented = request.uri.queryParameters["token"].map(String.init) ?? cookie(request)
        }
        guard let presented else { return Refusal(status: .unauthorized, reason: "missing token (open the URL `serve` printed)") }
        guard Self.constantTimeEqual(presented, token) else { return Refusal(status: .unauthorized, reason: "wrong token") }
        return nil
    }

    /// `host:port` naming this server: an IPv4 or IPv6 literal, `localhost` or an allowed name.
    func allows(authority: String) -> Bool {
        let host: Substring, portText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            guard rest.hasPrefix(":") else { return false }
            portText = rest.dropFirst()
        } else {
            guard let colon = authority.lastIndex(of: ":") else { return false }
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard Int(portText) == port else { return false }
        let name = host.lowercased()
        return name == "localhost" || hostNames.contains(name) || Self.isIPLiteral(name)
    }

    static func isIPLiteral(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    private func cookie(_ request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == cookieName { return String(parts[1]) }
            }
        }
        return nil
    }

    /// The cookie the first page load sets, so the page's images, scripts and styles carry the
    /// token without it in their URLs.
    func cookieHeader() -> String { "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Headers on every answer: the page runs only its own scripts, is never framed, sends
    /// no referrer (the URL holds the token) and nothing is cached.
    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; "
            + "script-src 'self'; style-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'none'; frame-ancestors 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        headers[HTTPField.Name("Permissions-Policy")!] = "camera=(self), microphone=(self)"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }
}
