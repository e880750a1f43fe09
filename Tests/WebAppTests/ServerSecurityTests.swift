import Foundation
import Testing
import TestSupport

/// `sketchease serve` as any local server must be: loopback only, a token on every request,
/// the Host header checked, no cross-origin access, nothing served or written outside its
/// folders. Each refusal is a 4xx and one line in the server's log.
@Suite struct ServerSecurityTests {
    /// A served folder with one photo, a hidden file, and links out of it (a photo and a folder
    /// outside), beside a secret photo that must never be served.
    static func folders() throws -> (served: String, outside: String, out: String) {
        let root = try TestAssets.temporaryFolder("security")
        let served = root + "/photos", outside = root + "/private", out = root + "/out"
        let fm = FileManager.default
        try fm.createDirectory(atPath: served, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: outside + "/more", withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: served + "/grace.jpg")
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: served + "/.hidden.jpg")
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: outside + "/secret.png")
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: outside + "/more/secret2.png")
        try fm.createSymbolicLink(atPath: served + "/link.png", withDestinationPath: outside + "/secret.png")
        try fm.createSymbolicLink(atPath: served + "/linked", withDestinationPath: outside + "/more")
        return (served, outside, out)
    }

    @Test func everyRequestNeedsTheRunsToken() throws {
        let (served, _, out) = try Self.folders()
        let server = try ServerProcess([served, "--out", out])
        defer { server.stop() }
        #expect(server.token.count == 32)
        let none = try RawHTTP.request(port: server.port, path: "/api/library")
        #expect(none.status == 401 && none.error?.contains("missing token") == true)
        let wrong = try RawHTTP.request(port: server.port, path: "/api/library?token=" + String(repeating: "0", count: 32))
        #expect(wrong.status == 401 && wrong.error == "wrong token")
        for path in ["/", "/app/app.js", "/api/thumbnail?photo=photos/grace.jpg"] {
            #expect(try RawHTTP.request(port: server.port, path: path).status == 401, "\(path)")
        }
        #expect(try server.get("/api/library").status == 200)

        // The page's first load sets the cookie its scripts and pictures then carry.
        let page = try server.get("/")
        let cookie = try #require(page.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(page.text.contains("content=\"\(server.token)\""))
        let pair = String(cookie.split(separator: ";")[0])
        #expect(try RawHTTP.request(port: server.port, path: "/app/app.js", headers: ["Cookie": pair]).status == 200)

        // A change needs the header: the cookie or the URL (which other sites could use) is not enough.
        let body = try JSONSerialization.data(withJSONObject: ["photo": "photos/grace.jpg"])
        let byCookie = try RawHTTP.request("POST", port: server.port, path: "/api/open?token=\(server.token)",
                                           headers: ["Cookie": pair, "Content-Type": "application/json"], body: body)
        #expect(byCookie.status == 401)
        #expect(try server.post("/api/open", json: ["photo": "photos/grace.jpg"]).status == 200)
        #expect(server.log(atLeast: 7).filter { $0.contains("refused") }.count == 6, "\(server.log)")
    }

    @Test func itListensOnLoopbackOnlyAndChecksTheHostHeader() throws {
        let (served, _, out) = try Self.folders()
        let server = try ServerProcess([served, "--out", out])
        defer { server.stop() }
        #expect(server.output.contains("listening on 127.0.0.1"))
        // Every socket listening on the port is a loopback one.
        let hex = String(format: "%04X", server.port)
        let tcp = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let tcp6 = (try? String(contentsOfFile: "/proc/net/tcp6", encoding: .utf8)) ?? ""
        var listening: [String] = []
        for line in (tcp + tcp6).split(separator: "\n") {
            let fields = line.split(separator: " ")
            // local address, remote address, state: 0A is LISTEN
            guard fields.count > 3, fields[1].hasSuffix(":" + hex), fields[3] == "0A" else { continue }
            listening.append(String(fields[1].split(separator: ":")[0]))
        }
        #expect(!listening.isEmpty)
        #expect(listening.allSatisfy { $0 == "0100007F" || $0 == "00000000000000000000000001000000" }, "\(listening)")
        if listening.contains("00000000000000000000000001000000") {
            #expect(try server.get("/api/library", host: "::1").status == 200)
        }

        // DNS rebinding: a page on evil.example whose name now points here sends its own name.
        for host in ["evil.example:\(server.port)", "localhost.evil.example:\(server.port)", "127.0.0.1", "127.0.0.1:1",
                     "[::1]", "sketchease:\(server.port)"] {
            let answer = try RawHTTP.request(port: server.port, path: "/api/library?token=\(server.token)", hostHeader: host)
            #expect(answer.status == 421, "\(host)")
        }
        for host in ["localhost:\(server.port)", "LOCALHOST:\(server.port)", "127.0.0.1:\(server.port)", "[::1]:\(server.port)"] {
            let answer = try RawHTTP.request(port: server.port, path: "/api/library?token=\(server.token)", hostHeader: host)
            #expect(answer.status == 200, "\(host)")
        }
        #expect(server.log(atLeast: 6).filter { $0.contains("unexpected Host header") }.count == 6)
    }

    @Test func noCrossOriginAccess() throws {
        let (served, _, out) = try Self.folders()
        let server = try ServerProcess([served, "--out", out])
        defer { server.stop() }
        let preflight = try RawHTTP.request("OPTIONS", port: server.port, path: "/api/edit",
                                            headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 403 || preflight.status == 405)
        #expect(preflight.header("Access-Control-Allow-Origin") == nil)
        let crossGet = try server.get("/api/library", headers: ["Origin": "http://evil.example"])
        #expect(crossGet.status == 403 && crossGet.header("Access-Control-Allow-Origin") == nil)
        let crossPost = try server.post("/api/open", json: ["photo": "photos/grace.jpg"], headers: ["Origin": "http://localhost:\(server.port + 1)"])
        #expect(crossPost.status == 403)
        let sameOrigin = try server.post("/api/open", json: ["photo": "photos/grace.jpg"], headers: ["Origin": "http://127.0.0.1:\(server.port)"])
        #expect(sameOrigin.status == 200)
        #expect(sameOrigin.header("Access-Control-Allow-Origin") == nil)
        #expect(sameOrigin.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
    }

    @Test func nothingOutsideTheServedFoldersIsServed() throws {
        let (served, outside, out) = try Self.folders()
        let server = try ServerProcess([served, "--out", out])
        defer { server.stop() }
        let listed = ServerProcess.object(try server.get("/api/library"))["photos"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["id"] as? String } == ["photos/grace.jpg"], "links out and hidden files are not listed")
        #expect(try server.get("/api/thumbnail?photo=photos/grace.jpg").status == 200)

        let refused: [(String, Int, String)] = [
            ("photos/../private/secret.png", 403, "path traversal"),
            ("photos/%2e%2e/private/secret.png", 403, "path traversal"),
            ("photos/..%2fprivate%2fsecret.png", 403, "path traversal"),
            ("/etc/passwd", 403, "absolute paths"),
            ("%2Fetc%2Fpasswd", 403, "absolute paths"),
            (outside + "/secret.png", 403, "absolute paths"),
            ("photos/link.png", 403, "outside the served folders"),
            ("photos/linked/secret2.png", 403, "outside the served folders"),
            ("photos/.hidden.jpg", 403, "hidden files"),
            ("private/secret.png", 404, "no served folder named 'private'"),
            ("photos/missing.jpg", 404, "no such photo"),
        ]
        for (name, status, reason) in refused {
            for path in ["/api/thumbnail?photo=\(name)", "/api/preview?photo=\(name)", "/api/download?photo=\(name)"] {
                let answer = try server.get(path)
                #expect(answer.status == status && answer.error?.contains(reason) == true, "\(path): \(answer.status) \(answer.text)")
            }
            let open = try server.post("/api/open", json: ["photo": name.removingPercentEncoding ?? name])
            #expect(open.status == status, "open \(name): \(open.text)")
        }
        // One log line for each refusal of a name outside the folders (not for a missing one).
        let forbidden = refused.filter { $0.1 == 403 }.count * 4
        let lines = server.log(atLeast: forbidden).filter { $0.contains("refused") }
        #expect(lines.count == forbidden, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: out + "/secret.png"))

        // The static files are a fixed list: no path reaches the disk there either.
        #expect(try server.get("/app/..%2f..%2fPackage.swift").status == 404)
        #expect(try server.get("/app/index.html").status == 404)

        // A style naming a file (chroma's picture) could read any file: refused from the browser.
        #expect(try server.post("/api/open", json: ["photo": "photos/grace.jpg"]).status == 200)
        let chroma: [String: Any] = ["kind": "style", "faces": [1], "style": ["filter": "chroma", "parameters": ["image": outside + "/secret.png"]]]
        let answer = try server.post("/api/edit", json: ["photo": "photos/grace.jpg", "edit": chroma])
        #expect(answer.status == 403 && answer.error?.contains("names a file") == true)
    }

    @Test func aSinglePhotoGivenServesOnlyThatPhoto() throws {
        let (served, _, out) = try Self.folders()
        try FileManager.default.copyItem(atPath: TestAssets.astronaut, toPath: served + "/other.png")
        let server = try ServerProcess([served + "/grace.jpg", "--out", out])
        defer { server.stop() }
        let listed = ServerProcess.object(try server.get("/api/library"))["photos"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["id"] as? String } == ["photos/grace.jpg"])
        #expect(try server.get("/api/thumbnail?photo=photos/grace.jpg").status == 200)
        #expect(try server.get("/api/thumbnail?photo=photos/other.png").status == 403)
    }

    @Test func hostWidensWhereItListensAndKeepsTheOtherChecks() throws {
        let (served, _, out) = try Self.folders()
        let server = try ServerProcess([served, "--out", out, "--host", "0.0.0.0"])
        defer { server.stop() }
        #expect(server.output.contains("listening on 0.0.0.0"))
        let byAddress = try RawHTTP.request(port: server.port, path: "/api/library?token=\(server.token)", hostHeader: "192.168.1.20:\(server.port)")
        #expect(byAddress.status == 200)
        let byName = try RawHTTP.request(port: server.port, path: "/api/library?token=\(server.token)", hostHeader: "evil.example:\(server.port)")
        #expect(byName.status == 421)
        #expect(try RawHTTP.request(port: server.port, path: "/api/library").status == 401)
    }
}
