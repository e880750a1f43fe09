import Foundation
import Testing
import TestSupport
import Vips

/// `sketchease video` end to end, on clips generated here.
@Suite struct VideoCommandTests {
    /// A short clip of the example photo with a tone, in `folder`.
    func clip(_ folder: String, name: String = "clip.mp4", seconds: Double = 1, width: Int = 480, metadata: [String] = []) throws -> String {
        let path = folder + "/" + name
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "\(seconds)", "-i", TestAssets.group,
                              "-f", "lavfi", "-i", "sine=frequency=330:duration=\(seconds)",
                              "-vf", "scale=\(width):-2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                              "-c:a", "aac", "-shortest"] + metadata + [path])
        return path
    }

    @Test func writesTheClipAndSkipsItNextTime() throws {
        let folder = try TestAssets.temporaryFolder("video-cli")
        let input = try clip(folder)
        let out = folder + "/out"
        let first = try CLIRunner.run(["video", input, "--out", out, "--report", folder + "/stats.json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("1 written"))
        #expect(try TestClips.frameTimes(out + "/clip.mp4") == TestClips.frameTimes(input))
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/stats.json"))) as? [String: Any]
        let entry = (stats?["clips"] as? [[String: Any]])?.first
        #expect(entry?["frames"] as? Int == 10)
        #expect((entry?["tracks"] as? Int ?? 0) >= 2)
        let again = try CLIRunner.run(["video", input, "--out", out])
        #expect(again.status == 0)
        #expect(again.stderr.contains("0 written, 1 skipped"))
    }

    /// Clips are sharded as photos are: two shards write disjoint clips that together are all of them.
    @Test func shardsTakeDisjointClipsThatTogetherAreAll() throws {
        let folder = try TestAssets.temporaryFolder("video-shard")
        let clips = folder + "/clips"
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        for i in 1...4 { _ = try clip(clips, name: "clip\(i).mp4", seconds: 0.3, width: 160) }
        var written: [[String]] = []
        for k in 1...2 {
            let out = folder + "/out\(k)"
            let result = try CLIRunner.run(["video", clips, "--out", out, "-f", "ink", "--shard", "\(k)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("shard \(k)/2: "), "\(result.stderr)")
            written.append(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".mp4") }.sorted())
        }
        #expect(Set(written[0]).isDisjoint(with: written[1]))
        #expect((written[0] + written[1]).sorted() == ["clip1.mp4", "clip2.mp4", "clip3.mp4", "clip4.mp4"])
        let bad = try CLIRunner.run(["video", clips, "--out", folder + "/bad", "--shard", "3/2"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --shard: "), "\(bad.stderr)")
    }

    /// The `--report` files of a sharded clip job add up with report-merge: clips, frames, seconds,
    /// each failure; a missing shard is noticed, and photo reports do not mix in.
    @Test func shardReportsMergeIntoOneSummary() throws {
        let folder = try TestAssets.temporaryFolder("video-merge")
        let clips = folder + "/clips"
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        for i in 1...3 { _ = try clip(clips, name: "clip\(i).mp4", seconds: 0.3, width: 160) }
        let bad = try BadInputs.text(in: clips, name: "notes.mp4")
        var frames = 0, failures = 0
        for k in 1...2 {
            let result = try CLIRunner.run(["video", clips, "--out", folder + "/out", "-f", "ink", "--shard", "\(k)/2",
                                            "--report", folder + "/r\(k).json"])
            #expect([0, 1].contains(result.status), "\(result.stderr)")
            struct Report: Decodable { var format: String; var shard: String?; var totals: Totals }
            struct Totals: Decodable { var written: Int; var failed: Int; var frames: Int; var duration: Double; var seconds: Double }
            let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/r\(k).json")))
            #expect(report.format == "sketchease-video-report" && report.shard == "\(k)/2")
            frames += report.totals.frames
            failures += report.totals.failed
        }
        #expect(frames == 9 && failures == 1, "\(frames) frames, \(failures) failed")
        let merged = try CLIRunner.run(["report-merge", folder + "/r1.json", folder + "/r2.json", "--out", folder + "/all.json"])
        #expect(merged.status == 1, "a clip failed: \(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.hasPrefix("3 written, 1 failed (2 reports, shards 1/2, 2/2): 9 frames, 0.9 s of video in "), "\(merged.stdout)")
        #expect(merged.stdout.contains("  error: \(bad): not a video") || merged.stdout.contains("  \(bad): not a video"), "\(merged.stdout)")
        let all = try String(contentsOfFile: folder + "/all.json", encoding: .utf8)
        #expect(all.contains("\"frames\" : 9") && !all.contains("\"shard\""), "\(all)")

        let one = try CLIRunner.run(["report-merge", folder + "/r1.json"])
        #expect(one.stderr.contains("no report from shard 2/2: the totals lack its clips"), "\(one.stderr)")
        let photos = try TestAssets.temporaryFolder("video-merge-photos")
        #expect(try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", photos, "--report", photos + "/p.json"]).status == 0)
        let mixed = try CLIRunner.run(["report-merge", folder + "/r1.json", photos + "/p.json"])
        #expect(mixed.status == 1 && mixed.stderr.contains("merge the reports of photos and of clips separately"), "\(mixed.stderr)")
    }

    @Test func aBadClipIsOneLineAndTheRestIsDone() throws {
        let folder = try TestAssets.temporaryFolder("video-bad")
        let good = try clip(folder)
        let bad = try BadInputs.text(in: folder, name: "notes.mp4")
        let result = try CLIRunner.run(["video", folder, "--out", folder + "/out"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(bad): not a video (unrecognised format)"))
        #expect(result.stderr.contains("1 written, 1 failed"))
        #expect(FileManager.default.fileExists(atPath: folder + "/out/clip.mp4"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/notes.mp4"))
        _ = good
    }

    @Test func sharingFormats() throws {
        let folder = try TestAssets.temporaryFolder("video-formats")
        let input = try clip(folder)
        for (format, codec) in [("gif", "gif"), ("webp", "webp"), ("webm", "vp9")] {
            let result = try CLIRunner.run(["video", input, "--out", folder + "/out", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let output = folder + "/out/clip." + format
            let probe = try TestClips.ffprobe(["-select_streams", "v", "-show_entries", "stream=codec_name", "-of", "csv=p=0", output])
            #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == codec, "\(format)")
            if format != "webp" {  // FFmpeg 5.1 reads animated WebP as one frame
                #expect(try TestClips.frameTimes(output).count == 10, "\(format)")
            }
        }
        // WebM keeps the sound, as Opus (WebM cannot hold AAC).
        let audio = try TestClips.ffprobe(["-select_streams", "a", "-show_entries", "stream=codec_name", "-of", "csv=p=0", folder + "/out/clip.webm"])
        #expect(audio.trimmingCharacters(in: .whitespacesAndNewlines) == "opus")
    }

    /// An MP4 is shared to every kind of player: sound it holds but not every player plays
    /// (Opus, as a phone's or a browser's recording has it) becomes AAC; AAC is copied as it is.
    @Test func anMP4KeepsItsSoundAsEveryPlayerPlaysIt() throws {
        let folder = try TestAssets.temporaryFolder("video-opus")
        let input = folder + "/phone.mkv"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "1", "-i", TestAssets.group,
                              "-f", "lavfi", "-i", "sine=frequency=330:duration=1",
                              "-vf", "scale=480:-2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                              "-c:a", "libopus", "-shortest", input])
        let result = try CLIRunner.run(["video", input, "--out", folder + "/out", "--report", folder + "/stats.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let audio = try TestClips.ffprobe(["-select_streams", "a", "-show_entries", "stream=codec_name:stream=duration", "-of", "csv=p=0",
                                           folder + "/out/phone.mp4"])
        let fields = audio.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.first == "aac", "\(audio)")
        #expect(abs((Double(fields.last ?? "") ?? 0) - 1) < 0.1, "the sound is as long as it was: \(audio)")
        let report = try String(contentsOfFile: folder + "/stats.json", encoding: .utf8)
        #expect(report.contains("re-encoded as aac (not every mp4 player plays opus)"), "\(report)")
        // AAC is kept as it is.
        let plain = try clip(folder)
        #expect(try CLIRunner.run(["video", plain, "--out", folder + "/out2", "--report", folder + "/plain.json"]).status == 0)
        #expect(try String(contentsOfFile: folder + "/plain.json", encoding: .utf8).contains("(aac): copied"))
    }

    @Test func locationAndDeviceAreLeftOutUnlessKept() throws {
        let folder = try TestAssets.temporaryFolder("video-meta")
        let input = try clip(folder, metadata: ["-metadata", "location=+48.8584+002.2945/", "-metadata", "make=Apple",
                                                "-metadata", "model=iPhone 15", "-metadata", "title=Picnic"])
        let tags = { (path: String) in try TestClips.ffprobe(["-show_entries", "format_tags", "-of", "flat", path]) }
        #expect(try tags(input).contains("48.8584"))
        _ = try CLIRunner.run(["video", input, "--out", folder + "/plain"])
        let plain = try tags(folder + "/plain/clip.mp4")
        #expect(!plain.contains("48.8584") && !plain.contains("Apple") && !plain.contains("iPhone"), "\(plain)")
        _ = try CLIRunner.run(["video", input, "--out", folder + "/kept", "--keep-metadata"])
        let kept = try tags(folder + "/kept/clip.mp4")
        #expect(kept.contains("Picnic"), "\(kept)")
    }

    /// A generated source standing in for a camera: recorded with its own timestamps, from 0,
    /// gaps kept (a camera that delivers late frames must not be played back too fast).
    @Test func liveSourceKeepsItsTimestamps() throws {
        let folder = try TestAssets.temporaryFolder("video-live")
        let source = "testsrc2=size=320x240:rate=20,setpts='N/20/TB+if(gte(N,10),0.5/TB,0)+100/TB'"
        let result = try CLIRunner.run(["video", source, "--input-format", "lavfi", "--duration", "1.5", "--out", folder])
        #expect(result.status == 0, "\(result.stderr)")
        let times = try TestClips.frameSeconds(folder + "/live.mp4")
        #expect(times.first == 0)
        #expect(times.count == 20)  // 0...0.45 s, then 1.0...1.45 s: 1.5 s of source time
        #expect(abs(times[10] - times[9] - 0.55) < 0.001)
    }

    @Test func killedMidClipLeavesNothingAndRerunCompletes() throws {
        let folder = try TestAssets.temporaryFolder("video-kill")
        let input = try clip(folder, seconds: 6, width: 320)
        let out = folder + "/out"
        let process = try ChildProcess(CLIRunner.executable, ["video", input, "--out", out, "-f", "cartoon"],
                                       environment: ProcessInfo.processInfo.environment.merging(["SKETCHEASE_MODEL": TestAssets.model]) { $1 },
                                       output: .null, error: .null)
        // Wait for the hidden temporary output to be under way, then kill.
        let deadline = Date().addingTimeInterval(60)
        func partial() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".tmp") } }
        while Date() < deadline, (partial().first.map { (try? TestAssets.fileSize(out + "/" + $0)) ?? 0 } ?? 0) == 0 { usleep(5_000) }
        process.signal(SIGKILL)
        process.wait()
        #expect(!FileManager.default.fileExists(atPath: out + "/clip.mp4"), "no output under the real name")
        #expect(partial().count == 1, "the killed run's temporary file")
        let rerun = try CLIRunner.run(["video", input, "--out", out, "-f", "cartoon"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".sketchease") } == ["clip.mp4"],
                "stale temporary removed")
        #expect(try TestClips.frameTimes(out + "/clip.mp4").count == 60)
    }

    /// Ctrl-C on a recording (a generated source standing in for a camera, which never ends by
    /// itself) stops it there, and its file is completed and kept.
    @Test func ctrlCStopsARecordingAndCompletesItsFile() throws {
        let folder = try TestAssets.temporaryFolder("video-record-interrupt")
        let out = folder + "/out"
        let process = try ChildProcess(CLIRunner.executable, ["video", "testsrc2=size=320x240:rate=10", "--input-format", "lavfi",
                                                              "--out", out, "-f", "cartoon"],
                                       environment: ProcessInfo.processInfo.environment.merging(["SKETCHEASE_MODEL": TestAssets.model]) { $1 },
                                       output: .null, error: .pipe)
        let deadline = Date().addingTimeInterval(60)
        func partial() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".tmp") } }
        while Date() < deadline, (partial().first.map { (try? TestAssets.fileSize(out + "/" + $0)) ?? 0 } ?? 0) == 0 { usleep(5_000) }
        usleep(300_000)
        process.signal(SIGINT)
        // A recording that did not stop is killed at the deadline (and the status says so).
        let (status, _, errorData) = process.outputs(timeout: 60)
        let stderr = String(decoding: errorData, as: UTF8.self)
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("finishing the recording") && stderr.contains("1 written"), "\(stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }
        #expect(files.count == 1 && partial().isEmpty, "\(files)")
        #expect(try TestClips.frameTimes(out + "/" + (files.first ?? "")).count >= 1)
    }

