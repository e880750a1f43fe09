import ArgumentParser
import Foundation
import SketchEase

/// Finds a misspelt long option before anything else is checked.
///
/// ArgumentParser validates a command's values before it looks for options it does not know, so
/// `batch photos --output x` would be answered "missing --out" instead of "unknown option
/// '--output' (did you mean '--out'?)". The command's own description of its options (the JSON
/// `_dumpHelp` gives) says which names exist.
enum UnknownOptionCheck {
    /// The first `--name` in `arguments` that `command` does not have, with the closest name it does.
    static func firstUnknown(in arguments: [String], for command: ParsableCommand.Type) -> (name: String, guess: String?)? {
        guard let data = command._dumpHelp().data(using: .utf8),
              let info = try? JSONDecoder().decode(Dump.self, from: data) else { return nil }
        let options = info.command.arguments ?? []
        var names = Set(["--help", "-h", "--version"])
        var takesValue = Set<String>()
        for argument in options {
            for name in argument.names ?? [] {
                let spelled = (name.kind == "long" ? "--" : "-") + name.name
                names.insert(spelled)
                if argument.kind == "option" { takesValue.insert(spelled) }
            }
        }
        var skipNext = false
        for word in arguments {
            if skipNext { skipNext = false; continue }
            if word == "--" { break }
            guard word.hasPrefix("-"), word.count > 1, Double(word) == nil else { continue }
            let name = String(word.prefix { $0 != "=" })
            if names.contains(name) {
                skipNext = takesValue.contains(name) && !word.contains("=")
            } else if name.hasPrefix("--") {
                let typed = String(name.dropFirst(2))
                let longNames = names.filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
                // A typo, or the option's name said longer or shorter (--output for --out).
                let guess = NameSuggestion.closest(to: typed, among: longNames)
                    ?? longNames.filter { typed.hasPrefix($0) || $0.hasPrefix(typed) }.max { $0.count < $1.count }
                return (name, guess.map { "--" + $0 })
            }
        }
        return nil
    }

    private struct Dump: Decodable {
        struct Command: Decodable { var arguments: [Argument]? }
        struct Argument: Decodable {
            struct Name: Decodable { var kind: String; var name: String }
            var kind: String
            var names: [Name]?
        }
        var command: Command
    }
}
