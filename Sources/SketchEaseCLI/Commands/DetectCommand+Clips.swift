import FFmpeg
import Foundation
import SketchEase
import Video

/// `detect` on a clip: its tracks, frame by frame.
extension DetectCommand {
    /// One entry of `detect --json`: a photo's faces or a clip's tracks.
    enum DetectResult: Encodable {
        case photo(PhotoFaces)
        case clip(ClipFaces)

        func encode(to encoder: Encoder) throws {
            switch self {
            case .photo(let p): try p.encode(to: encoder)
            case .clip(let c): try c.encode(to: encoder)
            }
        }
    }

    struct ClipFaces: Encodable {
        var file: String
        var width: Int
        var height: Int
        var frames: Int
        var duration: Double
        var detector: String
        var tracks: [TrackJSON]
    }

    struct TrackJSON: Encodable {
        var id: Int
        var boxes: [TrackBoxJSON]
    }

    struct TrackBoxJSON: Encodable {
        var frame: Int
        var time: Double
        var box: [Double]
        var score: Double
        var landmarks: [String: [Double]]
        /// Below 1 while the style fades in or out; left out at 1.
        var opacity: Double?
        /// True where the detector found the face on this very frame with nothing in front of
        /// it; left out where its box was followed between sightings (or something covers it).
        var seen: Bool?
    }

    func clipTracks(_ path: String, detector: OpenCVFaceDetector) throws -> ClipFaces {
        let options = ClipOptions(detection: detection.options, tracking: tracking.settings, styles: TrackStyles(others: nil),
                                  pixelLimit: limits.maxPixels)
        let (tracks, report) = try ClipRenderer(options: options) { detector }.track(MediaSource(path: path))
        if let warning = report.damageWarning { Terminal.warn(warning) }
        var byID: [Int: [TrackBoxJSON]] = [:]
        for frame in tracks.frames {
            for face in frame.faces {
                byID[face.id, default: []].append(TrackBoxJSON(
                    frame: frame.index, time: Rounding.decimals(frame.time, 3),
                    box: face.box.array.map { Rounding.decimals($0, 1) }, score: Rounding.decimals(face.score, 3),
                    landmarks: FaceAssessment.landmarkTable(face.landmarks),
                    opacity: face.opacity < 1 ? Rounding.decimals(face.opacity, 2) : nil,
                    seen: face.detected && face.cover == nil ? true : nil))
            }
        }
        return ClipFaces(file: path, width: tracks.width, height: tracks.height, frames: report.frames,
                         duration: Rounding.decimals(report.duration, 3), detector: detector.kind.rawValue,
                         tracks: byID.keys.sorted().map { TrackJSON(id: $0, boxes: byID[$0]!) })
    }

    func printTable(_ clip: ClipFaces) {
        print("\(clip.file): \(Terminal.count(clip.tracks.count, "track")) (\(clip.width)×\(clip.height), \(clip.frames) frames, \(Rounding.text(clip.duration, places: 1)) s)")
        for track in clip.tracks {
            // The clearest where the face was seen (as the contact sheet picks its picture): a
            // followed box may lie on a face in front of it.
            let seen = track.boxes.filter { $0.seen == true }
            guard let first = track.boxes.first, let last = track.boxes.last,
                  let best = (seen.isEmpty ? track.boxes : seen).max(by: { $0.score * $0.box[2] < $1.score * $1.box[2] }) else { continue }
            let b = best.box.map { String(Rounding.pixels($0)) }
            print("  \(track.id). frames \(first.frame)–\(last.frame) (\(Rounding.text(first.time, places: 1))–\(Rounding.text(last.time, places: 1)) s), "
                  + "clearest at frame \(best.frame): x=\(b[0]) y=\(b[1]) w=\(b[2]) h=\(b[3])  score \(Rounding.score(best.score))")
        }
    }
}
