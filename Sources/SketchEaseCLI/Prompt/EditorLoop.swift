import Foundation
import SketchEase
import Video

/// The `sketchease edit` prompt: reads commands line by line (from a person or a script) and
/// applies them to the photos in turn. A bad command gets a short message; it never ends the loop.
final class EditorLoop {
    struct Settings {
        var outputFolder: String
        var defaultStyle: FaceStyle
        var detection: DetectionOptions
        var render: RenderOptions
        var export: ExportOptions
        var compare: Bool
        var pixelLimit = Photo.defaultPixelLimit
        /// How clips are followed and encoded (a clip's faces are its tracks).
        var clip: ClipSessionSettings? = nil
    }

    private struct Problem: Error { let message: String }

    let files: [InputFile]
    let settings: Settings
    let detector: OpenCVFaceDetector
    let registry = FilterRegistry.standard
    /// Prompts and inline images only when a person is typing.
    let interactive: Bool
    let inline: InlineImage.Kind?
    /// Line editing and history when a person types at a terminal.
    private let lineEditor: LineEditor?
    private var sessions: [Int: any FaceEditingSession] = [:]
    private var current = 0
    private var failed = Set<Int>()
    private var quitWarned = false
    /// Whether anything went wrong that the exit status should tell (a photo that would not
    /// open, a session that could not be saved).
    private var troubled = false

    init(files: [InputFile], settings: Settings, detector: OpenCVFaceDetector,
         interactive: Bool = isatty(STDIN_FILENO) != 0, inline: InlineImage.Kind? = InlineImage.detect()) {
        self.files = files; self.settings = settings; self.detector = detector
        self.interactive = interactive; self.inline = inline
        lineEditor = interactive ? LineEditor() : nil
    }

    /// Runs until `quit` or the end of input; the result is the exit status (1 if a photo could
    /// not be opened or its edits could not be saved).
    func run() -> Int32 {
        guard let first = openPhoto(from: 0, step: 1) else {
            Terminal.printErr("no photo could be opened")
            return 1
        }
        current = first
        introduce()
        if interactive { say("Type `help` for the commands.") }
        lineEditor?.completer = { [unowned self] before in completions(before) }
        lineEditor?.loadHistory(PromptHistory.load())
        // Ctrl-C when the terminal is not in the line editor's hands (a script, a long render):
        // finish as at the end of input, with the same warning about what is not exported. The
        // process ends right after, so reading the loop's state from the signal's queue is safe
        // enough: at worst a warning names a photo whose change was being made.
        nonisolated(unsafe) let loop = self
        let interrupt = Interrupt {
            loop.say("")
            loop.finishAtEndOfInput()
            exit(loop.troubled || !loop.failed.isEmpty ? 1 : 130)
        }
        defer {
            interrupt.cancel()
            if let lineEditor {
                lineEditor.restore()
                PromptHistory.save(lineEditor.history)
            }
        }
        while true {
            let line: String
            switch readCommand() {
            case .line(let text): line = text
            case .interrupt, .end:
                finishAtEndOfInput()
                return troubled || !failed.isEmpty ? 1 : 0
            }
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let word = words.first, !word.hasPrefix("#") else { continue }
            if handle(word, Array(words.dropFirst())) { break }
        }
        return troubled || !failed.isEmpty ? 1 : 0
    }

    private func readCommand() -> LineEditor.Input {
        if let lineEditor { return lineEditor.read(prompt: prompt) }
        if interactive { FileHandle.standardOutput.write(Data(prompt.utf8)) }
        return readLine().map(LineEditor.Input.line) ?? .end
    }

    private var session: any FaceEditingSession { sessions[current]! }

    private var prompt: String {
        let name = (files[current].path as NSString).lastPathComponent
        return files.count > 1 ? "[\(current + 1)/\(files.count)] \(name)> " : "\(name)> "
    }

