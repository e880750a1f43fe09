import FFmpeg
import Foundation
import SketchEase
import Testing
import TestSupport
import Video

/// A green-screen clip keyed over a background clip.
@Suite struct ChromaClipTests {
    @Test func backgroundClipPlaysBehindAndLoops() throws {
        let folder = try TestAssets.temporaryFolder("chroma-clip")
        let green = folder + "/green.mp4", background = folder + "/background.mp4"
        // 2 s of green screen with a photo in the middle; behind it a 0.5 s clip: red, then blue.
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "color=c=0x22b14c:s=320x240:r=10:d=2", "-loop", "1", "-i", TestAssets.graceHopper,
                              "-filter_complex", "[1]scale=-2:140[a];[0][a]overlay=x=100:y=50:shortest=1",
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", green])
        try TestClips.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=160x120:r=10:d=0.3", "-f", "lavfi", "-i", "color=c=blue:s=160x120:r=10:d=0.2",
                              "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", background])
        let style = try FaceStyle(filterID: "chroma", settings: FilterRegistry.standard.settings(
            for: "chroma", assignments: ["image": background, "pick": "5,5", "softness": "0"]))
        let options = ClipOptions(render: RenderOptions(background: style), encoding: EncodingSettings(crf: 10),
                                  styles: TrackStyles(others: try .named("none")), overwrite: true)
        let out = folder + "/out.mp4"
        _ = try ClipFixtures.renderer(options).render(MediaSource(path: green), to: out)
        let frames = try ClipRendererTests.frames(out)
        #expect(frames.count == 20)
        func corner(_ n: Int) -> [UInt8] { Array(frames[n].rgb(x: 10, y: 10, width: 2, height: 2).prefix(3)) }
        func isRed(_ p: [UInt8]) -> Bool { p[0] > 200 && p[1] < 60 && p[2] < 60 }
        func isBlue(_ p: [UInt8]) -> Bool { p[2] > 200 && p[0] < 60 && p[1] < 60 }
        // 0-0.3 s red, 0.3-0.5 s blue, then again from the start.
        #expect(isRed(corner(1)), "\(corner(1))")
        #expect(isBlue(corner(4)), "\(corner(4))")
        #expect(isRed(corner(6)), "\(corner(6))")
        #expect(isBlue(corner(9)), "\(corner(9))")
        // The photo itself is not keyed.
        let middle = frames[5].rgb(x: 160, y: 120, width: 2, height: 2)
        #expect(!isRed(Array(middle.prefix(3))) && !isBlue(Array(middle.prefix(3))))
    }
}