    /// Ctrl-C during the first of two clips: it is finished whole (it was cut at the Ctrl-C, kept
    /// under its real name and skipped by the rerun; and a Ctrl-C before its first frame made
    /// it "damaged or truncated"), the second is not begun, and a rerun does the rest.
    @Test func ctrlCFinishesTheClipUnderWayAndStartsNoOther() throws {
        let folder = try TestAssets.temporaryFolder("video-interrupt")
        let clips = folder + "/clips"
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        _ = try clip(clips, name: "a.mp4", seconds: 6, width: 320)
        _ = try clip(clips, name: "b.mp4", seconds: 1, width: 320)
        let out = folder + "/out", report = folder + "/report.json"
        let process = try ChildProcess(CLIRunner.executable, ["video", clips, "--out", out, "-f", "cartoon", "--jobs", "1",
                                                              "--report", report],
                                       environment: ProcessInfo.processInfo.environment.merging(["SKETCHEASE_MODEL": TestAssets.model]) { $1 },
                                       output: .null, error: .pipe)
        let deadline = Date().addingTimeInterval(60)
        func partial() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".tmp") } }
        while Date() < deadline, (partial().first.map { (try? TestAssets.fileSize(out + "/" + $0)) ?? 0 } ?? 0) == 0 { usleep(5_000) }
        process.signal(SIGINT)
        let (status, _, errorData) = process.outputs()
        let stderr = String(decoding: errorData, as: UTF8.self)
        #expect(status == 130, "\(stderr)")
        #expect(stderr.contains("1 written, 1 not started"), "\(stderr)")
        #expect(!stderr.contains("error:"), "\(stderr)")
        #expect(try TestClips.frameTimes(out + "/a.mp4").count == 60, "the clip under way is finished to its end")
        #expect(!FileManager.default.fileExists(atPath: out + "/b.mp4"))
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        #expect((stats?["clips"] as? [[String: Any]])?.map { $0["status"] as? String } == ["written", "not started"])
        #expect((stats?["totals"] as? [String: Any])?["notStarted"] as? Int == 1)
        let merged = try CLIRunner.run(["report-merge", report])
        #expect(merged.status == 1 && merged.stdout.contains("1 written, 1 not started"), "\(merged.stdout)")

        let rerun = try CLIRunner.run(["video", clips, "--out", out, "-f", "cartoon"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("1 written, 1 skipped"), "\(rerun.stderr)")
        #expect(try TestClips.frameTimes(out + "/b.mp4").count == 10)
    }
}

