import ArgumentParser
import Foundation
import SketchEase

/// Goes over a command's inputs one at a time, for the commands that read each and say what
/// they found (`detect`, `report`): the problems found collecting them said first, a file that
/// fails said once with its name and reason while the others go on, the JSON array of every
/// entry printed at the end (`json`), what was left out noted, and a failing exit code if
/// anything failed. Each command gives only what it does with one file.
enum EachInput {
    static func run<Entry: Encodable>(_ collection: InputCollection, json: Bool, _ each: (InputFile) throws -> Entry) throws {
        var failures = collection.problems
        for problem in collection.problems { Terminal.error(problem.description) }
        var entries: [Entry] = []
        for file in collection.files {
            do {
                let entry = try each(file)
                if json { entries.append(entry) }
            } catch {
                let failure = PhotoError(path: file.path, wrapping: error)
                failures.append(failure)
                Terminal.error(failure.description)
            }
        }
        if json { print(String(decoding: try JSONEncoder.readable.encode(entries), as: UTF8.self)) }
        Terminal.noteLeftOut(collection)
        if !failures.isEmpty { throw ExitCode.failure }
    }
}
