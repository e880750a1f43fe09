import Foundation

/// A program running in a real terminal (a detached tmux session), driven as a person would:
/// keys sent with `send`, the screen read with `screen()`.
public final class TerminalSession {
    public let name: String

    /// Starts `command` (run by /bin/sh) in a `columns`×`rows` terminal with `environment`
    /// added to a clean one (PATH, HOME, TERM=xterm-256color).
    public init(_ command: String, columns: Int = 100, rows: Int = 40, environment: [String: String] = [:],
                in directory: String? = nil) throws {
        name = "sketchease-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TERM": "xterm-256color",
                   "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/tmp", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        let assignments = env.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        var arguments = ["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)"]
        if let directory { arguments += ["-c", directory] }
        arguments.append("env -i \(assignments) \(command)")
        try Self.tmux(arguments)
    }

    deinit { _ = try? Self.tmux(["kill-session", "-t", name]) }

    /// Sends keys: plain text is typed, tmux key names ("Enter", "Tab", "Up", "C-c") are pressed.
    public func send(_ keys: String...) throws {
        for key in keys { try Self.tmux(["send-keys", "-t", name, key]) }
    }

    /// Types `text` literally (no key names).
    public func type(_ text: String) throws { try Self.tmux(["send-keys", "-t", name, "-l", text]) }

    /// What the terminal shows now.
    public func screen() throws -> String { try Self.tmux(["capture-pane", "-p", "-t", name]) }

    /// Waits until the screen shows `text` (or `timeout` seconds pass); returns the screen.
    @discardableResult
    public func wait(for text: String, timeout: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var shown = try screen()
        while !shown.contains(text), Date() < deadline {
            usleep(100_000)
            shown = try screen()
        }
        return shown
    }

    /// Whether tmux can be run here.
    public static var available: Bool { (try? tmux(["-V"])) != nil }

    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String {
        // tmux wants a TERM even for a detached session; CI may have none.
        var environment = ProcessInfo.processInfo.environment
        if environment["TERM"] == nil { environment["TERM"] = "xterm-256color" }
        let child = try ChildProcess("/usr/bin/tmux", arguments, environment: environment, error: .null)
        let (status, data, _) = child.outputs(timeout: 30)
        guard status == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }

    static func quoted(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
