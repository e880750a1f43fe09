import Dispatch
import Foundation
import SketchEase
import Synchronization

/// A one-line progress bar on stderr, drawn only when stderr is a terminal: the bar, the count,
/// elapsed time, rate and time left, and the item last finished, fitted to the terminal's width
/// (and redrawn when the window is resized). Safe to update from any thread: its state is
/// behind a lock, and a dispatch source (the resize signal) is itself thread-safe.
final class ProgressBar: @unchecked Sendable {
    let total: Int
    let enabled: Bool
    /// What is counted, singular ("photo"), for the rate and the summary.
    let unit: String
    private let start = DispatchTime.now()
    private let state = Mutex<(done: Int, label: String)>((0, ""))
    private let resize: DispatchSourceSignal?

    init(total: Int, unit: String = "photo", enabled: Bool = Terminal.stderrIsTTY) {
        self.total = total; self.unit = unit; self.enabled = enabled && total > 0
        guard self.enabled else { resize = nil; return }
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resize = source
        source.setEventHandler { [weak self] in self?.redraw() }
        source.resume()
    }

    deinit { resize?.cancel() }

    /// Seconds since the bar was made.
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }

    func update(done: Int, label: String) {
        state.withLock { $0 = (done, label) }
        redraw()
    }

    /// Clears the bar so the next message starts on a clean line.
    func clear() {
        guard enabled else { return }
        state.withLock { _ in FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    /// "24 photos in 10.5 s (2.3 photos/s)".
    func summary(done: Int) -> String {
        let seconds = elapsed
        let count = "\(done) \(Self.plural(unit, done))"
        guard done > 0, seconds > 0 else { return "\(count) in \(Self.duration(seconds))" }
        return "\(count) in \(Self.duration(seconds)) (\(Self.rate(Double(done) / seconds)) \(Self.plural(unit, 2))/s)"
    }

    private func redraw() {
        guard enabled else { return }
        state.withLock { current in
            let line = Self.line(done: current.done, total: total, label: current.label, elapsed: elapsed,
                                 unit: unit, width: LineEditor.terminalWidth(STDERR_FILENO))
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
        }
    }

    /// The bar's text for a terminal `width` columns wide: parts are dropped from the least
    /// useful (the label, then the rate) until it fits in `width - 1` columns, so it never wraps.
    static func line(done: Int, total: Int, label: String, elapsed: Double, unit: String, width: Int) -> String {
        let count = "\(done)/\(total)"
        var parts = [duration(elapsed)]
        if done > 0, elapsed > 0 {
            let perSecond = Double(done) / elapsed
            parts.append("\(rate(perSecond))/s")
            if done < total { parts.append(duration(Double(total - done) / perSecond) + " left") }
        }
        let room = max(10, width - 1)
        func assemble(_ barWidth: Int, _ parts: [String], _ label: String) -> String {
            let filled = barWidth * min(done, total) / max(total, 1)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
            return ([bar, count] + parts + (label.isEmpty ? [] : [label])).joined(separator: " ")
        }
        var shown = parts
        var name = label
        var barWidth = 28
        while true {
            let text = assemble(barWidth, shown, name)
            let used = LineEditor.width(of: text)
            if used <= room { return text }
            if barWidth > 10 { barWidth = max(10, barWidth - (used - room)); continue }
            if !name.isEmpty {
                // Keep the end of the name (the file name), as much as fits.
                let over = used - room
                let keep = name.count - over - 1
                name = keep >= 8 ? "…" + name.suffix(keep) : ""
                continue
            }
            if shown.count > 1 { shown.remove(at: 1); continue }   // the rate goes before the time left
            return String(assemble(barWidth, [], "").prefix(room))
        }
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        if seconds < 60 { return Rounding.text(seconds, places: 1) + " s" }
        let s = Int(seconds.rounded())
        return s < 3600 ? String(format: "%d:%02d", s / 60, s % 60) : String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }

    static func rate(_ perSecond: Double) -> String {
        Rounding.text(perSecond, places: perSecond < 10 ? 1 : 0)
    }

    static func plural(_ unit: String, _ count: Int) -> String { count == 1 ? unit : unit + "s" }
}
