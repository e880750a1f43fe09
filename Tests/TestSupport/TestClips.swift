import Foundation
import Vips

/// Video clips for tests, generated here (never committed): FFmpeg's `ffmpeg` command makes
/// the odd ones (codecs, containers, rotation, damage) and `SyntheticClip` draws one from
/// the example photos with known motion, so every face's true box is known on every frame.
public enum TestClips {
    /// Runs `ffmpeg -v error -y ARGS` (stdin from `input` if given); throws with its stderr on failure.
    public static func ffmpeg(_ arguments: [String], input: ((FileHandle) throws -> Void)? = nil) throws {
        try run("ffmpeg", ["-nostdin", "-v", "error", "-y"].filter { input == nil || $0 != "-nostdin" } + arguments, input: input)
    }

    /// Runs `ffprobe -v error ARGS` and returns its standard output.
    public static func ffprobe(_ arguments: [String]) throws -> String {
        try run("ffprobe", ["-v", "error"] + arguments)
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], input: ((FileHandle) throws -> Void)? = nil) throws -> String {
        let child = try ChildProcess("/usr/bin/env", [tool] + arguments, input: input != nil)
        nonisolated(unsafe) var feedError: Error?
        let fed = DispatchGroup()
        let feed = input.map(Feeder.init)
        if let feed, let stdin = child.standardInput {
            // Fed on its own thread while both outputs are read, so no pipe can fill and stall.
            fed.enter()
            Thread.detachNewThread {
                do { try feed.write(stdin) } catch { feedError = error }
                try? stdin.close()
                fed.leave()
            }
        }
        let (status, outData, errData) = child.outputs(timeout: 300)
        fed.wait()
        if let feedError { throw feedError }
        guard status == 0 else {
            throw ToolError(message: "\(tool) \(arguments.joined(separator: " ")): \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self)
    }

    /// What a test writes to a tool's standard input, handed to the thread that writes it.
    private struct Feeder: @unchecked Sendable {
        var write: (FileHandle) throws -> Void
    }

    public struct ToolError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A generated test pattern with a tone: `ffmpeg -f lavfi testsrc2` plus any output arguments.
    public static func pattern(_ path: String, width: Int = 320, height: Int = 240, rate: String = "30", seconds: Double = 1,
                               audio: Bool = true, output: [String] = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]) throws {
        var args = ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(rate):duration=\(seconds)"]
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
        args += output
        if audio { args += ["-c:a", "aac", "-shortest"] }
        try ffmpeg(args + [path])
    }

    /// Per-frame lines of `ffprobe -show_frames` for one stream: "pts_time,..." entries.
    public static func frameTimes(_ path: String, stream: String = "v:0") throws -> [String] {
        try ffprobe(["-select_streams", stream, "-show_entries", "frame=pts", "-of", "csv=p=0", path])
            .split(separator: "\n").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
    }

    /// Each video frame's presentation time in seconds.
    public static func frameSeconds(_ path: String) throws -> [Double] {
        try ffprobe(["-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    /// Per-packet "pts,size" and a checksum of each packet's data, for one stream.
    public static func packets(_ path: String, stream: String) throws -> [String] {
        try ffprobe(["-select_streams", stream, "-show_entries", "packet=pts,size", "-show_data_hash", "MD5", "-of", "csv=p=0", path])
            .split(separator: "\n").map(String.init)
    }
}

/// A box in pixels, for truths.
public struct TruthBox: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var centerX: Double { x + width / 2 }
    public var centerY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var area: Double { max(0, width) * max(0, height) }

    public func intersectionArea(_ o: TruthBox) -> Double {
        max(0, min(maxX, o.maxX) - max(x, o.x)) * max(0, min(maxY, o.maxY) - max(y, o.y))
    }

    public func iou(_ o: TruthBox) -> Double {
        let i = intersectionArea(o)
        return i / max(area + o.area - i, 1e-9)
    }
}

/// A clip drawn from the example photos: head-and-shoulders cut-outs moving over a wall along
/// straight-line keyframes, with a tone. Each face's true box on every frame follows from
/// where its cut-out was put and how large (its box in the photo is what the detector finds
/// on the still photo).
public struct SyntheticClip: Sendable {
    public struct Key: Sendable {
        public var time: Double, centerX: Double, centerY: Double, scale: Double
        public init(_ time: Double, _ centerX: Double, _ centerY: Double, _ scale: Double = 1) {
            self.time = time; self.centerX = centerX; self.centerY = centerY; self.scale = scale
        }
    }

    public struct Sprite: Sendable {
        public var name: String
        public var photo: String
        /// The cut-out: x, y, width, height in the photo.
        public var crop: TruthBox
        /// The face's box in the photo.
        public var face: TruthBox
        public var mirrored: Bool
        /// Where the cut-out's centre is, and its scale (1 = the photo's size), over time;
        /// before the first and after the last key it is off screen.
        public var keys: [Key]
        public init(name: String, photo: String, crop: TruthBox, face: TruthBox, mirrored: Bool = false, keys: [Key]) {
            self.name = name; self.photo = photo; self.crop = crop; self.face = face; self.mirrored = mirrored; self.keys = keys
        }
    }

    /// One face on one frame.
    public struct Truth: Sendable {
        public var sprite: Int
        public var box: TruthBox
        /// Share of the face box inside the frame, 0...1.
        public var inside: Double
        /// Share of the face box covered by cut-outs drawn over it, 0...1.
        public var covered: Double
        /// In the frame and not hidden: a face a viewer sees (and the style must cover).
        public var visible: Bool { inside >= 0.75 && covered <= 0.25 }
    }

    public var width: Int, height: Int, frameRate: Int, seconds: Double
    /// Back to front.
    public var sprites: [Sprite]

    public init(width: Int, height: Int, frameRate: Int, seconds: Double, sprites: [Sprite]) {
        self.width = width; self.height = height; self.frameRate = frameRate; self.seconds = seconds; self.sprites = sprites
    }

    public var frameCount: Int { Int((seconds * Double(frameRate)).rounded()) }

    /// Grace Hopper's and the astronaut's faces as CenterFace finds them in the example photos.
    public static let hopperFace = TruthBox(x: 174.8, y: 131.5, width: 182.2, height: 204.8)
    public static let astronautFace = TruthBox(x: 181.5, y: 58.2, width: 88.4, height: 119.6)

    /// The standard test scene, `seconds` long, at `width`×`height` (16:9 looks right): a face
    /// panning across, one zooming in, two crossing (one passing in front of the other), one
    /// entering from the right and leaving again. `scale` sizes the cut-outs to the frame.
    public static func standard(width: Int = 640, height: Int = 360, frameRate: Int = 30, seconds: Double = 6) -> SyntheticClip {
        let w = Double(width), h = Double(height), k = h / 360, T = seconds
        let hopperCrop = TruthBox(x: 110, y: 70, width: 310, height: 330)
        let astronautCrop = TruthBox(x: 120, y: 10, width: 210, height: 240)
        return SyntheticClip(width: width, height: height, frameRate: frameRate, seconds: seconds, sprites: [
            // Zooming in, slowly drifting: bottom left.
            Sprite(name: "zoom", photo: TestAssets.astronaut, crop: astronautCrop, face: astronautFace,
                   keys: [Key(0, w * 0.16, h * 0.62, 0.55 * k), Key(T, w * 0.2, h * 0.6, 0.9 * k)]),
            // Two crossing: the lower passes behind the upper one in the middle of the clip.
            Sprite(name: "cross-behind", photo: TestAssets.astronaut, crop: astronautCrop, face: astronautFace, mirrored: true,
                   keys: [Key(0, w * 0.82, h * 0.42, 0.6 * k), Key(T, w * 0.42, h * 0.44, 0.6 * k)]),
            Sprite(name: "cross-front", photo: TestAssets.graceHopper, crop: hopperCrop, face: hopperFace,
                   keys: [Key(0, w * 0.4, h * 0.38, 0.42 * k), Key(T, w * 0.78, h * 0.36, 0.42 * k)]),
            // Entering from the right, pausing, leaving to the right.
            Sprite(name: "visitor", photo: TestAssets.graceHopper, crop: hopperCrop, face: hopperFace, mirrored: true,
                   keys: [Key(T * 0.15, w + 90 * k, h * 0.72, 0.3 * k), Key(T * 0.35, w - 70 * k, h * 0.72, 0.3 * k),
                          Key(T * 0.65, w - 70 * k, h * 0.72, 0.3 * k), Key(T * 0.85, w + 90 * k, h * 0.72, 0.3 * k)]),
        ])
    }

    /// Where sprite `s` is at time `t`: its cut-out's size in whole pixels (as resizing gives
    /// it), the scale that is, and its top-left corner (sub-pixel), or nil off screen.
    public func placement(_ s: Int, at t: Double) -> (rect: TruthBox, scaleX: Double, scaleY: Double, scale: Double)? {
        let keys = sprites[s].keys
        guard let first = keys.first, let last = keys.last, t >= first.time, t <= last.time else { return nil }
        var a = first, b = first
        for (i, key) in keys.enumerated() where key.time <= t { a = key; b = i + 1 < keys.count ? keys[i + 1] : key }
        let f = b.time > a.time ? (t - a.time) / (b.time - a.time) : 0
        let cx = a.centerX + (b.centerX - a.centerX) * f, cy = a.centerY + (b.centerY - a.centerY) * f
        let scale = a.scale + (b.scale - a.scale) * f
        let crop = sprites[s].crop
        let w = max(1, (crop.width * scale).rounded()), h = max(1, (crop.height * scale).rounded())
        return (TruthBox(x: cx - w / 2, y: cy - h / 2, width: w, height: h), w / crop.width, h / crop.height, scale)
    }

    /// Every face's truth on frame `n`.
    public func truths(frame n: Int) -> [Truth] {
        let t = Double(n) / Double(frameRate)
        let placed = sprites.indices.map { placement($0, at: t) }
        var out: [Truth] = []
        let frame = TruthBox(x: 0, y: 0, width: Double(width), height: Double(height))
        for (s, p) in placed.enumerated() {
            guard let p else { continue }
            let sprite = sprites[s]
            var fx = (sprite.face.x - sprite.crop.x) * p.scaleX
            if sprite.mirrored { fx = p.rect.width - fx - sprite.face.width * p.scaleX }
            let box = TruthBox(x: p.rect.x + fx, y: p.rect.y + (sprite.face.y - sprite.crop.y) * p.scaleY,
                               width: sprite.face.width * p.scaleX, height: sprite.face.height * p.scaleY)
            let inside = box.intersectionArea(frame) / box.area
            // Covered: by the cut-outs drawn after (over) this one; overlaps between those are rare.
            let covered = placed[(s + 1)...].compactMap { $0 }.map { box.intersectionArea($0.rect) }.reduce(0, +) / box.area
            out.append(Truth(sprite: s, box: box, inside: inside, covered: min(1, covered)))
        }
        return out
    }

    /// Draws frame `n` (8-bit RGB).
    public func render(frame n: Int, cutouts: [VipsImage]) throws -> VipsImage {
        let t = Double(n) / Double(frameRate)
        // A soft diagonal gradient wall, as a room would have.
        let coords = try VipsImage.coordinates(width: width, height: height)
        let ramp = try coords.extractBands(0).linear(0.04 * 360 / Double(height), 0)
            .add(coords.extractBands(1).linear(0.05 * 360 / Double(height), 0))
        var canvas = try VipsImage.bandjoin([ramp.linear(1, 150), ramp.linear(1, 140), ramp.linear(1, 128)]).cast(.uchar)
        for s in sprites.indices {
            guard let p = placement(s, at: t) else { continue }
            // Resized to whole pixels, then shifted by the sub-pixel rest of its position
            // (bilinear), so the truth moves as smoothly as the picture.
            let piece = try cutouts[s].resize(scale: p.scaleX, verticalScale: p.scaleY)
                .crop(x: 0, y: 0, width: Int(p.rect.width), height: Int(p.rect.height))
            let opaque = try piece.bandjoin(VipsImage.solid(width: piece.width, height: piece.height, pixel: [255]))
            let placed = try VipsCall.image("affine", [
                "in": .image(opaque), "matrix": .doubles([1, 0, 0, 1]),
                "odx": .double(p.rect.x), "ody": .double(p.rect.y),
                "oarea": .ints([0, 0, width, height]), "extend": .nick("background"), "background": .doubles([0]),
            ])
            canvas = try placed.extractBands(3).ifThenElse(placed.extractBands(0, count: 3), canvas, blend: true).cast(.uchar)
        }
        return try canvas.crop(x: 0, y: 0, width: width, height: height).inMemory()
    }

    /// The cut-outs, one per sprite (cropped, mirrored where asked).
    public func cutouts() throws -> [VipsImage] {
        try sprites.map { s in
            var image = try VipsImage.load(path: s.photo).extractBands(0, count: 3)
            image = try image.crop(x: Int(s.crop.x), y: Int(s.crop.y), width: Int(s.crop.width), height: Int(s.crop.height))
            return try (s.mirrored ? image.flipped("horizontal") : image).inMemory()
        }
    }

    /// Encodes the clip (H.264 in MP4 unless `output` says otherwise) with a 440 Hz tone;
    /// returns every frame's truths.
    @discardableResult
    public func write(to path: String, audio: Bool = true,
                      output: [String] = ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "16", "-pix_fmt", "yuv420p"]) throws -> [[Truth]] {
        let cut = try cutouts()
        var args = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-r", "\(frameRate)", "-i", "-"]
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
        args += output
        if audio { args += ["-c:a", "aac", "-b:a", "96k", "-shortest"] }
        let frames = frameCount
        try TestClips.ffmpeg(args + [path]) { pipe in
            for n in 0..<frames {
                try pipe.write(contentsOf: Data(try self.render(frame: n, cutouts: cut).pixels()))
            }
        }
        return (0..<frames).map { truths(frame: $0) }
    }
}
