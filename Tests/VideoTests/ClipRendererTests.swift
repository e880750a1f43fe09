import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
@testable import Video

/// Whole clips through the pipeline: what comes out next to what went in.
@Suite struct ClipRendererTests {
    func render(_ input: String, to output: String, style: String = "pencil", encoding: EncodingSettings = .init(),
                tracking: TrackerSettings = .init()) throws -> ClipReport {
        let options = ClipOptions(tracking: tracking, encoding: encoding, styles: TrackStyles(others: try .named(style)), overwrite: true)
        return try ClipFixtures.renderer(options).render(MediaSource(path: input), to: output)
    }

    /// Every decoded frame of a clip, in order.
    static func frames(_ path: String) throws -> [VideoFrame] {
        let reader = try MediaReader(MediaSource(path: path))
        var frames: [VideoFrame] = []
        while let item = try reader.next() { if case .frame(let f) = item { frames.append(f) } }
        return frames
    }

    /// Mean absolute difference of the luma of two frames over a box (clipped to the frame).
    static func difference(_ a: VideoFrame, _ b: VideoFrame, in box: TruthBox) -> Double {
        let x0 = max(0, Int(box.x)), y0 = max(0, Int(box.y))
        let x1 = min(a.width, Int(box.maxX)), y1 = min(a.height, Int(box.maxY))
        guard x1 > x0, y1 > y0 else { return 0 }
        var sum = 0
        for row in y0..<y1 {
            let la = a.lumaRow(row), lb = b.lumaRow(row)
            for col in x0..<x1 { sum += abs(Int(la[col]) - Int(lb[col])) }
        }
        return Double(sum) / Double((x1 - x0) * (y1 - y0))
    }

    /// One render of the synthetic scene (the same clip checked two ways, to keep the suite quick).
    @Test func framesTimestampsAndSoundComeThroughAndEveryVisibleFaceIsDrawn() throws {
        let scene = try ClipFixtures.standard.get()
        let out = try TestAssets.temporaryFolder("clip-out") + "/scene.mp4"
        let report = try render(scene.path, to: out, encoding: EncodingSettings(crf: 12))
        #expect(report.frames == scene.clip.frameCount)
        #expect(report.streamNotes == ["audio stream 1 (aac): copied"])
        #expect(try TestClips.frameTimes(out) == TestClips.frameTimes(scene.path))
        #expect(try TestClips.packets(out, stream: "a:0") == TestClips.packets(scene.path, stream: "a:0"))
        let probe = try TestClips.ffprobe(["-show_entries", "stream=codec_name,pix_fmt,width,height,duration", "-of", "csv=p=0", out])
        let source = try TestClips.ffprobe(["-show_entries", "stream=duration", "-of", "csv=p=0", scene.path])
        #expect(probe.split(separator: "\n").first?.hasPrefix("h264,640,360,yuv420p") == true)
        #expect(probe.split(separator: "\n").map { $0.split(separator: ",").last! } == source.split(separator: "\n").map { $0.split(separator: ",").last! })

        // Every face a viewer sees is drawn on every frame; the wall is left as it was.
        let before = try Self.frames(scene.path), after = try Self.frames(out)
        #expect(before.count == after.count)
        var faint: [String] = []
        var wall: [Double] = []
        for (n, truths) in scene.truths.enumerated() where n < after.count {
            for t in truths where t.visible {
                let inner = TruthBox(x: t.box.x + t.box.width * 0.2, y: t.box.y + t.box.height * 0.2,
                                     width: t.box.width * 0.6, height: t.box.height * 0.6)
                let d = Self.difference(before[n], after[n], in: inner)
                // Drawings keep the face's tone (--tone photo), so a drawn face differs from the
                // film by its lines and grain (10-20 grey levels on average), an undrawn one by
                // the encoder's noise (under 1.5, as the wall shows).
                if d < 6 { faint.append("frame \(n) face \(t.sprite): \(d)") }
            }
            // A patch of wall no cut-out ever reaches (top left corner).
            wall.append(Self.difference(before[n], after[n], in: TruthBox(x: 4, y: 4, width: 40, height: 30)))
        }
        #expect(faint.isEmpty, "faces left as filmed: \(faint.prefix(5))")
        #expect((wall.max() ?? 0) < 1.5)
    }

