import Foundation

/// The lines typed at the `edit` prompt, kept between runs in
/// `$XDG_STATE_HOME/sketchease/prompt-history` (`~/.local/state/...` by default), like a shell's.
enum PromptHistory {
    static var path: String? {
        let env = ProcessInfo.processInfo.environment
        if let state = env["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/sketchease/prompt-history" }
        guard let home = env["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/sketchease/prompt-history"
    }

    static func load() -> [String] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Best effort: a history that cannot be written is not worth a message.
    static func save(_ lines: [String]) {
        guard let path else { return }
        try? FileManager.default.createDirectory(atPath: path.parentPath,
                                                 withIntermediateDirectories: true)
        try? (lines.suffix(500).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
