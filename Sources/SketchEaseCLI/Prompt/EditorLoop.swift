import Foundation
import SketchEase

/// The `sketchease edit` prompt: reads commands line by line (from a person or a script) and
/// applies them to the photos in turn. A bad command gets a short message; it never ends the loop.
final class EditorLoop {
    struct Settings {
        var outputFolder: String
        var defaultStyle: FaceStyle
        var detection: DetectionOptions
        var render: RenderOptions
        var compression: Int
        var compare: Bool
        var pixelLimit = Photo.defaultPixelLimit
    }

    private struct Problem: Error { let message: String }

    let files: [InputFile]
    let settings: Settings
    let detector: OpenCVFaceDetector
    let registry = FilterRegistry.standard
    /// Prompts and inline images only when a person is typing.
    let interactive: Bool
    let inline: InlineImage.Kind?
    private var editors: [Int: PhotoEditor] = [:]
    private var current = 0
    private var failed = Set<Int>()
    private var quitWarned = false

    init(files: [InputFile], settings: Settings, detector: OpenCVFaceDetector,
         interactive: Bool = isatty(STDIN_FILENO) != 0, inline: InlineImage.Kind? = InlineImage.detect()) {
        self.files = files; self.settings = settings; self.detector = detector
        self.interactive = interactive; self.inline = inline
    }

    /// Runs until `quit` or the end of input; the result is the exit status (1 if a photo could
    /// not be opened).
    func run() -> Int32 {
        guard let first = openPhoto(from: 0, step: 1) else {
            Terminal.printErr("no photo could be opened")
            return 1
        }
        current = first
        introduce()
        if interactive { say("Type `help` for the commands.") }
        while true {
            if interactive {
                FileHandle.standardOutput.write(Data(prompt.utf8))
            }
            guard let line = readLine() else {
                if interactive { say("") }
                finishAtEndOfInput()
                break
            }
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let word = words.first, !word.hasPrefix("#") else { continue }
            if handle(word, Array(words.dropFirst())) { break }
        }
        return failed.isEmpty ? 0 : 1
    }

    private var editor: PhotoEditor { editors[current]! }