    private var width: Int { interactive ? LineEditor.terminalWidth(STDOUT_FILENO) : 100 }

    /// Handles one command; true when the session should end.
    private func handle(_ word: String, _ args: [String]) -> Bool {
        let force = word.hasSuffix("!") && word.count > 1
        guard let command = PromptCommand.named(force ? String(word.dropLast()) : word),
              !force || command.action == .quit else {
            let guess = PromptCommand.closest(to: word).map { "did you mean `\($0)`? " } ?? ""
            complain("unknown command '\(word)' (\(guess)type `help` for the list)")
            return false
        }
        if command.action != .quit { quitWarned = false }
        guard command.arguments.contains(args.count) else {
            let extra = args.count > command.arguments.upperBound
                ? "unexpected '\(args[command.arguments.upperBound...].joined(separator: " "))'; " : ""
            complain("\(extra)usage: \(command.usage)")
            return false
        }
        do {
            switch command.action {
            case .quit: return quit(force: force)
            case .help: help(args)
            case .list: listFaces()
            case .report: try reportFaces(warningsOnly: false)
            case .filters: try listFilters(args.first)
            case .preview: try showPreview()
            case .export: try export(all: try exportsAll(args))
            case .next, .skip: move(by: 1, skipping: command.action == .skip)
            case .previous: move(by: -1, skipping: false)
            case .undo: try changed(try session.undoSaying())
            case .redo: try changed(try session.redoSaying())
            case .detect: try redetect(args, command)
            default:
                try changed(try session.performSaying(try makeEdit(command, args)))
            }
        } catch let problem as Problem {
            complain(problem.message)
        } catch {
            // A file that could not be read or written (a session that would not save, say)
            // also shows in the exit status.
            if error is PhotoError || error is SessionError { troubled = true }
            complain(Self.message(for: error))
        }
        return false
    }

    /// Errors in a person's words: the model's own messages, never raw library text.
    private static func message(for error: Error) -> String {
        switch error {
        case let e as EditError: "\(e)"
        case let e as FilterError: "\(e)"
        case let e as PhotoError: e.description
        case let e as SessionError: e.description
        case let e as VipsError: "could not draw the picture (\(e.message))"
        default: "\(error)"
        }
    }

    // MARK: - Edits

    private func makeEdit(_ command: PromptCommand, _ args: [String]) throws -> Edit {
        let usage = Problem(message: "usage: \(command.usage)")
        switch command.action {
        case .set:
            let ids = try faces(args[0])
            return .setStyle(faces: ids, style: try style(from: Array(args.dropFirst()), for: ids))
        case .remove:
            return .removeStyle(faces: try faces(args[0]))
        case .move:
            return .move(face: try face(args[0]), dx: Double(try pixels(args[1])), dy: Double(try pixels(args[2])))
        case .resize:
            let id = try face(args[0])
            let box = session.history.face(id)!.box
            if args.count == 2 {
                guard args[1].lowercased().hasSuffix("x"), let f = Double(args[1].dropLast()), f > 0, f.isFinite else { throw usage }
                return .resize(face: id, width: box.width * f, height: box.height * f)
            }
            return .resize(face: id, width: Double(try pixels(args[1])), height: Double(try pixels(args[2])))
        case .add:
            // On a clip, `@SECONDS` last says which frame the box is on.
            var words = args
            var time: Double?
            if let last = words.last, last.hasPrefix("@") {
                guard let t = Double(last.dropFirst()), t.isFinite, t >= 0 else {
                    throw Problem(message: "'\(last)': a time is @SECONDS from the start, e.g. @12.5")
                }
                time = t
                words.removeLast()
            }
            guard words.count >= 4 else { throw usage }
            let numbers = try words.prefix(4).map(pixels)
            let rest = Array(words.dropFirst(4))
            let style = rest.isEmpty ? nil : try style(from: rest, for: [])
            let box = FaceBox(x: Double(numbers[0]), y: Double(numbers[1]), width: Double(numbers[2]), height: Double(numbers[3]))
            return try session.addition(of: box, style: style, at: time)
        case .delete:
            return .delete(faces: try faces(args[0]))
        case .background:
            if args.count == 1, ["none", "photo"].contains(args[0].lowercased()) { return .background(style: nil) }
            // A style named, as `set` takes one.
            guard FaceStyle.words(args).others.count == 1 else { throw usage }
            return .background(style: try style(from: args, for: []))
        default:
            throw usage
        }
    }

