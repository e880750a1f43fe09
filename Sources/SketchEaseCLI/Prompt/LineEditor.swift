import Foundation

/// Reads lines typed at a terminal, with editing and history: arrows, Home/End, Ctrl-A/E/B/F,
/// Ctrl-K/U/W, Alt-B/F or Ctrl-arrows by word, Up/Down and Ctrl-P/N through earlier lines, Tab
/// to complete. Ctrl-C gives `.interrupt` and Ctrl-D on an empty line `.end`.
///
/// From the first line read until `restore()` (or the process ends) the terminal is in raw mode
/// with output processing kept, so keys typed while a command is still running are neither
/// echoed nor lost: they appear at the next prompt. The line is drawn on one row and scrolls
/// sideways when it is longer than the terminal is wide.
final class LineEditor {
    enum Input: Equatable {
        case line(String)
        case interrupt
        case end
    }

    /// Given the text before the cursor, the words that could complete its last word.
    typealias Completer = (_ before: String) -> [String]

    private let input: Int32
    private let output: Int32
    private(set) var history: [String] = []
    private let historyLimit = 500
    var completer: Completer?
    private var raw = false

    /// nil unless both `input` and `output` are terminals.
    init?(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        guard isatty(input) != 0, isatty(output) != 0 else { return nil }
        self.input = input; self.output = output
    }

    deinit { restore() }

    /// Earlier lines to start the history with (oldest first).
    func loadHistory(_ lines: [String]) { history = Array(lines.suffix(historyLimit)) }

    /// The terminal as it was before the first line was read.
    func restore() {
        guard raw else { return }
        Self.restoreTerminal()
        raw = false
    }

    /// The settings to put back, for `restore()` and for an exit from anywhere.
    nonisolated(unsafe) private static var saved: (fd: Int32, settings: termios)?

    private static func restoreTerminal() {
        guard let (fd, original) = saved else { return }
        var settings = original
        tcsetattr(fd, TCSADRAIN, &settings)
    }

    private func enterRawMode() -> Bool {
        if raw { return true }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { return false }
        var changed = settings
        changed.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        changed.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        changed.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &changed.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // TCSADRAIN, not TCSAFLUSH: keys already typed stay to be read.
        guard tcsetattr(input, TCSADRAIN, &changed) == 0 else { return false }
        if Self.saved == nil { atexit { LineEditor.restoreTerminal() } }
        Self.saved = (input, settings)
        raw = true
        return true
    }

    func read(prompt: String) -> Input {
        guard enterRawMode() else { return fallback(prompt: prompt) }
        var state = State(prompt: prompt)
        var browsing = history.count
        var draft: [Character] = []
        draw(state)
        while true {
            guard let key = readKey() else { return finish(state, .end) }
            switch key {
            case .enter:
                let line = String(state.text)
                if !line.trimmingCharacters(in: .whitespaces).isEmpty, history.last != line {
                    history.append(line)
                    if history.count > historyLimit { history.removeFirst() }
                }
                return finish(state, .line(line))
            case .interrupt:
                write("^C")
                return finish(state, .interrupt)
            case .endOfInput:
                if state.text.isEmpty { return finish(state, .end) }
                state.deleteForward()
            case .character(let c): state.insert(c)
            case .backspace: state.deleteBackward()
            case .delete: state.deleteForward()
            case .left: state.cursor = max(0, state.cursor - 1)
            case .right: state.cursor = min(state.text.count, state.cursor + 1)
            case .home: state.cursor = 0
            case .end: state.cursor = state.text.count
            case .wordLeft: state.cursor = state.wordStart(before: state.cursor)
            case .wordRight: state.cursor = state.wordEnd(after: state.cursor)
            case .killToEnd: state.text.removeSubrange(state.cursor...)
            case .killToStart:
                state.text.removeSubrange(..<state.cursor)
                state.cursor = 0
            case .killWord:
                let start = state.wordStart(before: state.cursor)
                state.text.removeSubrange(start..<state.cursor)
                state.cursor = start
            case .up, .down:
                if browsing == history.count { draft = state.text }
                browsing = key == .up ? max(0, browsing - 1) : min(history.count, browsing + 1)
                state.text = browsing == history.count ? draft : Array(history[browsing])
                state.cursor = state.text.count
            case .clearScreen: write("\u{1B}[H\u{1B}[2J")
            case .tab: complete(&state)
            case .ignored: continue
            }
            draw(state)
        }
    }

    // MARK: - State

    private struct State {
        let prompt: String
        var text: [Character] = []
        var cursor = 0

        mutating func insert(_ c: Character) { text.insert(c, at: cursor); cursor += 1 }
        mutating func deleteBackward() {
            guard cursor > 0 else { return }
            text.remove(at: cursor - 1); cursor -= 1
        }
        mutating func deleteForward() {
            guard cursor < text.count else { return }
            text.remove(at: cursor)
        }
        func wordStart(before i: Int) -> Int {
            var j = i
            while j > 0, text[j - 1] == " " { j -= 1 }
            while j > 0, text[j - 1] != " " { j -= 1 }
            return j
        }
        func wordEnd(after i: Int) -> Int {
            var j = i
            while j < text.count, text[j] == " " { j += 1 }
            while j < text.count, text[j] != " " { j += 1 }
            return j
        }
    }

