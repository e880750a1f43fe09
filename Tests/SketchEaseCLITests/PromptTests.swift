import Testing
@testable import SketchEaseCLI

@Suite struct PromptTests {
    @Test func everyCommandAndShortNameIsFoundAndNoNameIsTakenTwice() {
        var seen = Set<String>()
        for command in PromptCommand.all {
            for name in [command.name] + command.aliases {
                #expect(seen.insert(name).inserted, "\(name) used twice")
                #expect(PromptCommand.named(name.uppercased())?.action == command.action)
            }
            #expect(PromptCommand.overview(width: 100).contains(command.usage))
        }
        #expect(PromptCommand.closest(to: "exprot") == "export")
        #expect(PromptCommand.closest(to: "mvoe") == "move", "two letters swapped are one typo")
        #expect(PromptCommand.closest(to: "zzzzzz") == nil)
    }

    @Test func inlineImagesOnlyWhereTheTerminalShowsThem() {
        #expect(InlineImage.detect(environment: ["KITTY_WINDOW_ID": "1", "TERM": "xterm-kitty"], stdoutIsTTY: true) == .kitty)
        #expect(InlineImage.detect(environment: ["TERM_PROGRAM": "iTerm.app"], stdoutIsTTY: true) == .iterm2)
        #expect(InlineImage.detect(environment: ["TERM_PROGRAM": "WezTerm"], stdoutIsTTY: true) == .iterm2)
        #expect(InlineImage.detect(environment: ["TERM": "xterm-256color"], stdoutIsTTY: true) == nil)
        #expect(InlineImage.detect(environment: ["KITTY_WINDOW_ID": "1"], stdoutIsTTY: false) == nil)
        #expect(InlineImage.detect(environment: ["KITTY_WINDOW_ID": "1", "TMUX": "/tmp/x"], stdoutIsTTY: true) == nil)
        #expect(InlineImage.detect(environment: ["SKETCHEASE_INLINE": "none", "TERM_PROGRAM": "iTerm.app"], stdoutIsTTY: true) == nil)
        #expect(InlineImage.detect(environment: ["SKETCHEASE_INLINE": "kitty"], stdoutIsTTY: true) == .kitty)
    }
}