    /// A whole number of pixels ("12", "-20"); fractions are refused rather than rounded silently.
    private func pixels(_ word: String) throws -> Int {
        if let n = Int(word) { return n }
        if let d = Double(word), d.isFinite {
            throw Problem(message: "'\(word)': boxes are set in whole pixels (try \(Rounding.pixels(d)))")
        }
        throw Problem(message: "'\(word)' is not a number of pixels")
    }

    private func faces(_ selector: String) throws -> [Int] {
        try FaceSelection.parse(selector, known: session.history.faces.map(\.id))
    }

    private func face(_ word: String) throws -> Int {
        let ids = try faces(word)
        guard ids.count == 1 else { throw Problem(message: "'\(word)': this command takes one face") }
        return ids[0]
    }

    /// `[STYLE] [key=value ...]`: a named filter with those parameters; without a name, the
    /// faces' current filter (when they share one) with the parameters changed, else the default.
    private func style(from words: [String], for ids: [Int]) throws -> FaceStyle {
        let (names, assignments) = FaceStyle.words(words)
        if names.count > 1 { throw Problem(message: "unexpected '\(names[1])': parameters are written key=value") }
        if let name = names.first {
            let id = try registry.filter(name).id
            return FaceStyle(filterID: id, settings: try registry.settings(for: id, assignments: assignments))
        }
        let history = session.history
        let current = Set(ids.compactMap { history.face($0)?.style })
        let base = current.count == 1 && ids.allSatisfy({ history.face($0)?.style != nil })
            ? current.first! : settings.defaultStyle
        let merged = base.settings.values.mapValues(\.text).merging(assignments) { $1 }
        return FaceStyle(filterID: base.filterID, settings: try registry.settings(for: base.filterID, assignments: merged))
    }

    private func redetect(_ args: [String], _ command: PromptCommand) throws {
        var options = session.detection
        if let word = args.first {
            guard let t = Double(word), (0...1).contains(t) else {
                throw Problem(message: "usage: \(command.usage) (THRESHOLD between 0 and 1)")
            }
            options.threshold = t
        }
        try changed(try session.redetectSaying(with: detector, options: options))
        listFaces()
    }

    /// After any change: say what happened, refresh the preview.
    private func changed(_ what: String) throws {
        try drawPreview()
        if let inline {
            say(what)
            _ = InlineImage.show(session.previewPath, as: inline)
        } else {
            say(interactive ? what + "  (preview updated)" : what)
        }
    }

    // MARK: - Showing

    private func introduce() {
        let s = session
        let where_ = files.count > 1 ? "[\(current + 1)/\(files.count)] " : ""
        say("\(where_)\(s.file.path): \(s.summary)"
            + (s.resumed ? ", resumed from \(s.sessionPath) (\(Terminal.count(s.history.position, "edit")) in effect)" : ""))
        listFaces()
        do { try reportFaces(warningsOnly: true) } catch { complain(Self.message(for: error)) }
        do { try showPreview() } catch { complain(Self.message(for: error)) }
    }

    /// The face report for the boxes now in effect; `warningsOnly` prints just the problems
    /// (shown when a photo opens, so a bad face is flagged before styling it).
    private func reportFaces(warningsOnly: Bool) throws {
        // Boxes as edited: the detector's confidence no longer applies, so none is shown.
        for a in try session.assessments() {
            if warningsOnly {
                for w in a.warnings { say("  face \(a.index): \(w.message)") }
            } else {
                a.summaryLines(showingScore: false).forEach { say($0) }
            }
        }
    }

