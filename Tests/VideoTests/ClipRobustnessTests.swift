import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// Unusual and broken clips, all generated here: each gives a correct clip or one clear error
/// naming the file, and nothing is left half-written.
@Suite struct ClipRobustnessTests {
    func render(_ input: String, _ out: String, pixelLimit: Int = Photo.defaultPixelLimit) throws -> ClipReport {
        let options = ClipOptions(encoding: EncodingSettings(preset: "ultrafast"), styles: TrackStyles(others: try .named("pencil")),
                                  overwrite: true, pixelLimit: pixelLimit)
        return try ClipFixtures.renderer(options).render(MediaSource(path: input), to: out)
    }

    func failure(_ input: String) throws -> MediaError {
        let out = try TestAssets.temporaryFolder("robust-out")
        do {
            _ = try render(input, out + "/out.mp4")
        } catch let error as MediaError {
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "nothing written for \(input)")
            return error
        }
        Issue.record("\(input) should fail")
        return MediaError(path: input, reason: .other("did not fail"))
    }

    @Test func emptyMissingAndNonMediaFilesFailWithTheirName() throws {
        let folder = try TestAssets.temporaryFolder("robust")
        let empty = try BadInputs.zeroBytes(in: folder, name: "empty.mp4")
        let text = try BadInputs.text(in: folder, name: "notes.mp4")
        #expect(try failure(empty) == MediaError(path: empty, reason: .empty))
        #expect(try failure(folder + "/missing.mp4") == MediaError(path: folder + "/missing.mp4", reason: .notFound))
        #expect(try failure(text) == MediaError(path: text, reason: .notMedia("unrecognised format")))
        #expect(try failure(folder) == MediaError(path: folder, reason: .notMedia("a folder")))
    }

    @Test func soundOnlyAndCoverArtHaveNoVideo() throws {
        let folder = try TestAssets.temporaryFolder("robust-audio")
        let tone = folder + "/tone.m4a", song = folder + "/song.mp3"
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", tone])
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-i", TestAssets.graceHopper, "-map", "0", "-map", "1",
                              "-c:a", "libmp3lame", "-c:v", "mjpeg", "-disposition:v", "attached_pic", song])
        #expect(try failure(tone) == MediaError(path: tone, reason: .noVideoStream))
        #expect(try failure(song) == MediaError(path: song, reason: .noVideoStream))
    }

    @Test func unknownCodecIsNamed() throws {
        let folder = try TestAssets.temporaryFolder("robust-codec")
        let good = folder + "/good.mp4", odd = folder + "/odd.mp4"
        try TestClips.pattern(good, width: 160, height: 120, seconds: 0.5, audio: false)
        // The same file with its video's codec tag made up: FFmpeg has no decoder for it.
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).replacing(Data("avc1".utf8), with: Data("xyzw".utf8)))
            .write(to: URL(fileURLWithPath: odd))
        #expect(try failure(odd) == MediaError(path: odd, reason: .unsupportedCodec("unknown codec tag 'xyzw'")))
    }

    @Test func truncatedClips() throws {
        let folder = try TestAssets.temporaryFolder("robust-trunc")
        // Index at the end (as cameras write): cut, the file cannot be opened.
        let tail = folder + "/tail.mp4", front = folder + "/front.mp4"
        try TestClips.pattern(tail, width: 320, height: 240, seconds: 2)
        try TestClips.pattern(front, width: 320, height: 240, seconds: 2,
                              output: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        for path in [tail, front] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.prefix(data.count * 6 / 10).write(to: URL(fileURLWithPath: path))
        }
        let error = try failure(tail)
        guard case .corrupt = error.reason else { Issue.record("\(error)"); return }
        // Index at the front: the frames before the cut are kept, with a warning.
        let out = folder + "/front-out.mp4"
        let report = try render(front, out)
        #expect(report.frames > 10 && report.frames < 60)
        #expect(report.damageWarning?.contains(front) == true)
        #expect(try TestClips.frameTimes(out).count == report.frames)
    }

    @Test func damageInTheMiddleIsSkippedWithOneWarning() throws {
        let folder = try TestAssets.temporaryFolder("robust-corrupt")
        let clip = folder + "/clip.mkv"
        try TestClips.pattern(clip, width: 320, height: 240, seconds: 3, output: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p"])
        var data = try Data(contentsOf: URL(fileURLWithPath: clip))
        var random = SplitMix(seed: 7)
        for i in (data.count * 45 / 100)..<(data.count * 50 / 100) { data[i] = UInt8(truncatingIfNeeded: random.next()) }
        try data.write(to: URL(fileURLWithPath: clip))
        let out = folder + "/out.mp4"
        let report = try render(clip, out)
        #expect(report.damageWarning != nil)
        #expect(report.frames > 60)
        #expect(try TestClips.frameTimes(out).count == report.frames)
    }

    @Test func portraitPhoneClipComesOutUpright() throws {
        let folder = try TestAssets.temporaryFolder("robust-rotate")
        let stored = folder + "/stored.mp4", clip = folder + "/phone.mp4"
        // As a phone records portrait: the picture stored turned a quarter counterclockwise,
        // with a display matrix saying "turn it a quarter clockwise" (FFmpeg's rotate=270).
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "1", "-i", TestAssets.graceHopper,
                              "-vf", "scale=256:300,transpose=cclock", "-c:v", "libx264", "-preset", "ultrafast",
                              "-pix_fmt", "yuv420p", stored])
        try TestClips.ffmpeg(["-i", stored, "-c", "copy", "-metadata:s:v:0", "rotate=270", clip])
        let reader = try MediaReader(MediaSource(path: clip))
        #expect(reader.video.quarterTurns == 1)
        #expect((reader.video.width, reader.video.height) == (256, 300))
        let out = folder + "/out.mp4"
        _ = try render(clip, out)
        let probe = try TestClips.ffprobe(["-show_entries", "stream=width,height:stream_side_data=rotation", "-of", "csv=p=0", out])
        #expect(probe.hasPrefix("256,300"))
        // Upright: away from the face the output matches the upright photo (within coding noise).
        guard case .frame(let first)? = try MediaReader(MediaSource(path: out)).next() else { Issue.record("no frames"); return }
        let upright = try VipsImage.load(path: TestAssets.graceHopper).resize(scale: 256.0 / 512, verticalScale: 300.0 / 600)
        let ours = try VipsImage.fromPixels(first.rgb(x: 0, y: 0, width: 256, height: 300), width: 256, height: 300, bands: 3)
        let corner = try PixelStats.meanAbsoluteDifference(ours, upright.extractBands(0, count: 3), x: 0, y: 200, width: 60, height: 90)
        #expect(corner < 12)
    }

    @Test func oddSizesVariableRateAndOtherContainers() throws {
        let folder = try TestAssets.temporaryFolder("robust-odd")
        let odd = folder + "/odd.mkv", deep = folder + "/deep.mkv", vfr = folder + "/vfr.mkv", mjpeg = folder + "/camera.avi"
        let vp9 = folder + "/clip.webm"
        try TestClips.pattern(odd, seconds: 1, output: ["-vf", "scale=321:241", "-c:v", "ffv1", "-pix_fmt", "yuv420p"])
        try TestClips.pattern(deep, seconds: 1, audio: false, output: ["-c:v", "ffv1", "-pix_fmt", "yuv444p10le"])
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2,setpts='N/30/TB+if(gte(N,20),0.4/TB,0)+if(gte(N,40),0.25/TB,0)'",
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-vsync", "passthrough", vfr])
        try TestClips.pattern(mjpeg, width: 320, height: 240, seconds: 1, audio: false, output: ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p"])
        try TestClips.pattern(vp9, width: 320, height: 240, seconds: 1, audio: false, output: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"])
        // HEVC, 10-bit, in MOV with PCM sound (which MP4 cannot hold: it becomes AAC).
        let hevc = folder + "/phone.mov"
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1", "-f", "lavfi", "-i", "sine=duration=1",
                              "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-c:a", "pcm_s16le", "-shortest", hevc])
        for input in [odd, deep, vfr, mjpeg, vp9, hevc] {
            let out = input + ".mp4"
            let report = try render(input, out)
            #expect(try TestClips.frameTimes(out).count == report.frames, "\(input)")
            #expect(report.frames == (try TestClips.frameTimes(input)).count, "\(input)")
        }
        #expect(try TestClips.ffprobe(["-show_entries", "stream=width,height", "-of", "csv=p=0", odd + ".mp4"]).hasPrefix("322,242"))
        let sound = try TestClips.ffprobe(["-select_streams", "a", "-show_entries", "stream=codec_name,duration", "-of", "csv=p=0", hevc + ".mp4"])
        #expect(sound.hasPrefix("aac,"), "\(sound)")
        #expect(abs((Double(sound.split(separator: ",").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0) - 1) < 0.1)
        // Variable frame rate: the gaps stay where they were (same times, in seconds).
        #expect(try TestClips.frameSeconds(vfr + ".mp4") == TestClips.frameSeconds(vfr))
    }

    @Test func fourKClip() throws {
        let folder = try TestAssets.temporaryFolder("robust-4k")
        let clip = folder + "/uhd.mp4"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "30", "-t", "0.3", "-i", TestAssets.group,
                              "-vf", "scale=3840:2160", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip])
        let report = try render(clip, folder + "/out.mp4")
        #expect(report.frames == 9)
        #expect(report.frameSize == (3840, 2160))
        #expect(report.tracks >= 2)
    }

    @Test func framesAboveThePixelLimitAreRefused() throws {
        let folder = try TestAssets.temporaryFolder("robust-limit")
        let clip = folder + "/clip.mp4"
        try TestClips.pattern(clip, width: 320, height: 240, seconds: 0.3, audio: false)
        #expect(throws: MediaError(path: clip, reason: .tooLarge(width: 320, height: 240, limit: 50_000))) {
            try render(clip, folder + "/out.mp4", pixelLimit: 50_000)
        }
    }
}
