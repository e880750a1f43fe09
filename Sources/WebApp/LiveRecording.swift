import FFmpeg
import Foundation
import SketchEase
import Video

/// A Live recording: what the page recorded (the styled frames as shown, with the
/// microphone's sound, as the browser's MediaRecorder writes them: WebM, or MP4 where it
/// can) made into `OUT/live-<time>.mp4` through the same path as `video` (H.264, the sound
/// kept as recorded where MP4 holds it (Opus), each frame at the time it was recorded);
/// nothing is styled again.
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

    static func save(_ bytes: [UInt8], settings: ServeSettings) throws -> Saved {
        guard !bytes.isEmpty else { throw APIError(status: .unprocessableContent, message: "the recording is empty (0 bytes)") }
        let hidden = (settings.outputFolder as NSString).appendingPathComponent(OutputRecord.folderName)
        try? FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        let received = (hidden as NSString).appendingPathComponent(".recording-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: received, contents: Data(bytes)) else {
            throw APIError(status: .internalServerError, message: "cannot write to \(hidden)")
        }
        defer { try? FileManager.default.removeItem(atPath: received) }
        let stem = "live-" + LiveSession.stamp()
        let name = (PhotoLibrary.unusedPath(in: settings.outputFolder, for: stem + ".mp4") as NSString).lastPathComponent
        let output = (settings.outputFolder as NSString).appendingPathComponent(name)
        let options = ClipOptions(encoding: EncodingSettings(), styles: TrackStyles(others: nil), overwrite: false,
                                  pixelLimit: settings.pixelLimit)
        // Drawn as recorded: no faces to find (the page's frames are styled already).
        let none = ClipTracks(frames: [], width: 0, height: 0, frameRate: 30)
        let report: ClipReport
        do {
            report = try ClipRenderer(options: options) { throw MediaError(path: received, reason: .other("no detector for a recording")) }
                .render(MediaSource(path: received), to: output, tracks: none)
        } catch let error as MediaError {
            throw APIError(status: .unprocessableContent, message: "the recording: \(error.reasonText)")
        }
        return Saved(output: output, name: name, frames: report.frames, duration: report.duration)
    }
}
