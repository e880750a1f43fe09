import Foundation
import TestSupport

/// `sketchease serve …` running in the background for a test: its address, token and log.
final class ServerProcess: @unchecked Sendable {
    let process: ChildProcess
    let url: String
    let port: Int
    let token: String
    private let stderrLines = Locked<[String]>([])
    private let stdoutText = Locked<String>("")
    /// Signalled when each pipe reaches its end. Each pipe is read by a thread of its own with
    /// plain blocking reads, not a readability handler: those are libdispatch sources on the
    /// descriptors, and libdispatch crashed in its event loop (twice in CI, while a test stopped
    /// its server) when a watched descriptor was closed and its number reused by another
    /// test's pipe.
    private let outputsEnded = DispatchSemaphore(value: 0)

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Starts the server on any free port and waits until it prints its address.
    init(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws {
        var env = ProcessInfo.processInfo.environment
        env["SKETCHEASE_MODEL"] = TestAssets.model
        for (k, v) in environment { env[k] = v }
        process = try ChildProcess(CLIRunner.executable, ["serve"] + arguments + (arguments.contains("--port") ? [] : ["--port", "0"]),
                                   environment: env, directory: directory)
        let ready = DispatchSemaphore(value: 0)
        let found = Locked<String?>(nil)
        let outText = stdoutText, errLines = stderrLines, ended = outputsEnded
        Self.read(process.standardOutput!, ended: ended) { data in
            let text = outText.withLock { $0 += String(decoding: data, as: UTF8.self); return $0 }
            if let line = text.split(separator: "\n").first(where: { $0.contains("ready: ") }), found.withLock({ $0 == nil }) {
                found.withLock { $0 = String(line.split(separator: " ").last!) }
                ready.signal()
            }
        } atEnd: { ready.signal() }
        Self.read(process.standardError!, ended: ended) { data in
            errLines.withLock { $0 += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init) }
        } atEnd: {}
        _ = ready.wait(timeout: .now() + 120)
        guard let url = found.withLock({ $0 }), let components = URLComponents(string: url), let port = components.port,
              let token = components.queryItems?.first(where: { $0.name == "token" })?.value else {
            process.signal(SIGKILL)
            process.wait(timeout: 30)
            for _ in 0..<2 { _ = ended.wait(timeout: .now() + 5) }
            throw Failure(description: "serve did not start: \(stdoutText.withLock { $0 }) \(stderrLines.withLock { $0 })")
        }
        self.url = url; self.port = port; self.token = token
    }

    var log: [String] { stderrLines.withLock { $0 } }
    var output: String { stdoutText.withLock { $0 } }

    /// Waits briefly for the log to reach `count` lines (it is read as it arrives).
    func log(atLeast count: Int) -> [String] {
        for _ in 0..<50 where log.count < count { Thread.sleep(forTimeInterval: 0.05) }
        return log
    }

    func stop() {
        if process.isRunning {
            process.signal(SIGINT)
            for _ in 0..<100 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            process.signal(SIGKILL)
            process.wait(timeout: 30)
        }
        stopReading()
    }

    /// Waits (briefly) for both pipes to end, so their readers are done before the handles
    /// can close.
    private var stoppedReading = false
    private func stopReading() {
        guard !stoppedReading else { return }
        stoppedReading = true
        for _ in 0..<2 { _ = outputsEnded.wait(timeout: .now() + 5) }
    }

    /// Reads `handle` on a thread of its own until its end, giving each piece to `take`; then
    /// calls `atEnd` and signals `ended`.
    private static func read(_ handle: FileHandle, ended: DispatchSemaphore, _ take: @escaping @Sendable (Data) -> Void,
                             atEnd: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                take(data)
            }
            atEnd()
            ended.signal()
        }
    }

    deinit { stop() }

    // MARK: - Requests with the token

    func get(_ path: String, host: String = "127.0.0.1", headers: [String: String] = [:]) throws -> RawHTTP.Response {
        let separator = path.contains("?") ? "&" : "?"
        return try RawHTTP.request(host: host, port: port, path: path + separator + "token=" + token, headers: headers)
    }

    func post(_ path: String, json: Any, headers: [String: String] = [:]) throws -> RawHTTP.Response {
        var all = headers
        all["X-SketchEase-Token"] = token
        all["Content-Type"] = "application/json"
        return try RawHTTP.request("POST", port: port, path: path, headers: all,
                                   body: try JSONSerialization.data(withJSONObject: json))
    }

    func upload(_ data: Data, name: String) throws -> RawHTTP.Response {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        return try RawHTTP.request("POST", port: port, path: "/api/upload?name=\(encoded)",
                                   headers: ["X-SketchEase-Token": token, "Content-Type": "application/octet-stream"], body: data)
    }

    /// A JSON answer as a dictionary.
    static func object(_ response: RawHTTP.Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
    }
}