    private var prompt: String {
        let name = (files[current].path as NSString).lastPathComponent
        return files.count > 1 ? "[\(current + 1)/\(files.count)] \(name)> " : "\(name)> "
    }

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
        do {
            switch command.action {
            case .quit: return quit(force: force)
            case .help: help(args)
            case .list: listFaces()
            case .report: try reportFaces(warningsOnly: false)
            case .filters: listFilters()
            case .preview: try showPreview(always: true)
            case .export: try export()
            case .next, .skip: move(by: 1, skipping: command.action == .skip)
            case .previous: move(by: -1, skipping: false)
            case .undo:
                try expectArguments(args, 0, command)
                let edit = try editor.image.undo()
                try changed("undone: \(edit.summary)")
            case .redo:
                try expectArguments(args, 0, command)
                let edit = try editor.image.redo()
                try changed("redone: \(edit.summary)")
            case .detect: try redetect(args, command)
            default:
                let edit = try makeEdit(command, args)
                try editor.image.perform(edit)
                try changed(edit.summary)
            }
        } catch let problem as Problem {
            complain(problem.message)
        } catch let error as EditError {
            complain("\(error)")
        } catch let error as FilterError {
            complain("\(error)")
        } catch {
            complain("\(error)")
        }
        return false
    }

    // MARK: - Edits

    private func makeEdit(_ command: PromptCommand, _ args: [String]) throws -> Edit {
        let usage = Problem(message: "usage: \(command.usage)")
        switch command.action {
        case .set:
            guard let selector = args.first else { throw usage }
            let ids = try faces(selector)
            return .setStyle(faces: ids, style: try style(from: Array(args.dropFirst()), for: ids))
        case .remove:
            guard args.count == 1 else { throw usage }
            return .removeStyle(faces: try faces(args[0]))
        case .move:
            guard args.count == 3, let dx = Double(args[1]), let dy = Double(args[2]) else { throw usage }
            return .move(face: try face(args[0]), dx: dx, dy: dy)
        case .resize:
            let id = try args.first.map(face) ?? { throw usage }()
            let box = editor.image.history.face(id)!.box
            if args.count == 2, args[1].lowercased().hasSuffix("x"), let f = Double(args[1].dropLast()), f > 0 {
                return .resize(face: id, width: box.width * f, height: box.height * f)
            }
            guard args.count == 3, let w = Double(args[1]), let h = Double(args[2]) else { throw usage }
            return .resize(face: id, width: w, height: h)
        case .add:
            guard args.count >= 4, let x = Double(args[0]), let y = Double(args[1]),
                  let w = Double(args[2]), let h = Double(args[3]) else { throw usage }
            let rest = Array(args.dropFirst(4))
            let style = rest.isEmpty ? nil : try style(from: rest, for: [])
            let box = FaceBox(x: x, y: y, width: w, height: h)
            let photo = editor.image.photo
            guard box.maxX > 0, box.maxY > 0, box.x < Double(photo.width), box.y < Double(photo.height) else {
                throw Problem(message: "that box is outside the photo (\(photo.width)×\(photo.height))")
            }
            return .add(face: editor.image.history.nextFaceID, box: box, style: style)
        case .delete:
            guard args.count == 1 else { throw usage }
            return .delete(face: try face(args[0]))
        default:
            throw usage
        }
    }

    /// "2", "1,3" or "all" as face ids, each checked.
    private func faces(_ selector: String) throws -> [Int] {
        let known = editor.image.faces.map(\.id)
        if selector.lowercased() == "all" {
            guard !known.isEmpty else { throw Problem(message: "this photo has no faces (`add` draws a box)") }
            return known
        }
        let ids = try selector.split(separator: ",").map { try face(String($0)) }
        guard !ids.isEmpty else { throw Problem(message: "expected a face number, several (1,3) or `all`") }
        return ids
    }

    private func face(_ word: String) throws -> Int {
        guard let id = Int(word) else {
            throw Problem(message: "'\(word)' is not a face number (faces: \(faceNumbers))")
        }
        guard editor.image.history.face(id) != nil else { throw EditError.noSuchFace(id, known: editor.image.faces.map(\.id)) }
        return id
    }

    private var faceNumbers: String {
        let ids = editor.image.faces.map { String($0.id) }
        return ids.isEmpty ? "none" : ids.joined(separator: ", ")
    }

    /// `[STYLE] [key=value ...]`: a named filter with those parameters; without a name, the
    /// faces' current filter (when they share one) with the parameters changed, else the default.
    private func style(from words: [String], for ids: [Int]) throws -> FaceStyle {
        var name: String?
        var assignments: [String: String] = [:]
        for word in words {
            if let eq = word.firstIndex(of: "="), eq != word.startIndex {
                assignments[String(word[..<eq])] = String(word[word.index(after: eq)...])
            } else if name == nil {
                name = word
            } else {
                throw Problem(message: "unexpected '\(word)': parameters are written key=value")
            }
        }
        if let name {
            let id = try registry.filter(name).id
            return FaceStyle(filterID: id, settings: try registry.settings(for: id, assignments: assignments))
        }
        let current = Set(ids.compactMap { editor.image.history.face($0)?.style })
        let base = current.count == 1 && ids.allSatisfy({ editor.image.history.face($0)?.style != nil })
            ? current.first! : settings.defaultStyle
        let merged = base.settings.values.mapValues(\.text).merging(assignments) { $1 }
        return FaceStyle(filterID: base.filterID, settings: try registry.settings(for: base.filterID, assignments: merged))
    }

    private func redetect(_ args: [String], _ command: PromptCommand) throws {
        var options = editor.detection
        if let word = args.first {
            guard args.count == 1, let t = Double(word), (0...1).contains(t) else {
                throw Problem(message: "usage: \(command.usage) (THRESHOLD between 0 and 1)")
            }
            options.threshold = t
        }
        let found = try detector.detect(in: editor.image.photo, options: options)
        let faces = editor.image.history.redetected(found)
        try editor.image.perform(.redetect(faces: faces))
        editor.detection = options
        try changed("found \(faces.count) face\(faces.count == 1 ? "" : "s") (threshold \(options.threshold))")
        listFaces()
    }

    private func expectArguments(_ args: [String], _ count: Int, _ command: PromptCommand) throws {
        guard args.count == count else { throw Problem(message: "usage: \(command.usage)") }
    }

    /// After any change: save the session, say what happened, refresh the preview.
    private func changed(_ what: String) throws {
        try editor.changed()
        say(interactive && inline == nil ? what + "  (preview updated)" : what)
        try showPreview(always: false)
    }

    // MARK: - Showing

    private func introduce() {
        let e = editor
        let photo = e.image.photo
        let count = e.image.faces.count
        let where_ = files.count > 1 ? "[\(current + 1)/\(files.count)] " : ""
        say("\(where_)\(e.file.path): \(count) face\(count == 1 ? "" : "s") (\(photo.width)×\(photo.height))"
            + (e.resumed ? ", resumed from \(e.sessionPath) (\(e.image.history.position) edit\(e.image.history.position == 1 ? "" : "s") in effect)" : ""))
        listFaces()
        do { try reportFaces(warningsOnly: true) } catch { complain("\(error)") }
        do { try showPreview(always: true) } catch { complain("\(error)") }
    }

    /// The face report for the boxes now in effect; `warningsOnly` prints just the problems
    /// (shown when a photo opens, so a bad face is flagged before styling it).
    private func reportFaces(warningsOnly: Bool) throws {
        let faces = editor.image.faces
        // Boxes as edited: the detector's confidence no longer applies, so none is shown.
        let detected = faces.map { DetectedFace(box: $0.box, score: 1, landmarks: $0.landmarks) }
        var assessments = try FaceReport.analyse(photo: editor.image.photo, faces: detected)
        for i in assessments.indices { assessments[i].index = faces[i].id }
        for a in assessments {
            if warningsOnly {
                for w in a.warnings { say("  face \(a.index): \(w.message)") }
            } else {
                a.summaryLines(showingScore: false).forEach { say($0) }
            }
        }
    }

    private func listFaces() {
        let faces = editor.image.faces
        if faces.isEmpty { say("  no faces found (`add X Y W H` draws a box, `detect 0.3` looks harder)") }
        for face in faces {
            let b = face.box
            let box = "at \(Int(b.x.rounded())),\(Int(b.y.rounded())) size \(Int(b.width.rounded()))×\(Int(b.height.rounded()))"
            say("  \(String(face.id).leftPadded(3))  \(box.padding(toLength: 30, withPad: " ", startingAt: 0))  \(face.style?.label ?? "not styled")")
        }
    }

    private func listFilters() {
        for filter in registry.filters {
            say("  \(filter.id) — \(filter.summary)")
            for p in filter.parameters { say("      \(p.id)  \(p.rangeDescription) — \(p.summary)") }
        }
        say("  default style: \(settings.defaultStyle.label)")
    }

    /// Writes the preview; shows it inline where the terminal can, else prints its path (on
    /// request, or the first time).
    private func showPreview(always: Bool) throws {
        try editor.writePreview()
        if let inline, InlineImage.show(editor.previewPath, as: inline) { return }
        if always { say("preview: \(editor.previewPath)") }
    }

    private func help(_ args: [String]) {
        guard let word = args.first else {
            say("Commands:\n" + PromptCommand.overview)
            return
        }
        if let command = PromptCommand.named(word.hasSuffix("!") ? String(word.dropLast()) : word) {
            say(command.help)
        } else {
            complain("no command '\(word)' (type `help` for the list)")
        }
    }

    // MARK: - Photos and quitting

    private func export() throws {
        try editor.export(compare: settings.compare)
        var written = "exported \(editor.exportPath)"
        if settings.compare { written += " and \(ComparisonImage.path(forExport: editor.exportPath))" }
        say(written)
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
            if editors[i] != nil { return i }
            if !failed.contains(i) {
                do {
                    editors[i] = try PhotoEditor(file: files[i], outputFolder: settings.outputFolder, detector: detector,
                                                 detection: settings.detection, render: settings.render,
                                                 compression: settings.compression, pixelLimit: settings.pixelLimit)
                    return i
                } catch {
                    failed.insert(i)
                    Terminal.error("\(error)")
                }
            }
            i += step
        }
        return nil
    }

    private var unexported: [PhotoEditor] {
        editors.keys.sorted().compactMap { editors[$0] }.filter(\.hasUnexportedChanges)
    }

    private func quit(force: Bool) -> Bool {
        let pending = unexported
        if force || pending.isEmpty || quitWarned { return true }
        quitWarned = true
        say("Not exported yet: \(pending.map { ($0.file.path as NSString).lastPathComponent }.joined(separator: ", ")) "
            + "(your edits are kept in the session file).\n`export` writes the PNG; `quit` again leaves anyway.")
        return false
    }

    private func finishAtEndOfInput() {
        for e in unexported {
            Terminal.warn("\(e.file.path): changes not exported; they are saved in \(e.sessionPath) (run `sketchease edit` again to resume or `sketchease apply` to export)")
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
