import Foundation
import Testing
import TestSupport

/// The `edit` prompt typed at in a real terminal: line editing, history, Tab completion, and
/// Ctrl-C leaving like Ctrl-D, with the warning about what is not exported.
@Suite(.serialized) struct PromptTerminalTests {
    func start(_ out: String, home: String) throws -> TerminalSession {
        let session = try TerminalSession("\(CLIRunner.executable) edit '\(TestAssets.group)' --out '\(out)'; echo \"exit $?\"; sleep 30",
                                          columns: 100, environment: ["SKETCHEASE_MODEL": TestAssets.model, "HOME": home])
        try session.wait(for: "group.jpg>", timeout: 60)   // tmux drops trailing spaces
        return session
    }

    func lastPrompt(_ screen: String) -> String {
        screen.split(separator: "\n").last { $0.hasPrefix("group.jpg> ") }.map(String.init) ?? ""
    }

    @Test func linesCanBeEditedRecalledAndCompleted() throws {
        let out = try TestAssets.temporaryFolder("tty-edit"), home = try TestAssets.temporaryFolder("tty-home")
        let session = try start(out, home: home)
        try session.type("set 1 pencil")
        try session.send("Enter")
        try session.wait(for: "face 1: pencil")
        // Up brings the line back; Backspace and Left edit it in place.
        try session.send("Up")
        for _ in 0..<6 { try session.send("BSpace") }
        try session.type("nk")
        try session.send("Left", "Left")
        try session.type("i")
        #expect(lastPrompt(try session.wait(for: "set 1 ink")) == "group.jpg> set 1 ink")
        try session.send("Enter")
        try session.wait(for: "face 1: ink")
        // Tab completes commands and style names.
        try session.type("fil")
        try session.send("Tab")
        try session.type("hat")
        try session.send("Tab")
        #expect(lastPrompt(try session.wait(for: "filters hatching")) == "group.jpg> filters hatching")
        try session.send("Enter")
        try session.wait(for: "hatching —")
        // Ctrl-C leaves as Ctrl-D does: the edits are not exported, and it says where they are kept.
        try session.send("C-c")
        let screen = try session.wait(for: "exit ")
        let unwrapped = screen.replacingOccurrences(of: "\n", with: "")
        #expect(unwrapped.contains("changes not exported; they are saved in \(out)/.sketchease/group.sketchease.json"), "\(screen)")
        #expect(screen.contains("exit 0"))
        #expect(!screen.contains("^[[A"), "arrow keys are keys, not text")
        // The lines typed are remembered for the next time.
        let history = try String(contentsOfFile: home + "/.local/state/sketchease/prompt-history", encoding: .utf8)
        #expect(history.contains("set 1 ink\n"))
    }
}
