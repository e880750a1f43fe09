import FFmpeg
import Foundation
import SketchEase
import TestSupport
import Vips
import Video

/// Clips for tracking around occlusions, small faces and the frame edge (issue 22 part 2,
/// item 3.2), made once per test run.
enum OcclusionClips {
    /// A group of five small faces (50–80 px at 720p) panning right while a dark bar moves left
    /// over them, hiding each for about half a second; the bar is the last sprite.
    struct Group: Sendable {
        let clip: SyntheticClip
        let path: String
        let truths: [[SyntheticClip.Truth]]
        var bar: Int { clip.sprites.count - 1 }
        /// The bar's rectangle on frame `n`, or nil when it is off screen.
        func barRect(frame n: Int) -> TruthBox? {
            clip.placement(bar, at: Double(n) / Double(clip.frameRate))?.rect
        }
    }

    static let group: Result<Group, Error> = Result {
        let folder = try TestAssets.temporaryFolder("clip-occlusion")
        let full = ProcessInfo.processInfo.environment["SKETCHEASE_SCENE"] == "1080"
        let (width, height) = full ? (1920, 1080) : (1280, 720)
        let k = Double(height) / 720
        // The occluder: a solid dark bar, taller than the frame.
        let barPath = folder + "/bar.png"
        let barWidth = 220.0, barHeight = 760.0
        try VipsImage.solid(width: Int(barWidth), height: Int(barHeight), pixel: [34, 32, 38]).cast(.uchar).savePNG(path: barPath)
        let hopperCrop = TruthBox(x: 110, y: 70, width: 310, height: 330)
        let astronautCrop = TruthBox(x: 120, y: 10, width: 210, height: 240)
        let T = 5.0, speed = 120.0 * k
        // Face widths (720p pixels), left to right; Hopper and the astronaut in turn.
        let sizes = [56.0, 64, 52, 76, 60]
        var sprites: [SyntheticClip.Sprite] = []
        for (i, size) in sizes.enumerated() {
            let hopper = i % 2 == 0
            let scale = size * k / (hopper ? SyntheticClip.hopperFace.width : SyntheticClip.astronautFace.width)
            let x0 = (120 + 150 * Double(i)) * k, y = (i % 2 == 0 ? 330 : 420) * k
            sprites.append(SyntheticClip.Sprite(
                name: "small-\(i)", photo: hopper ? TestAssets.graceHopper : TestAssets.astronaut,
                crop: hopper ? hopperCrop : astronautCrop, face: hopper ? SyntheticClip.hopperFace : SyntheticClip.astronautFace,
                mirrored: i % 3 == 1, keys: [.init(0, x0, y, scale), .init(T, x0 + speed * T, y, scale)]))
        }
        let barStart = Double(width) + barWidth * k / 2
        sprites.append(SyntheticClip.Sprite(
            name: "bar", photo: barPath, crop: TruthBox(x: 0, y: 0, width: barWidth, height: barHeight),
            face: TruthBox(x: 0, y: 0, width: barWidth, height: barHeight),
            keys: [.init(0, barStart, Double(height) / 2, k), .init(T, barStart - 200 * k * T, Double(height) / 2, k)]))
        let clip = SyntheticClip(width: width, height: height, frameRate: 30, seconds: T, sprites: sprites)
        let path = folder + "/group.mp4"
        let truths = try clip.write(to: path, audio: false)
        return Group(clip: clip, path: path, truths: truths.map { $0.filter { $0.sprite != sprites.count - 1 } })
    }

    /// A 640×360 window panning over `examples/group.jpg` at 200 px/s, 25 fps, 5 s (FFmpeg's
    /// crop filter): Grace Hopper's face comes in on the right and leaves on the left.
    struct Pan: Sendable {
        let path: String
        let frames: Int
        /// Grace Hopper's face box on frame `n` (it may reach past the frame's edges).
        func hopper(frame n: Int) -> TruthBox {
            let x = min(Double(8 * n), 1500 - 640)
            return TruthBox(x: 580 + SyntheticClip.hopperFace.x - x, y: 60 + SyntheticClip.hopperFace.y - Pan.top,
                            width: SyntheticClip.hopperFace.width, height: SyntheticClip.hopperFace.height)
        }
        static let top = 100.0
    }

    static let pan: Result<Pan, Error> = Result {
        let folder = try TestAssets.temporaryFolder("clip-pan")
        let path = folder + "/pan.mp4"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "25", "-t", "5", "-i", TestAssets.group,
                              "-vf", "crop=640:360:'min(200*t,iw-ow)':\(Int(Pan.top))", "-c:v", "libx264", "-preset", "ultrafast",
                              "-crf", "16", "-pix_fmt", "yuv420p", path])
        return Pan(path: path, frames: 125)
    }
}
