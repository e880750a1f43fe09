import FFmpeg
import Foundation
import SketchEase
import Synchronization
import Video

/// A Live recording: what the page recorded (the styled frames as shown, with the
/// microphone's sound, as the browser's MediaRecorder writes them: WebM, or MP4 where it
/// can) made into `OUT/live-<time>.mp4` through the same path as `video` (H.264, the sound as
/// AAC, which every player of MP4 plays, each frame at the time it was recorded); nothing is
/// styled again.
enum LiveRecording {
    struct Saved: Encodable, Sendable {
        var output: String
        var name: String
        var frames: Int
        var duration: Double?
    }

    /// A recording's name as the page may ask for it back: `live-<letters, digits, dashes>.mp4`.
    static func isRecordingName(_ name: String) -> Bool {
        name.hasPrefix("live-") && (name.hasSuffix(".mp4") || name.hasSuffix(".png")) && name.count <= 80
            && name.dropLast(4).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }

    static func hiddenFolder(_ settings: ServeSettings) -> String {
        let hidden = (settings.outputFolder as NSString).appendingPathComponent(OutputRecord.folderName)
        try? FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        return hidden
    }

    /// The recording received in `file` made into `OUT/live-<time>.mp4`.
    static func convert(_ file: String, settings: ServeSettings) throws -> Saved {
        let stem = "live-" + LiveSession.stamp()
        let name = (PhotoLibrary.unusedPath(in: settings.outputFolder, for: stem + ".mp4") as NSString).lastPathComponent
        let output = (settings.outputFolder as NSString).appendingPathComponent(name)
        let options = ClipOptions(encoding: EncodingSettings(), styles: TrackStyles(others: nil), overwrite: false,
                                  pixelLimit: settings.pixelLimit)
        // Drawn as recorded: no faces to find (the page's frames are styled already).
        let none = ClipTracks(frames: [], width: 0, height: 0, frameRate: 30)
        let report: ClipReport
        do {
            report = try ClipRenderer(options: options) { throw MediaError(path: file, reason: .other("no detector for a recording")) }
                .render(MediaSource(path: file), to: output, tracks: none)
        } catch let error as MediaError {
            throw APIError(status: .unprocessableContent, message: "the recording: \(error.reasonText)")
        }
        return Saved(output: output, name: name, frames: report.frames, duration: report.duration)
    }
}

/// Recordings arriving in pieces while they are made (MediaRecorder's chunks, each appended to
/// a hidden file as it comes), so that a recording is never lost with the page: Stop finishes
/// it, and so do the page closing (it says so as it goes, `leave`: the pieces it was still
/// sending are taken for `leavingSeconds` more), a recording that stops receiving pieces for
/// `idleSeconds`, and the server stopping (Ctrl+C).
final class LiveRecordings: Sendable {
    struct Pending: Sendable {
        var file: String
        var lastPiece: Date
        var pieces: Int
        var bytes = 0
        /// The page said it is going away.
        var leaving = false
    }

    private let table = Mutex<[String: Pending]>([:])
    let settings: ServeSettings
    let log: @Sendable (String) -> Void
    static let idleSeconds: TimeInterval = 10
    static let leavingSeconds: TimeInterval = 1.5

    init(settings: ServeSettings, log: @escaping @Sendable (String) -> Void) {
        self.settings = settings; self.log = log
    }

    static func checkID(_ id: String) throws {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw APIError(status: .badRequest, message: "expected ?recording=… (letters, digits and dashes)")
        }
    }

    /// Appends piece `sequence` (0, 1, 2… in order) of recording `id`.
    func append(_ bytes: [UInt8], to id: String, sequence: Int) throws {
        try Self.checkID(id)
        try table.withLock { table in
            var pending = table[id] ?? Pending(file: (LiveRecording.hiddenFolder(settings) as NSString)
                .appendingPathComponent(".recording-\(id).part"), lastPiece: Date(), pieces: 0)
            guard sequence == pending.pieces else {
                throw APIError(status: .conflict, message: "piece \(sequence) of the recording came out of order (expected \(pending.pieces))")
            }
            guard pending.bytes + bytes.count <= settings.recordingLimit else {
                throw APIError(status: .contentTooLarge,
                               message: "the recording has reached \(settings.recordingLimit / 1_000_000) MB, the most one may hold (20 × --max-upload): Stop saves what it has")
            }
            // Not made: the handle below cannot be opened, and says so.
            if pending.pieces == 0 { _ = FileManager.default.createFile(atPath: pending.file, contents: nil) }
            guard let handle = FileHandle(forWritingAtPath: pending.file) else {
                throw APIError(status: .internalServerError, message: "cannot write to \(pending.file.parentPath)")
            }
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
            pending.pieces += 1
            pending.bytes += bytes.count
            pending.lastPiece = Date()
            table[id] = pending
        }
    }

    /// Makes recording `id` into `OUT/live-<time>.mp4`; its pieces are removed. `why`, when it
    /// was not the page's Stop, goes into the log's line.
    func finish(_ id: String, why: String? = nil) throws -> LiveRecording.Saved {
        try Self.checkID(id)
        guard let pending = table.withLock({ $0.removeValue(forKey: id) }) else { throw Self.unknown(id) }
        defer { try? FileManager.default.removeItem(atPath: pending.file) }
        let saved = try LiveRecording.convert(pending.file, settings: settings)
        log("recorded \(saved.output)" + (why.map { " (\($0))" } ?? ""))
        return saved
    }

    /// The page of recording `id` is going away: it is finished once the pieces the page was
    /// still sending have come (none for `leavingSeconds`), not at once (a piece on its way
    /// was refused, and its half second lost) nor after `idleSeconds`.
    func leave(_ id: String) throws {
        try Self.checkID(id)
        try table.withLock { table in
            guard table[id] != nil else { throw Self.unknown(id) }
            table[id]?.leaving = true
            table[id]?.lastPiece = Date()
        }
    }

    /// Finishes the recordings that stopped receiving pieces: those whose page went away
    /// (`leave`), and those whose page went without a word.
    func finishIdle(now: Date = Date()) {
        let idle = table.withLock {
            $0.filter { now.timeIntervalSince($0.value.lastPiece) > ($0.value.leaving ? Self.leavingSeconds : Self.idleSeconds) }
        }
        for (id, pending) in idle { finishOrLog(id, why: pending.leaving ? "its page went away" : "no piece for \(Int(Self.idleSeconds)) s") }
    }

    /// Finishes every recording under way (the server is stopping).
    func finishAll() {
        for id in table.withLock({ Array($0.keys) }) { finishOrLog(id, why: "the server stopped") }
    }

    /// Finishes recording `id` with no page waiting for the answer: a failure goes to the log.
    private func finishOrLog(_ id: String, why: String) {
        do { _ = try finish(id, why: why) } catch { log("recording \(id) not saved: \(APIError(error).message)") }
    }

    private static func unknown(_ id: String) -> APIError {
        APIError(status: .notFound, message: "no recording \(id) (finished already?)")
    }
}