    private func complete(_ state: inout State) {
        guard let completer else { return }
        let before = String(state.text[..<state.cursor])
        let word = before.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let candidates = completer(before).filter { $0.hasPrefix(word) }
        guard !candidates.isEmpty else { return }
        let common = candidates.dropFirst().reduce(candidates[0]) { $0.commonPrefix(with: $1) }
        if common.count > word.count || candidates.count == 1 {
            var addition = Array(common.dropFirst(word.count))
            if candidates.count == 1, !common.hasSuffix("=") { addition.append(" ") }
            for c in addition { state.insert(c) }
        } else {
            // Several ways to go on: list them under the line, then draw the line again.
            write("\r\n" + candidates.joined(separator: "  ") + "\r\n")
        }
    }

    // MARK: - Drawing

    private func draw(_ state: State) {
        let columns = max(20, Self.terminalWidth(output))
        let promptWidth = Self.width(of: state.prompt)
        let room = max(8, columns - promptWidth - 1)
        let widths = state.text.map { Self.width(of: $0) }
        // Scroll so the cursor is visible, keeping as much text left of it as fits.
        var start = 0
        while widths[start..<state.cursor].reduce(0, +) >= room { start += 1 }
        var end = start, used = 0
        while end < state.text.count, used + widths[end] <= room { used += widths[end]; end += 1 }
        let visible = String(state.text[start..<end])
        let cursorColumn = promptWidth + widths[start..<state.cursor].reduce(0, +)
        write("\r" + state.prompt + visible + "\u{1B}[K\r" + (cursorColumn > 0 ? "\u{1B}[\(cursorColumn)C" : ""))
    }

    private func finish(_ state: State, _ result: Input) -> Input {
        var shown = state
        shown.cursor = shown.text.count
        if result != .interrupt { draw(shown) }
        write("\r\n")
        return result
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }

    /// Without raw mode (a terminal that refuses it): a plain line.
    private func fallback(prompt: String) -> Input {
        write(prompt)
        return readLine().map(Input.line) ?? .end
    }

    // MARK: - Keys

    private enum Key: Equatable {
        case character(Character)
        case enter, interrupt, endOfInput, backspace, delete, tab
        case left, right, up, down, home, end, wordLeft, wordRight
        case killToEnd, killToStart, killWord, clearScreen, ignored
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(input, &byte, 1)
            if n == 1 { return byte }
            if n < 0, errno == EINTR { continue }
            return nil
        }
    }

    private func readKey() -> Key? {
        guard let b = readByte() else { return nil }
        switch b {
        case 0x0D, 0x0A: return .enter
        case 0x03: return .interrupt
        case 0x04: return .endOfInput
        case 0x7F, 0x08: return .backspace
        case 0x09: return .tab
        case 0x01: return .home
        case 0x05: return .end
        case 0x02: return .left
        case 0x06: return .right
        case 0x10: return .up
        case 0x0E: return .down
        case 0x0B: return .killToEnd
        case 0x15: return .killToStart
        case 0x17: return .killWord
        case 0x0C: return .clearScreen
        case 0x1B: return readEscape()
        case 0x00..<0x20: return .ignored
        default: return readCharacter(first: b)
        }
    }

    private func readEscape() -> Key {
        guard let b = readByte() else { return .ignored }
        switch b {
        case UInt8(ascii: "b"): return .wordLeft
        case UInt8(ascii: "f"): return .wordRight
        case UInt8(ascii: "["), UInt8(ascii: "O"): break
        default: return .ignored
        }
        // CSI: parameters, then a final byte.
        var parameters = ""
        while let c = readByte() {
            if (0x40...0x7E).contains(c) {
                let word = parameters.split(separator: ";").map(String.init)
                let modified = word.count > 1   // Ctrl- or Alt-arrows: "1;5C"
                switch c {
                case UInt8(ascii: "A"): return .up
                case UInt8(ascii: "B"): return .down
                case UInt8(ascii: "C"): return modified ? .wordRight : .right
                case UInt8(ascii: "D"): return modified ? .wordLeft : .left
                case UInt8(ascii: "H"): return .home
                case UInt8(ascii: "F"): return .end
                case UInt8(ascii: "~"):
                    switch word.first {
                    case "1", "7": return .home
                    case "4", "8": return .end
                    case "3": return .delete
                    default: return .ignored
                    }
                default: return .ignored
                }
            }
            parameters.append(Character(UnicodeScalar(c)))
        }
        return .ignored
    }

    /// A UTF-8 character starting with `first`.
    private func readCharacter(first: UInt8) -> Key {
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        var bytes = [first]
        while bytes.count < length, let b = readByte() { bytes.append(b) }
        guard let text = String(bytes: bytes, encoding: .utf8), let c = text.first else { return .ignored }
        return .character(c)
    }

    // MARK: - Measuring

    static func terminalWidth(_ fd: Int32) -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Columns a character takes on a terminal: two for East Asian wide characters and emoji,
    /// none for combining marks.
    static func width(of c: Character) -> Int {
        guard let scalar = c.unicodeScalars.first else { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        let v = scalar.value
        let wide: [ClosedRange<UInt32>] = [0x1100...0x115F, 0x2E80...0x303E, 0x3041...0xA4CF, 0xAC00...0xD7A3,
                                           0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
                                           0x20000...0x3FFFD]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }

    static func width(of text: String) -> Int {
        // Escape sequences in a prompt (colours) take no room.
        var total = 0, inEscape = false
        for c in text {
            if c == "\u{1B}" { inEscape = true; continue }
            if inEscape { if c.isLetter { inEscape = false }; continue }
            total += width(of: c)
        }
        return total
    }
}
