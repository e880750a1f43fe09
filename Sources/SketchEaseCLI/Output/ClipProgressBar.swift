import Dispatch
import Foundation
import Synchronization
import Video

/// One line on stderr while a clip renders: a bar, frames, frames a second and the time left
/// (`██████░░░░ 412/1800 frames  28.4 fps  0:49 left  party.mp4`). Drawn only when stderr is
/// a terminal, at most five times a second.
final class ClipProgressBar: Sendable {
    let enabled: Bool
    private let lastDrawn = Mutex<UInt64>(0)

    init(enabled: Bool = Terminal.stderrIsTTY) { self.enabled = enabled }

    func update(_ p: ClipProgress, name: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard lastDrawn.withLock({ last in
            guard now - last > 200_000_000 else { return false }
            last = now
            return true
        }) else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + Self.line(p, name: name)).utf8))
    }

    static func line(_ p: ClipProgress, name: String) -> String {
        var parts: [String] = []
        if let expected = p.expectedFrames, expected > 0 {
            let width = 24
            let filled = min(width, width * p.frames / expected)
            parts.append(String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled))
            parts.append("\(p.frames)/\(max(expected, p.frames)) frames")
        } else {
            parts.append("\(p.frames) frames")
        }
        parts.append(String(format: "%.1f fps", p.framesPerSecond))
        if let expected = p.expectedFrames, p.framesPerSecond > 0, expected > p.frames {
            let left = Int(Double(expected - p.frames) / p.framesPerSecond)
            parts.append(String(format: "%d:%02d left", left / 60, left % 60))
        }
        parts.append(name.count > 40 ? "…" + name.suffix(39) : name)
        return parts.joined(separator: "  ")
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