    private func listFaces() {
        let faces = session.history.faces
        if faces.isEmpty { say("  no faces found (`add X Y W H` draws a box, `detect 0.3` looks harder)") }
        for face in faces {
            let box = "at \(Rounding.corner(face.box)) size \(Rounding.size(face.box))"
            say("  \(String(face.id).leftPadded(3))  \(box.padding(toLength: 30, withPad: " ", startingAt: 0))  \(face.style?.label ?? "not styled")")
        }
    }

    private func listFilters(_ name: String?) throws {
        let chosen = try name.map { [try registry.filter($0)] } ?? registry.filters
        for filter in chosen {
            say("  \(filter.id) — \(filter.summary)")
            if let judged = filter.judged { TextWrap.hanging(judged, first: "    ", width: width).forEach(say) }
            for p in filter.parameters {
                TextWrap.hanging("\(p.rangeDescription) — \(p.summary)", first: "      \(p.id)  ", width: width).forEach(say)
            }
        }
        if name == nil { say("  default style: \(settings.defaultStyle.label); `filters NAME` shows one") }
    }

    /// Writes the preview and shows it inline where the terminal can, else prints its path.
    private func showPreview() throws {
        try drawPreview()
        if let inline, InlineImage.show(session.previewPath, as: inline) { return }
        say("preview: \(session.previewPath)")
    }

    private func drawPreview() throws {
        do {
            try session.writePreview()
        } catch {
            throw Problem(message: "the preview could not be drawn: \(Self.message(for: error))")
        }
    }

    private func help(_ args: [String]) {
        guard let word = args.first else {
            say("Commands:\n" + PromptCommand.overview(width: width))
            return
        }
        if let command = PromptCommand.named(word.hasSuffix("!") ? String(word.dropLast()) : word) {
            say(command.help(width: width))
        } else {
            let guess = PromptCommand.closest(to: word).map { "did you mean `\($0)`? " } ?? ""
            complain("no command '\(word)' (\(guess)type `help` for the list)")
        }
    }

    /// Tab completion: commands first, then face numbers, styles and their parameters.
    private func completions(_ before: String) -> [String] {
        // The words so far, and an empty one being started after a space.
        var words = before.split(separator: " ").map(String.init)
        if before.isEmpty || before.hasSuffix(" ") { words.append("") }
        guard words.count > 1 else { return PromptCommand.all.map(\.name) }
        guard let command = PromptCommand.named(words[0]) else { return [] }
        let ids = session.history.faces.map { String($0.id) }
        switch command.action {
        case .set, .add:
            let position = words.count - 1
            let styleAt = command.action == .set ? 2 : 5
            if command.action == .set, position == 1 { return ids + ["all"] }
            if position == styleAt { return registry.ids + parameterNames(of: words, at: styleAt) }
            if position > styleAt { return parameterNames(of: words, at: styleAt) }
            return []
        case .background:
            if words.count == 2 { return registry.ids + ["none"] }
            return words[1] == "none" ? [] : parameterNames(of: words, at: 1)
        case .remove, .delete: return words.count == 2 ? ids + ["all"] : []
        case .move, .resize: return words.count == 2 ? ids : []
        case .filters: return words.count == 2 ? registry.ids : []
        case .help: return words.count == 2 ? PromptCommand.all.map(\.name) : []
        case .export: return words.count == 2 ? ["all"] : []
        default: return []
        }
    }

    private func parameterNames(of words: [String], at styleAt: Int) -> [String] {
        let named = words.count > styleAt ? (try? registry.filter(words[styleAt])) : nil
        let filter = named ?? (try? registry.filter(settings.defaultStyle.filterID))
        return filter?.parameters.map { $0.id + "=" } ?? []
    }

