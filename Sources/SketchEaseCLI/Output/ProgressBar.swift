import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
struct ProgressBar: Sendable {
    let total: Int
    let enabled: Bool

    init(total: Int, enabled: Bool = Terminal.stderrIsTTY) {
        self.total = total; self.enabled = enabled && total > 0
    }

    func update(done: Int, label: String) {
        guard enabled else { return }
        let width = 28
        let filled = width * done / max(total, 1)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let name = label.count > 40 ? "…" + label.suffix(39) : label
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(bar) \(done)/\(total) \(name)".utf8))
    }

    /// Clears the bar so the next message starts on a clean line.
    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