/// `detect` on a clip, and a plan made from what it prints.
@Suite struct ClipDetectAndPlanTests {
    @Test func detectListsTracksThatAPlanNamesById() throws {
        let folder = try TestAssets.temporaryFolder("clip-detect")
        let input = try VideoCommandTests().clip(folder)
        let detect = try CLIRunner.run(["detect", input, "--json"])
        #expect(detect.status == 0, "\(detect.stderr)")
        let entries = try JSONSerialization.jsonObject(with: Data(detect.stdout.utf8)) as? [[String: Any]]
        let entry = try #require(entries?.first)
        #expect(entry["file"] as? String == input)
        #expect(entry["frames"] as? Int == 10)
        let tracks = try #require(entry["tracks"] as? [[String: Any]])
        #expect(tracks.count == 3)
        let first = try #require((tracks.first?["boxes"] as? [[String: Any]])?.first)
        #expect(Set(first.keys).isSuperset(of: ["frame", "time", "box", "score", "landmarks"]))
        #expect((tracks.first?["boxes"] as? [[String: Any]])?.count == 10)

        let plan = folder + "/plan.json"
        try Data("""
            {"format": "sketchease-plan", "version": 1, "photos": [
              {"path": "clip.mp4", "faces": [{"face": 2, "style": {"filter": "blur"}}, {"face": 9}]}]}
            """.utf8).write(to: URL(fileURLWithPath: plan))
        let video = try CLIRunner.run(["video", "--plan", plan, "--out", folder + "/out"])
        #expect(video.status == 0, "\(video.stderr)")
        #expect(video.stderr.contains("no track 9 (tracks found: 1, 2, 3)"))
        #expect(try TestClips.frameTimes(folder + "/out/clip.mp4").count == 10)
    }
}

