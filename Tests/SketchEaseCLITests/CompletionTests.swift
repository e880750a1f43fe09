import Foundation
import Testing
import TestSupport

/// Shell completion as a person uses it: the generated script loaded into a real bash, zsh and
/// fish, Tab pressed, and the offered words read back. Paths after `batch`, `--out` (folders only),
/// `--plan` and `apply` complete; `-f` offers the style names.
@Suite(.serialized) struct CompletionTests {
    /// A folder with a photo, a plan, a sub-folder and a file that is not a folder, and a `bin`
    /// folder with `sketchease` in it.
    func workspace() throws -> (folder: String, bin: String) {
        let folder = try TestAssets.temporaryFolder("complete")
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/work/photos", withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: folder + "/work/portrait.png")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/work/plan.json"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/work/notes.txt"))
        try fm.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder + "/bin/sketchease", withDestinationPath: CLIRunner.executable)
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLIRunner.run(["--generate-completion-script", shell])
            let name = shell == "zsh" ? "_sketchease" : "sketchease.\(shell)"
            try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        return (folder, folder + "/bin")
    }

    /// The screen after typing `line` and pressing Tab twice at a prompt.
    func complete(_ session: TerminalSession, _ line: String, expecting: String) throws -> String {
        try session.send("C-u")
        try session.type(line)
        try session.send("Tab")
        usleep(300_000)
        try session.send("Tab")
        let screen = try session.wait(for: expecting, timeout: 10)
        try session.send("C-u", "C-l")
        return screen
    }

    @Test func bashCompletesPathsFoldersAndStyles() throws {
        let (folder, bin) = try workspace()
        let bash = try TerminalSession("bash --norc --noprofile", environment: ["PATH": bin + ":/usr/bin:/bin"],
                                       in: folder + "/work")
        // The prompt is spelt in two pieces so that the command line echoed does not already show it.
        try bash.type("source \(folder)/sketchease.bash; PS1='rea''dy> '")
        try bash.send("Enter")
        try bash.wait(for: "ready>")
        #expect(try complete(bash, "sketchease batch port", expecting: "portrait.png").contains("sketchease batch portrait.png"))
        let out = try complete(bash, "sketchease batch portrait.png --out ", expecting: "photos/")
        #expect(out.contains("--out photos/") && !out.contains("notes.txt"), "--out offers folders only:\n\(out)")
        let styles = try complete(bash, "sketchease batch portrait.png -f ", expecting: "pencil")
        #expect(["charcoal", "hatching", "pixelate"].allSatisfy(styles.contains), "\(styles)")
        #expect(try complete(bash, "sketchease batch --plan pl", expecting: "plan.json").contains("--plan plan.json"))
        #expect(try complete(bash, "sketchease apply pl", expecting: "plan.json").contains("apply plan.json"))
    }

    @Test func zshCompletesPathsFoldersAndStyles() throws {
        let (folder, bin) = try workspace()
        let zsh = try TerminalSession("zsh -f", environment: ["PATH": bin + ":/usr/bin:/bin"], in: folder + "/work")
        try zsh.type("fpath=(\(folder) $fpath); autoload -Uz compinit; compinit -u -D; PS1='rea''dy> '")
        try zsh.send("Enter")
        try zsh.wait(for: "ready>")
        #expect(try complete(zsh, "sketchease batch port", expecting: "portrait.png").contains("sketchease batch portrait.png"))
        let styles = try complete(zsh, "sketchease batch portrait.png -f ", expecting: "pencil")
        #expect(["charcoal", "hatching", "pixelate"].allSatisfy(styles.contains), "\(styles)")
        let out = try complete(zsh, "sketchease batch portrait.png --out ", expecting: "photos/")
        #expect(!out.contains("notes.txt"), "--out offers folders only:\n\(out)")
    }

    @Test func fishCompletesPathsFoldersAndStyles() throws {
        let (folder, _) = try workspace()
        func candidates(_ line: String) throws -> [String] {
            let fish = try ChildProcess("/usr/bin/fish", ["--no-config", "-c", "source \(folder)/sketchease.fish; complete -C '\(line)'"],
                                        directory: folder + "/work", error: .null)
            let text = String(decoding: fish.outputs(timeout: 60).stdout, as: UTF8.self)
            return text.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try candidates("sketchease batch port") == ["portrait.png"])
        #expect(try candidates("sketchease batch portrait.png --out ") == ["photos/"])
        #expect(try candidates("sketchease batch portrait.png -f ").contains("hatching"))
        #expect(try candidates("sketchease apply pl") == ["plan.json"])
    }
}
