import FFmpeg
import Foundation
import Testing
import SketchEase
import TestSupport
import Video

/// Clips shared by the video tests, made once per test run.
enum ClipFixtures {
    struct Standard: Sendable {
        let clip: SyntheticClip
        let path: String
        let truths: [[SyntheticClip.Truth]]
    }

    /// The standard synthetic scene at 640×360, 30 fps, 6 s, H.264 + AAC tone (with
    /// SKETCHEASE_SCENE=1080: 1920×1080, 12 s, for measurements at full size).
    static let standard: Result<Standard, Error> = Result {
        let folder = try TestAssets.temporaryFolder("clip-standard")
        let full = ProcessInfo.processInfo.environment["SKETCHEASE_SCENE"] == "1080"
        let clip = full ? SyntheticClip.standard(width: 1920, height: 1080, seconds: 12) : SyntheticClip.standard()
        let path = folder + "/scene.mp4"
        let truths = try clip.write(to: path)
        return Standard(clip: clip, path: path, truths: truths)
    }

    static func detector() throws -> OpenCVFaceDetector { try .centerFace(modelPath: TestAssets.model) }

    /// The standard scene made three times as fast (2 s at 640 × 360: a face sets off from rest
    /// at a quarter of its width a frame), written into a fresh folder.
    struct FastScene {
        let clip: SyntheticClip
        let path: String
        let folder: String
        let truths: [[SyntheticClip.Truth]]

        init(_ label: String) throws {
            folder = try TestAssets.temporaryFolder(label)
            clip = SyntheticClip.standard(width: 640, height: 360, seconds: 2)
            path = folder + "/walk.mp4"
            truths = try clip.write(to: path)
        }

        /// The sprite named `name`'s index.
        func sprite(_ name: String) throws -> Int { try #require(clip.sprites.firstIndex { $0.name == name }) }

        /// The scene with every face in pencil, its frames decoded.
        func drawnInPencil() throws -> [VideoFrame] {
            let out = folder + "/pencil.mp4"
            let options = ClipOptions(encoding: EncodingSettings(crf: 12, preset: "ultrafast"),
                                      styles: TrackStyles(others: try .named("pencil")), overwrite: true)
            _ = try renderer(options).render(MediaSource(path: path), to: out)
            return try ClipRendererTests.frames(out)
        }
    }

    /// How coloured a rectangle of `frame` is: the mean of |R − G| + |G − B| (grey pencil is
    /// near 0, a face as filmed 30 and more), its corners made even and kept in the frame; nil
    /// when nothing of it is left.
    static func colour(of frame: VideoFrame, x: Double, y: Double, width: Double, height: Double) -> Double? {
        let x0 = max(0, Int(x)) & ~1, y0 = max(0, Int(y)) & ~1
        let w = min(Int(width), frame.width - x0) & ~1, h = min(Int(height), frame.height - y0) & ~1
        guard w > 0, h > 0 else { return nil }
        let rgb = frame.rgb(x: x0, y: y0, width: w, height: h)
        var sum = 0
        for p in stride(from: 0, to: rgb.count, by: 3) { sum += abs(Int(rgb[p]) - Int(rgb[p + 1])) + abs(Int(rgb[p + 1]) - Int(rgb[p + 2])) }
        return Double(sum) / Double(w * h)
    }

    static func renderer(_ options: ClipOptions) -> ClipRenderer {
        ClipRenderer(options: options) { try detector() }
    }
}

/// How well tracked faces match the truth.
struct TrackingScore: CustomStringConvertible {
    var visibleFaces = 0
    /// Visible truth faces with no tracked face over them at all.
    var missed = 0
    /// Visible truth faces whose style was not at full strength (fading).
    var partial = 0
    var idSwitches = 0
    /// Truth faces given more than one id over their life.
    var splitFaces = 0
    /// Tracked faces over nothing (no truth face under them).
    var falseFaces = 0
    /// Frame-to-frame change of the box centre's error, as a fraction of the face size.
    var jitter: [Double] = []
    /// Distance of the box centre from the truth, as a fraction of the face size.
    var error: [Double] = []

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    var medianJitter: Double { Self.percentile(jitter, 0.5) }
    var p95Jitter: Double { Self.percentile(jitter, 0.95) }

    var description: String {
        String(format: "visible %d, missed %d, partial %d, id switches %d, split %d, false %d, jitter median %.2f%% p95 %.2f%%, error median %.1f%% p95 %.1f%%",
               visibleFaces, missed, partial, idSwitches, splitFaces, falseFaces, medianJitter * 100, p95Jitter * 100,
               Self.percentile(error, 0.5) * 100, Self.percentile(error, 0.95) * 100)
    }

    /// Scores `frames` (faces per frame: box, id, opacity) against the clip's truths.
    init(truths: [[SyntheticClip.Truth]], frames: [[(box: FaceBox, id: Int, opacity: Double)]]) {
        var ids: [Int: [Int]] = [:]          // sprite -> ids in frame order
        var lastError: [Int: (frame: Int, dx: Double, dy: Double)] = [:]
        for (n, truth) in truths.enumerated() {
            let faces = n < frames.count ? frames[n] : []
            var used = Set<Int>()
            for t in truth {
                let tb = FaceBox(x: t.box.x, y: t.box.y, width: t.box.width, height: t.box.height)
                let best = faces.enumerated().filter { $0.element.opacity > 0 }.max { $0.element.box.iou(tb) < $1.element.box.iou(tb) }
                let size = (t.box.width * t.box.height).squareRoot()
                guard let best, best.element.box.iou(tb) >= 0.3 else {
                    if t.visible, ProcessInfo.processInfo.environment["SKETCHEASE_TRACK_DEBUG"] != nil {
                        print("missed: frame \(n) sprite \(t.sprite) inside \(t.inside) covered \(t.covered) truth \(t.box) best \(best.map { "\($0.element.box) iou \($0.element.box.iou(tb))" } ?? "none")")
                    }
                    if t.visible { visibleFaces += 1; missed += 1 }
                    continue
                }
                used.insert(best.offset)
                if t.visible { ids[t.sprite, default: []].append(best.element.id) }
                let dx = best.element.box.center.x - tb.center.x, dy = best.element.box.center.y - tb.center.y
                if t.visible {
                    visibleFaces += 1
                    if best.element.opacity < 0.999 { partial += 1 }
                    error.append((dx * dx + dy * dy).squareRoot() / size)
                    if let last = lastError[t.sprite], last.frame == n - 1 {
                        let jx = dx - last.dx, jy = dy - last.dy
                        jitter.append((jx * jx + jy * jy).squareRoot() / size)
                    }
                    lastError[t.sprite] = (n, dx, dy)
                }
            }
            let unmatched = faces.indices.filter { !used.contains($0) && faces[$0].opacity > 0.5 }
            if !unmatched.isEmpty, ProcessInfo.processInfo.environment["SKETCHEASE_TRACK_DEBUG"] != nil {
                print("false: frame \(n) \(unmatched.map { "id \(faces[$0].id) \(faces[$0].box) opacity \(faces[$0].opacity)" })")
            }
            falseFaces += unmatched.count
        }
        if ProcessInfo.processInfo.environment["SKETCHEASE_TRACK_DEBUG"] != nil {
            for (sprite, sequence) in ids.sorted(by: { $0.key < $1.key }) { print("sprite \(sprite): \(sequence.map(String.init).joined(separator: " "))") }
        }
        for (_, sequence) in ids {
            idSwitches += zip(sequence, sequence.dropFirst()).filter { $0 != $1 }.count
            if Set(sequence).count > 1 { splitFaces += 1 }
        }
    }
}