/// `edit` on a clip: the same prompt, faces are tracks.
@Suite struct ClipEditTests {
    @Test func tracksAreStyledAddedAndExportedThenResumed() throws {
        let folder = try TestAssets.temporaryFolder("clip-edit")
        let input = try VideoCommandTests().clip(folder)
        let out = folder + "/out"
        let first = try CLIRunner.run(["edit", input, "--out", out],
                                      stdin: "set 2 pencil\nadd 40 40 60 60 blur @0.5\nlist\nexport\nquit\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("3 tracked faces (480×230"), "\(first.stdout)")
        #expect(first.stdout.contains("face 4 added at 40, 40 (60×60)"))
        #expect(first.stdout.contains("exported \(out)/clip.mp4"))
        #expect(try TestClips.frameTimes(out + "/clip.mp4") == TestClips.frameTimes(input))
        let session = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/.sketchease/clip.sketchease.json"))) as? [String: Any]
        let clip = session?["clip"] as? [String: Any]
        #expect((clip?["added_on"] as? [String: Int])?["4"] == 5)
        #expect(FileManager.default.fileExists(atPath: out + "/.sketchease/clip.preview.png"))
        // Again: resumed with its edits; `detect` is for photos.
        let again = try CLIRunner.run(["edit", input, "--out", out], stdin: "detect 0.3\nlist\nquit\n")
        #expect(again.stdout.contains("resumed from"), "\(again.stdout)")
        #expect(again.stdout.contains("4  at 40, 40 size 60×60"))
        #expect(again.stderr.contains("a clip's are followed once"))
        // apply writes the same clip again.
        let applied = try CLIRunner.run(["apply", out, "--out", folder + "/again"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try TestClips.frameTimes(folder + "/again/clip.mp4").count == 10)
    }
}

/// Issue 22 (7): `add 10 10 50 50 @9` on a shorter clip was accepted and put on the last frame.
@Suite struct ClipTimeTests {
    @Test func aTimePastTheEndIsRefused() throws {
        let folder = try TestAssets.temporaryFolder("clip-time")
        let input = try VideoCommandTests().clip(folder)
        let result = try CLIRunner.run(["edit", input, "--out", folder + "/out"],
                                       stdin: "add 40 40 60 60 @9\nadd 40 40 60 60 @1\nadd 40 40 60 60 @0.95\nlist\nquit!\n")
        #expect(result.stderr.contains("@9 is past the end of the clip: it is 1.0 s long (its last frame shows from @0.9)"),
                "\(result.stderr)")
        #expect(result.stderr.contains("@1 is past the end of the clip"))
        // A time within the last frame is that frame: one face added, number 4.
        #expect(result.stdout.contains("face 4 added at 40, 40 (60×60)"), "\(result.stdout)")
        #expect(!result.stdout.contains("face 5 added"))
    }
}

/// Issue 22 (8): `--format gif` made a 4 s 640×480 clip 18–22 MB, `--compare --format webp`
/// 7–18 MB: a palette for every frame (every pixel's index changed from frame to frame), every
/// frame, full size. Share formats are now sized for sharing: a palette per scene, at most
/// 10 frames a second and 480 px (flags for both), and the summary says what each file weighs.
@Suite struct ShareFormatSizeTests {
    /// A camera panning over the group photo: every pixel moves, the hardest case for GIF.
    func pan(_ folder: String) throws -> String {
        let path = folder + "/pan.mp4"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "30", "-t", "4", "-i", TestAssets.group,
                              "-vf", "scale=-2:480,crop=640:480:'t*80':0", "-c:v", "libx264", "-preset", "veryfast",
                              "-crf", "23", "-pix_fmt", "yuv420p", path])
        return path
    }

