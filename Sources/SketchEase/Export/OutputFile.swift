import Foundation

/// Places every file SketchEase writes for a person: images, contact sheets, crops and their
/// JSON, batch and clip reports, merged reports.
///
/// The output rule (`OutputPolicy`) is applied first, so nothing but SketchEase's own earlier
/// output is ever replaced, and never the input it is made from. The file is then written under
/// a hidden temporary name in the destination folder, recorded as SketchEase's (`OutputRecord`)
/// and renamed into place: a crash or a full disk never leaves half a file under the real name,
/// and a later run never takes the result for a photo. Missing folders on the way are made.
public enum OutputFile {
    /// Writes `path`: `produce` fills the temporary file it is given (a path in the same folder).
    ///
    /// - `source`: the input the file is made from; never written over.
    /// - `overwrite`: replace an earlier output of SketchEase's (`--overwrite`).
    /// - `named`: the person named this very file (`gallery --out`, `--report`): an earlier
    ///   output of SketchEase's there is replaced without `--overwrite`, anything else is kept.
    ///
    /// Throws `PhotoError` naming `path` when something is there and may not be replaced, or when
    /// the folder cannot take the file; errors `produce` throws as `PhotoError` pass unchanged.
    public static func write(to path: String, source: String? = nil, overwrite: Bool = false, named: Bool = false,
                             produce: (String) throws -> Void) throws {
        if try OutputPolicy.verdict(for: path, source: source, overwrite: overwrite, namedDestination: named) == .keep {
            throw PhotoError(path: path, reason: .outputExists)
        }
        let folder = path.parentPath
        let place = folder.isEmpty ? "." : folder
        if let problem = OutputFolder.create(place) {
            throw PhotoError(path: place, reason: .outputNotWritable(problem))
        }
        let name = (path as NSString).lastPathComponent
        let temporary = place + "/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        do {
            try produce(temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if error is PhotoError { throw error }
            throw PhotoError(path: path, reason: .outputNotWritable(OutputFolder.plainReason(error)))
        }
        OutputRecord.note(file: temporary, as: name, in: place)
        if rename(temporary, path) != 0 {
            let detail = String(cString: strerror(errno)).lowercased()
            try? FileManager.default.removeItem(atPath: temporary)
            throw PhotoError(path: path, reason: .outputNotWritable(detail))
        }
    }

    /// Checks, before any work, that a file the person named (`--report`, `gallery --out`) may
    /// be written: throws as `write(named: true)` would when something not SketchEase's is there.
    public static func checkNamed(_ path: String) throws {
        _ = try OutputPolicy.verdict(for: path, source: nil, overwrite: false, namedDestination: true)
    }

    /// Writes `data` to `path` under the same rule.
    public static func write(_ data: Data, to path: String, source: String? = nil, overwrite: Bool = false,
                             named: Bool = false) throws {
        try write(to: path, source: source, overwrite: overwrite, named: named) { temporary in
            try data.write(to: URL(fileURLWithPath: temporary))
        }
    }
}