    @Test func aStillFaceKeepsStillStrokes() throws {
        // A still photo for 2 s, stored losslessly: every input frame the same.
        let folder = try TestAssets.temporaryFolder("still")
        let input = folder + "/still.mkv"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "15", "-t", "2", "-i", TestAssets.graceHopper,
                              "-vf", "scale=320:376", "-c:v", "ffv1", "-pix_fmt", "yuv420p", input])
        let out = folder + "/still.mp4"
        _ = try render(input, to: out, encoding: EncodingSettings(crf: 0, preset: "ultrafast"))
        let frames = try Self.frames(out)
        #expect(frames.count == 30)
        let face = TruthBox(x: 100, y: 70, width: 130, height: 150)
        let original = try Self.frames(input)
        #expect(Self.difference(original[20], frames[20], in: face) > 12)  // it is drawn
        // After the fade-in, frame after frame the drawing stays put: at most a few pixels of
        // the mask's soft edge move by a level as the box settles (a new grain or stroke
        // pattern on each frame would change most pixels of the face by 5-20 levels).
        let changes = (10..<29).map { Self.difference(frames[$0], frames[$0 + 1], in: face) }
        #expect(changes.allSatisfy { $0 < 0.02 }, "\(changes)")
    }

    /// A clip with nothing white in it (a portrait filmed at a quarter of the light) has its
    /// faces drawn at a normal exposure, the clip's white followed from frame to frame
    /// (`FrameExposure`): lifted as the same picture is lifted as a photo, and as still as
    /// any still face once the light is followed.
    @Test func aDimClipsFacesAreLiftedAsItsPhotoIs() throws {
        let folder = try TestAssets.temporaryFolder("dim")
        let still = folder + "/dim.png", input = folder + "/dim.mkv", out = folder + "/dim.mp4"
        let dim = try VipsImage.load(path: TestAssets.graceHopper).resize(scale: 320.0 / 512)
            .colourspace(.scrgb).linear(0.25, 0).colourspace(.srgb).cast(.uchar)
        try dim.save(path: still)
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "15", "-t", "2", "-i", still, "-c:v", "ffv1", "-pix_fmt", "yuv420p", input])
        _ = try render(input, to: out, encoding: EncodingSettings(crf: 0, preset: "ultrafast"))
        let frames = try Self.frames(out), original = try Self.frames(input)
        let face = TruthBox(x: 124, y: 100, width: 66, height: 76)
        let (x, y, w, h) = (Int(face.x), Int(face.y), Int(face.width), Int(face.height))
        func grey(_ image: VipsImage) throws -> Double {
            try image.crop(x: x, y: y, width: w, height: h).colourspace(.bw).extractBands(0).average()
        }
        func grey(_ frame: VideoFrame) throws -> Double {
            try grey(VipsImage.fromPixels(frame.rgb(x: 0, y: 0, width: frame.width & ~1, height: frame.height & ~1),
                                          width: frame.width & ~1, height: frame.height & ~1, bands: 3).reinterpreted(as: .srgb))
        }
        // The same picture as a photo, drawn at its exposure and at its own.
        let photo = try Photo.load(path: still)
        let found = try #require(try ClipFixtures.detector().detect(in: photo.rgb).first)
        let styled = [StyledFace(box: found.box, style: try .named("pencil"), landmarks: found.landmarks)]
        var asItIs = FaceCompositor()
        asItIs.exposure = 1
        let lifted = try grey(FaceCompositor().render(photo.rgb, faces: styled)), matched = try grey(asItIs.render(photo.rgb, faces: styled))
        let drawn = try grey(frames[20]), filmed = try grey(original[20])
        print("dim clip's face: grey \(filmed) filmed, \(drawn) drawn; the photo's drawn \(lifted), at its own exposure \(matched)")
        #expect(lifted > matched + 10)
        #expect(abs(drawn - lifted) < 5, "clip \(drawn) against photo \(lifted)")
        let changes = (16..<29).map { Self.difference(frames[$0], frames[$0 + 1], in: face) }
        #expect(changes.allSatisfy { $0 < 0.05 }, "\(changes)")
    }

    /// The queues between stages hold six frames of 1080p (3 MB each), but no more than two of
    /// 4K (12 MB each), and never more than asked.
    @Test func queuesHoldFewerFramesWhereFramesAreLarge() {
        #expect(ClipRenderer.queueDepth(6, width: 1920, height: 1080) == 6)
        #expect(ClipRenderer.queueDepth(6, width: 640, height: 360) == 6)
        #expect(ClipRenderer.queueDepth(6, width: 3840, height: 2160) == 2)
        #expect(ClipRenderer.queueDepth(6, width: 7680, height: 4320) == 2)
        #expect(ClipRenderer.queueDepth(1, width: 1920, height: 1080) == 1)
    }
}
