import Foundation

/// Shows a PNG inside the terminal where it speaks an image protocol (kitty's graphics protocol,
/// or iTerm2's inline images, which WezTerm also reads). Elsewhere nothing is drawn.
enum InlineImage {
    enum Kind: String { case kitty, iterm2 }

    /// The protocol to use, from the environment: `$SKETCHEASE_INLINE` (kitty, iterm2, none)
    /// decides if set; otherwise `$KITTY_WINDOW_ID`, `$TERM` and `$TERM_PROGRAM`. Never when
    /// stdout is not a terminal, nor inside tmux or screen (they do not pass images through).
    static func detect(environment env: [String: String] = ProcessInfo.processInfo.environment,
                       stdoutIsTTY: Bool = isatty(STDOUT_FILENO) != 0) -> Kind? {
        guard stdoutIsTTY else { return nil }
        if let forced = env["SKETCHEASE_INLINE"] { return Kind(rawValue: forced.lowercased()) }
        let term = env["TERM"] ?? "", program = env["TERM_PROGRAM"] ?? ""
        if env["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return nil }
        if env["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || program == "ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" { return .iterm2 }
        return nil
    }

    /// Writes the escape sequence that shows `path`; false if the file cannot be read.
    static func show(_ path: String, as kind: Kind) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        let encoded = data.base64EncodedString()
        var out = ""
        switch kind {
        case .kitty:
            // Transmit and display a PNG (f=100) in chunks of at most 4096 base64 bytes.
            var chunks: [Substring] = []
            var rest = Substring(encoded)
            while !rest.isEmpty { chunks.append(rest.prefix(4096)); rest = rest.dropFirst(4096) }
            for (i, chunk) in chunks.enumerated() {
                let more = i < chunks.count - 1 ? 1 : 0
                let keys = i == 0 ? "a=T,f=100,m=\(more)" : "m=\(more)"
                out += "\u{1B}_G\(keys);\(chunk)\u{1B}\\"
            }
        case .iterm2:
            let name = Data((path as NSString).lastPathComponent.utf8).base64EncodedString()
            out = "\u{1B}]1337;File=name=\(name);size=\(data.count);inline=1;preserveAspectRatio=1:\(encoded)\u{07}"
        }
        FileHandle.standardOutput.write(Data((out + "\n").utf8))
        return true
    }
}