    // MARK: - Photos and quitting

    private func exportsAll(_ args: [String]) throws -> Bool {
        guard let word = args.first else { return false }
        guard word.lowercased() == "all" else { throw Problem(message: "unexpected '\(word)'; usage: export [all]") }
        return true
    }

    /// Exports this photo, or with `all` every photo opened so far.
    private func export(all: Bool) throws {
        let chosen = all ? sessions.keys.sorted().compactMap { sessions[$0] } : [session]
        for s in chosen {
            do {
                try s.export(compare: settings.compare)
                var written = "exported \(s.exportPath)"
                if settings.compare { written += " and \(ComparisonImage.path(forExport: s.exportPath))" }
                say(written)
            } catch {
                troubled = true
                complain(Self.message(for: error))
            }
        }
        if all, sessions.count < files.count {
            say("(\(Terminal.count(files.count - sessions.count, "photo")) not opened yet, so not exported: `next` opens them)")
        }
    }

    private func move(by step: Int, skipping: Bool) {
        if skipping { say("skipped \(files[current].path)") }
        guard let index = openPhoto(from: current + step, step: step) else {
            say(step > 0 ? "that was the last photo (`quit` to finish, `prev` to go back)" : "this is the first photo")
            return
        }
        current = index
        introduce()
    }

    /// The first photo from `start` on (in `step` direction) that opens; ones that fail are reported once.
    private func openPhoto(from start: Int, step: Int) -> Int? {
        var i = start
        while files.indices.contains(i) {
            if sessions[i] != nil { return i }
            if !failed.contains(i) {
                do {
                    if let clip = settings.clip, ClipFiles.isClip(files[i].path) {
                        let bar = ClipProgressBar(), name = (files[i].path as NSString).lastPathComponent
                        defer { bar.clear() }
                        sessions[i] = try ClipEditingSession(file: files[i], outputFolder: settings.outputFolder, detector: detector,
                                                             detection: settings.detection, render: settings.render, settings: clip,
                                                             pixelLimit: settings.pixelLimit) { bar.update($0, name: name) }
                    } else {
                        sessions[i] = try EditingSession(file: files[i], outputFolder: settings.outputFolder, detector: detector,
                                                         detection: settings.detection, render: settings.render,
                                                         export: settings.export, pixelLimit: settings.pixelLimit)
                    }
                    return i
                } catch {
                    failed.insert(i)
                    Terminal.error(Self.message(for: error))
                }
            }
            i += step
        }
        return nil
    }

    private var unexported: [any FaceEditingSession] {
        sessions.keys.sorted().compactMap { sessions[$0] }.filter { $0.hasUnexportedChanges }
    }

    private func quit(force: Bool) -> Bool {
        let pending = unexported
        if force || pending.isEmpty || quitWarned { return true }
        quitWarned = true
        let names = pending.map { ($0.file.path as NSString).lastPathComponent }.joined(separator: ", ")
        let kept = pending.allSatisfy { $0.isSaved }
            ? "your edits are kept in \(pending.count == 1 ? "its session file" : "their session files")"
            : "the latest edits could NOT be saved: they are lost if you leave now"
        say("Not exported yet: \(names) (\(kept)).\n`export` (or `export all`) writes the results; `quit` again leaves anyway.")
        return false
    }

    private func finishAtEndOfInput() {
        for s in unexported {
            if s.isSaved {
                Terminal.warn("\(s.file.path): changes not exported; they are saved in \(s.sessionPath) "
                    + "(run `sketchease edit` again to resume or `sketchease apply` to export)")
            } else {
                troubled = true
                Terminal.error("\(s.file.path): changes not exported, and the latest could not be saved in \(s.sessionPath)")
            }
        }
    }

    /// Unbuffered, so lines, prompts and inline images come out in order.
    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    private func complain(_ message: String) { Terminal.printErr(message) }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
