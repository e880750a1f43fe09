import Foundation
import TestSupport

/// Debian's chromium, headless, driven through chromedriver with the W3C WebDriver protocol
/// (JSON over HTTP): what a person does, done by a test.
final class WebDriver: @unchecked Sendable {
    let driver: ChildProcess
    let port: Int
    let session: String
    let downloads: String

    struct Failure: Error, CustomStringConvertible { var description: String }

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    /// A fresh browser `width`×`height` with a fake camera that needs no permission prompt
    /// (`arguments` adds to chromium's, e.g. `--use-file-for-fake-video-capture=F.y4m`).
    init(width: Int = 1400, height: Int = 900, downloads: String, arguments: [String] = []) throws {
        self.downloads = downloads
        port = try Self.freePort()
        // chromedriver and the browsers it starts share its process group: quit() ends them all.
        // Their profiles and scratch files go to a folder of the test process's own (TMPDIR):
        // killed at the end, they could not clean up /tmp after themselves.
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = try TestAssets.temporaryFolder("browser")
        driver = try ChildProcess("/usr/bin/chromedriver", ["--port=\(port)"], environment: environment,
                                  output: .null, error: .null)
        var up = false
        for _ in 0..<100 {
            if (try? RawHTTP.request(port: port, path: "/status", timeout: 2))?.status == 200 { up = true; break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        guard up else { driver.signal(SIGKILL); throw Failure(description: "chromedriver did not start") }
        let options: [String: Any] = [
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                     "--window-size=\(width),\(height)", "--force-device-scale-factor=1",
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"] + arguments,
            "prefs": ["download.default_directory": downloads, "download.prompt_for_download": false],
        ]
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]]
        let answer = try Self.call(port: port, "POST", "/session", capabilities)
        guard let value = answer as? [String: Any], let id = value["sessionId"] as? String else {
            driver.signal(SIGKILL)
            throw Failure(description: "no WebDriver session: \(answer)")
        }
        session = id
    }

    func quit() {
        _ = try? Self.call(port: port, "DELETE", "/session/\(session)", nil)
        driver.signal(SIGKILL)
        driver.wait(timeout: 30)
    }

    // MARK: - Commands

    @discardableResult
    func command(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any {
        try Self.call(port: port, method, "/session/\(session)\(path)", body ?? (method == "POST" ? [String: Any]() : nil))
    }

    func open(_ url: String) throws { try command("POST", "/url", ["url": url]) }

    @discardableResult
    func script(_ source: String, _ arguments: [Any] = []) throws -> Any {
        try command("POST", "/execute/sync", ["script": source, "args": arguments])
    }

    /// Runs `source` until it returns something truthy; fails after `timeout` seconds.
    @discardableResult
    func wait(_ what: String, for source: String, timeout: TimeInterval = 60) throws -> Any {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let value = try script(source)
            if let flag = value as? Bool { if flag { return flag } } else if !(value is NSNull) { return value }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "timed out waiting for \(what)")
    }

    func element(_ css: String) throws -> String {
        let found = try command("POST", "/element", ["using": "css selector", "value": css])
        guard let value = found as? [String: Any], let id = value.values.first as? String else { throw Failure(description: "no element \(css)") }
        return id
    }

    func click(_ css: String) throws { try command("POST", "/element/\(try element(css))/click") }

    /// The element's box in CSS pixels of the viewport, scrolled into view first (its panel
    /// scrolls on its own).
    func rect(_ css: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let found = try script("""
            const e = document.querySelector(arguments[0]); e.scrollIntoView({ block: 'center', inline: 'center' });
            const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height];
            """, [css]) as? [Any] ?? []
        let v = found.map { ($0 as? Double) ?? Double(($0 as? Int) ?? 0) }
        guard v.count == 4 else { throw Failure(description: "no element \(css)") }
        return (v[0], v[1], v[2], v[3])
    }

    /// A mouse drag from one viewport point to another, in `steps` moves, as a person would.
    func drag(from: (Double, Double), to: (Double, Double), steps: Int = 8, pauseMs: Int = 30) throws {
        var actions: [[String: Any]] = [
            ["type": "pointerMove", "duration": 0, "x": Int(from.0), "y": Int(from.1), "origin": "viewport"],
            ["type": "pointerDown", "button": 0],
        ]
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            actions.append(["type": "pointerMove", "duration": pauseMs, "origin": "viewport",
                            "x": Int(from.0 + (to.0 - from.0) * t), "y": Int(from.1 + (to.1 - from.1) * t)])
        }
        actions.append(["type": "pointerUp", "button": 0])
        try command("POST", "/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": actions]]])
        try command("DELETE", "/actions")
    }

    /// A file dropped on the page, as one dragged from the desktop: `name`, of media type
    /// `type`, holding `bytes`.
    func drop(_ name: String, type: String, bytes: Data) throws {
        try script("""
            const bytes = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));
            const data = new DataTransfer();
            data.items.add(new File([bytes], arguments[1], { type: arguments[2] }));
            window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
            """, [bytes.base64EncodedString(), name, type])
    }

    /// A mouse click at a viewport point, as a person would (not an element's centre).
    func tap(at point: (Double, Double)) throws {
        let actions: [[String: Any]] = [
            ["type": "pointerMove", "duration": 0, "x": Int(point.0), "y": Int(point.1), "origin": "viewport"],
            ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0],
        ]
        try command("POST", "/actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": actions]]])
        try command("DELETE", "/actions")
    }

    /// Presses keys: "\u{E009}" is Control, "\u{E008}" Shift, "\u{E004}" Tab (WebDriver's codes).
    func keys(_ chords: [[String]]) throws {
        var actions: [[String: Any]] = []
        for chord in chords {
            actions += chord.map { ["type": "keyDown", "value": $0] }
            actions += chord.reversed().map { ["type": "keyUp", "value": $0] }
        }
        try command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    static let control = "\u{E009}", shift = "\u{E008}", tab = "\u{E004}", enter = "\u{E007}", right = "\u{E014}"

    func screenshot(to path: String) throws {
        guard let text = try command("GET", "/screenshot") as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    func resize(width: Int, height: Int) throws {
        try command("POST", "/window/rect", ["width": width, "height": height])
    }

    // MARK: - Protocol

    static func call(port: Int, _ method: String, _ path: String, _ body: Any?) throws -> Any {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try RawHTTP.request(method, port: port, path: path,
                                           headers: data == nil ? [:] : ["Content-Type": "application/json; charset=utf-8"],
                                           body: data, timeout: 120)
        let json = try JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
        let value = (json as? [String: Any])?["value"] ?? NSNull()
        if response.status >= 400 { throw Failure(description: "WebDriver \(method) \(path): \(value)") }
        return value
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