    @Test func aFourSecondClipAsGIFIsAFewMegabytesAndLooksRight() throws {
        let folder = try TestAssets.temporaryFolder("share-gif")
        let input = try pan(folder)
        let out = folder + "/out"
        let result = try CLIRunner.run(["video", input, "--out", out, "--format", "gif"])
        #expect(result.status == 0, "\(result.stderr)")
        let gif = out + "/pan.gif"
        let bytes = try TestAssets.fileSize(gif)
        #expect(bytes <= 3_000_000, "\(bytes) bytes (18.3 MB before)")
        #expect(result.stderr.contains("\(gif): ") && result.stderr.contains(" MB (480×360"),
                "\(result.stderr)")
        #expect(result.stderr.contains("(480×360, at most 10 frames a second; --max-size, --max-fps)"), "\(result.stderr)")
        let size = try TestClips.ffprobe(["-show_entries", "stream=width,height", "-of", "csv=p=0", gif])
        #expect(size.trimmingCharacters(in: .whitespacesAndNewlines) == "480,360")
        let seconds = try TestClips.frameSeconds(gif)
        #expect(seconds.count == 40, "\(seconds.count) frames")
        #expect(abs((seconds.last ?? 0) - 3.9) < 0.02, "\(seconds.last ?? 0)")
        // Each frame looks like the clip at that moment (faces aside): the scene's palette fits
        // the frames that follow it.
        for (frame, time) in [(0, "0"), (20, "2"), (39, "3.9")] {
            let drawn = folder + "/gif\(frame).png", original = folder + "/clip\(frame).png"
            try TestClips.ffmpeg(["-i", gif, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1", drawn])
            try TestClips.ffmpeg(["-ss", time, "-i", input, "-vf", "scale=480:360:flags=lanczos", "-frames:v", "1", original])
            let a = try VipsImage.load(path: drawn).extractBands(0, count: 3), b = try VipsImage.load(path: original)
            let difference = try PixelStats.meanAbsoluteDifference(a, b, x: 0, y: 0, width: 480, height: 360)
            #expect(difference < 14, "frame \(frame) differs from the clip by \(difference)")
        }
    }

    @Test func theComparisonAsWebPToo() throws {
        let folder = try TestAssets.temporaryFolder("share-webp")
        let input = try pan(folder)
        let result = try CLIRunner.run(["video", input, "--out", folder + "/out", "--format", "webp", "--compare"])
        #expect(result.status == 0, "\(result.stderr)")
        let compare = try TestAssets.fileSize(folder + "/out/pan.compare.webp")
        #expect(compare <= 3_000_000, "\(compare) bytes (7.4 MB before)")
        #expect(result.stderr.contains("pan.compare.webp: ") && result.stderr.contains("(960×360, at most 10 frames a second"),
                "\(result.stderr)")
        // The flags: the clip's own size and rate, and a mistake with a format they are not for.
        let mp4 = try CLIRunner.run(["video", input, "--out", folder + "/mp4", "--max-fps", "5"])
        #expect(mp4.status != 0 && mp4.stderr.contains("--max-fps and --max-size are for --format gif or webp"), "\(mp4.stderr)")
    }
}
