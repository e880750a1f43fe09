import FaceDetector
import Foundation
import TestSupport
import Vips

/// A fake camera for Live's browser test, with a known face path: the example group photo
/// (three faces, 700 px wide, letterboxed to 480 px in green, as a green screen) seen through a 640×480 window that pans
/// 60 px to the right and back in 4 s at 15 frames a second, 2 px a frame, so that Chromium's
/// loop of it is seamless. Frame `k` shows the photo at `offset(k)`; its faces are the photo's
/// faces moved by that much.
struct PanningCamera {
    static let width = 640, height = 480, frames = 60, travel = 60
    static let green: [Double] = [0, 177, 64]

    /// The photo the window pans over (`width + travel` × `height`).
    let photo: VipsImage
    private let pixels: [UInt8]
    /// Its faces, as the face network finds them on it.
    let faces: [FaceBox]

    init() throws {
        let group = try VipsImage.load(path: TestAssets.group).extractBands(0, count: 3)
        let small = try group.resize(scale: Double(Self.width + Self.travel) / Double(group.width))
        photo = try VipsImage.solid(width: small.width, height: Self.height, pixel: Self.green)
            .inserting(small, x: 0, y: (Self.height - small.height) / 2).inMemory()
        pixels = try photo.pixels()
        faces = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model).detect(in: photo).map(\.box)
    }

    /// How far the window is to the right on frame `k` of the loop.
    static func offset(_ k: Int) -> Int {
        let p = k % frames
        return 2 * (p <= frames / 2 ? p : frames - p)
    }

    /// The photo's pixel (x, y) of the window at `offset`, channel `c`.
    private func seen(_ x: Int, _ y: Int, _ c: Int, offset: Int) -> Int {
        Int(pixels[(y * photo.width + x + offset) * 3 + c])
    }

    /// Frame `k` of the loop: what the window shows, as RGB bytes.
    func window(_ k: Int) -> [UInt8] {
        let rowBytes = Self.width * 3
        var frame = [UInt8](); frame.reserveCapacity(rowBytes * Self.height)
        for y in 0..<Self.height {
            let start = (y * photo.width + Self.offset(k)) * 3
            frame += pixels[start..<(start + rowBytes)]
        }
        return frame
    }

    /// Writes the loop as Y4M, what Chromium's fake camera plays.
    func write(to path: String) throws {
        try TestClips.ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(Self.width)x\(Self.height)", "-r", "15", "-i", "-",
                              "-pix_fmt", "yuv420p", path]) { pipe in
            for k in 0..<Self.frames { try pipe.write(contentsOf: Data(window(k))) }
        }
    }

    /// What a recording of Live drew over this camera. Each of its frames is matched to the
    /// window it shows (the offset whose picture is closest to it away from the heads), then
    /// measured there: how much the middle of each face changed (the least over every face and
    /// frame) and how much of its colour it kept (the most), and how much the picture away
    /// from the heads changed (the most over every frame).
    struct Drawn: CustomStringConvertible {
        var frames = 0
        var weakestFace = Double.infinity
        /// The most colour any face kept of the camera's (0: grey, 1: as filmed).
        var colourKept = 0.0
        var wall = 0.0
        var offsets: [Int] = []
        /// "frame:face x:colour kept" of each face that kept 0.3 of its colour or more.
        var undrawn: [String] = []
        /// Frames on which every face kept under 0.3 of its colour.
        var allDrawn = 0
        var description: String {
            "\(frames) frames, weakest face change \(String(format: "%.1f", weakestFace)), colour kept \(String(format: "%.2f", colourKept)), wall \(String(format: "%.1f", wall)), offsets \(offsets), coloured (frame:face:kept) \(undrawn)"
        }
    }

    func drawnFaces(in recording: String) throws -> Drawn {
        let raw = try TestAssets.temporaryFolder("live-recorded") + "/frames.rgb"
        try TestClips.ffmpeg(["-i", recording, "-vf", "scale=\(Self.width):\(Self.height)", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let frameBytes = Self.width * Self.height * 3
        // Away from the heads: outside each face box grown to 2.4 times its size, every 6th pixel.
        let heads = faces.map { $0.grown(by: 2.4) }
        let wallSamples = stride(from: 0, to: Self.height, by: 6).flatMap { y in
            stride(from: 0, to: Self.width + Self.travel, by: 6).map { (x: $0, y: y) }
        }.filter { p in !heads.contains { $0.contains(Point(x: Double(p.x), y: Double(p.y))) } }
        var drawn = Drawn()
        for f in 0..<(bytes.count / frameBytes) {
            let base = f * frameBytes
            func difference(_ points: [(x: Int, y: Int)], offset: Int) -> Double {
                var total = 0, n = 0
                for p in points where p.x >= offset && p.x < offset + Self.width {
                    let i = base + (p.y * Self.width + p.x - offset) * 3
                    for c in 0..<3 { total += abs(Int(bytes[i + c]) - seen(p.x - offset, p.y, c, offset: offset)); n += 1 }
                }
                return n == 0 ? .infinity : Double(total) / Double(n)
            }
            // How coloured the points are (the mean of each pixel's largest channel less its
            // smallest), in the recording or in the camera's window.
            func colour(_ points: [(x: Int, y: Int)], offset: Int, recorded: Bool) -> Double {
                var total = 0, n = 0
                for p in points where p.x >= offset && p.x < offset + Self.width {
                    let i = base + (p.y * Self.width + p.x - offset) * 3
                    let rgb = (0..<3).map { recorded ? Int(bytes[i + $0]) : seen(p.x - offset, p.y, $0, offset: offset) }
                    total += rgb.max()! - rgb.min()!; n += 1
                }
                return n == 0 ? 0 : Double(total) / Double(n)
            }
            let (offset, wall) = (0...Self.travel).map { ($0, difference(wallSamples, offset: $0)) }.min { $0.1 < $1.1 }!
            drawn.offsets.append(offset)
            drawn.wall = max(drawn.wall, wall)
            for face in faces {
                // The middle half of the face, where the window shows it.
                let x0 = Int(face.x + face.width / 4), y0 = Int(face.y + face.height / 4)
                let points = (y0..<(y0 + Int(face.height / 2))).flatMap { y in (x0..<(x0 + Int(face.width / 2))).map { (x: $0, y: y) } }
                drawn.weakestFace = min(drawn.weakestFace, difference(points, offset: offset))
                let kept = colour(points, offset: offset, recorded: true) / max(colour(points, offset: offset, recorded: false), 1)
                drawn.colourKept = max(drawn.colourKept, kept)
                if kept >= 0.3 { drawn.undrawn.append("\(f):\(Int(face.x)):\(String(format: "%.2f", kept))") }
            }
            drawn.frames += 1
            if !drawn.undrawn.contains(where: { $0.hasPrefix("\(f):") }) { drawn.allDrawn += 1 }
        }
        return drawn
    }
}
