import Foundation
import Testing
import TestSupport

/// A clip in a real browser (Debian's chromium, headless): one dropped on the page joins the
/// strip (a file that is not one is refused in one line); opened from the strip, a track
/// styled from the tracks' sheet, a box dragged, a track removed, undone and redone,
/// scrubbed, played, exported with the progress shown and downloaded; `apply` on the page's
/// session writes the same file and `edit` resumes it. (Edits made at the prompt showing in
/// the page are checked in `ClipRouteTests`.)
///
/// Screenshots go where `BrowserTests` puts them; the time from each scrub to its frame on
/// screen (a 1080p clip, three styled tracks) to `timings-clip.json` there.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (scripts/setup.sh)"))
struct ClipBrowserTests {
    func number(_ value: Any) -> Double { (value as? Double) ?? Double((value as? Int) ?? -1) }

    @Test func aPersonOpensAClipStylesATrackScrubsAndExports() throws {
        let (folder, clip) = try ClipRouteTests.clipFolder("clip-browser", width: 1920, height: 1080, seconds: 2)
        let out = try TestAssets.temporaryFolder("clip-browser-out")
        let downloads = try TestAssets.temporaryFolder("clip-downloads")
        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }
        let browser = try WebDriver(downloads: downloads)
        defer { browser.quit() }
        let shots = BrowserTests.screenshots

        // The strip shows the clip with its length; opening it shows its tracks and frame 1.
        try browser.open(server.url)
        try browser.wait("the strip", for: "return document.querySelector('.thumb .length')?.textContent === '0:02'")

        // A clip dropped on the page joins the strip with its length; a file that is not one is
        // one line naming it and why, and nothing is kept of it.
        let dropped = try TestAssets.temporaryFolder("clip-drop") + "/tone.mp4"
        try TestClips.pattern(dropped, seconds: 1)
        try browser.drop("tone.mp4", type: "video/mp4", bytes: try Data(contentsOf: URL(fileURLWithPath: dropped)))
        try browser.wait("the dropped clip", for: "return [...document.querySelectorAll('.thumb')].some(t => t.textContent.includes('tone.mp4') && t.querySelector('.length')?.textContent === '0:01')")
        try browser.drop("holiday.mp4", type: "video/mp4", bytes: Data("not a clip".utf8))
        let said = try browser.wait("the message", for: """
            const t = document.getElementById('toast'); return !t.hidden && t.textContent.includes('holiday.mp4') ? t.textContent : null
            """) as? String ?? ""
        #expect(said.hasPrefix("holiday.mp4: not a video"), "\(said)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/uploads") == ["tone.mp4"])
        try browser.click(".thumb[data-id='\(clip)']")
        try browser.wait("the clip", for: "return window.sketchease.clip?.name === 'walk.mp4' && window.sketchease.shownFrame === 0", timeout: 180)
        try browser.wait("the tracks' sheet", for: "return [...document.querySelectorAll('#tracks img')].every(i => i.complete && i.naturalWidth > 0)")
        let tracks = try browser.script("return window.sketchease.clip.tracks.map(t => t.id)") as? [Int] ?? []
        #expect(tracks.count >= 3, "\(tracks)")
        #expect(try browser.script("return document.querySelectorAll('#tracks .track').length") as? Int == tracks.count)
        try browser.screenshot(to: shots + "/clip-opened.png")

        // Track 2 from the sheet: the picker shows it in every style; pencil.
        try browser.click(".track[data-id='2']")
        try browser.wait("track 2 selected", for: "return document.getElementById('face-heading').textContent === 'Track 2'")
        try browser.wait("style samples", for: "return [...document.querySelectorAll('img.sample')].every(i => i.complete && i.naturalWidth > 0 && !i.classList.contains('loading'))")
        try browser.click(".style[data-filter='pencil']")
        try browser.wait("pencil on track 2", for: "return window.sketchease.clip.tracks.find(t => t.id === 2).style?.filter === 'pencil'")
        try browser.wait("its frame", for: "return window.sketchease.timings.some(t => t.kind === 'change')")
        try browser.screenshot(to: shots + "/clip-styled.png")

        // All tracks styled, then scrubbed: each frame shows with its faces drawn.
        try browser.click("#apply-all")
        try browser.wait("all styled", for: "return window.sketchease.clip.tracks.every(t => t.style?.filter === 'pencil')")

        let frames = [12, 40, 25, 55, 5, 33, 48, 19]
        for n in frames {
            try browser.script("const s = document.getElementById('scrub'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", [n])
            try browser.wait("frame \(n)", for: "return window.sketchease.shownFrame === \(n)")
        }
        #expect(try browser.script("return document.getElementById('clip-time').textContent") as? String == "0:00.6 / 0:02.0 · frame 20 of 60")
        try browser.screenshot(to: shots + "/clip-scrubbed.png")

        // Track 1's box dragged on this frame: the whole track moves by as much; undone, redone,
        // undone again.
        func trackBox(_ id: Int) throws -> [Double] {
            (try browser.script("return window.sketchease.clip.tracks.find(t => t.id === \(id))?.box ?? []") as? [Any] ?? []).map(number)
        }
        let before = try trackBox(1)
        let box = try browser.rect(".face[data-id='1']")
        try browser.drag(from: (box.x + box.width / 2, box.y + box.height / 2), to: (box.x + box.width / 2 + 30, box.y + box.height / 2 + 20))
        try browser.wait("the move", for: "return window.sketchease.clip.undo?.startsWith('face 1 moved')")
        let scale = number(try browser.script("return document.getElementById('frame').clientWidth / window.sketchease.clip.width"))
        let moved = try trackBox(1)
        #expect(abs(moved[0] - before[0] - 30 / scale) < 3 / scale && abs(moved[1] - before[1] - 20 / scale) < 3 / scale,
                "moved by the drag: \(before) -> \(moved) at \(scale) screen px a pixel")
        try browser.click("#undo")
        try browser.wait("the move undone", for: "return window.sketchease.clip.redo?.startsWith('face 1 moved')")
        #expect(try trackBox(1) == before)
        try browser.click("#redo")
        try browser.wait("the move redone", for: "return window.sketchease.clip.undo?.startsWith('face 1 moved')")
        #expect(try trackBox(1) == moved)
        try browser.click("#undo")
        try browser.wait("the move undone again", for: "return window.sketchease.clip.redo?.startsWith('face 1 moved')")
        #expect(try trackBox(1) == before)

        // The last track removed from the sheet (Remove track); undone, then removed again.
        let last = tracks.max()!
        try browser.click(".track[data-id='\(last)']")
        try browser.wait("track \(last) selected", for: "return document.getElementById('face-heading').textContent === 'Track \(last)'")
        try browser.click("#delete-face")
        try browser.wait("track \(last) removed", for: "return !window.sketchease.clip.tracks.some(t => t.id === \(last)) && document.querySelectorAll('#tracks .track').length === \(tracks.count - 1)")
        try browser.click("#undo")
        try browser.wait("track \(last) back", for: "return window.sketchease.clip.tracks.some(t => t.id === \(last))")
        try browser.click("#redo")
        try browser.wait("track \(last) removed again", for: "return !window.sketchease.clip.tracks.some(t => t.id === \(last))")

        // Play: frames follow one another (those not drawn in time skipped) and it stops on the last.
        try browser.click("#play")
        try browser.wait("playing", for: "return window.sketchease.timings.filter(t => t.kind === 'play').length >= 2", timeout: 60)
        try browser.wait("the end", for: "return document.getElementById('play').getAttribute('aria-pressed') === 'false' && window.sketchease.shownFrame === 59", timeout: 90)

        // Export: the progress, then the file (sound kept) and its download.
        try browser.click("#export")
        try browser.wait("the progress", for: "return document.getElementById('export-dialog').open && /Frame \\d+ of 60/.test(document.getElementById('export-text').textContent)", timeout: 120)
        try browser.screenshot(to: shots + "/clip-exporting.png")
        try browser.wait("the export", for: "return window.sketchease.exportProgress?.status === 'done'", timeout: 600)
        try browser.screenshot(to: shots + "/clip-exported.png")
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/walk.mp4"))
        var downloaded: Data?
        for _ in 0..<200 {
            downloaded = FileManager.default.contents(atPath: downloads + "/walk.mp4")
            if downloaded == exported { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(downloaded == exported, "the browser downloaded the export")
        let streams = try TestClips.ffprobe(["-show_entries", "stream=codec_type", "-of", "csv=p=0", out + "/walk.mp4"])
        // (Once in CI this read came back empty, ffprobe exiting 0, while the file matched the
        // download: the file's size and a second read are said with it, should it recur.)
        let size = (try? FileManager.default.attributesOfItem(atPath: out + "/walk.mp4")[.size]) ?? "?"
        #expect(streams.split(separator: "\n").sorted() == ["audio", "video"],
                "ffprobe said \(streams.debugDescription) of \(size) bytes (\(exported.count) read before); again: \((try? TestClips.ffprobe(["-show_entries", "stream=codec_type", "-of", "csv=p=0", out + "/walk.mp4"]))?.debugDescription ?? "failed")")

        // The page's session is the one `apply` and `edit` read: the same clip, byte for byte,
        // and the prompt resumes it.
        let again = try TestAssets.temporaryFolder("clip-browser-apply")
        let applied = try CLIRunner.run(["apply", out + "/.sketchease/walk.sketchease.json", "--out", again])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(FileManager.default.contents(atPath: again + "/walk.mp4") == exported, "apply on the page's session writes its export")
        let prompt = try CLIRunner.run(["edit", folder + "/walk.mp4", "--out", out], stdin: "list\nquit\n")
        #expect(prompt.status == 0 && prompt.stdout.contains("resumed from"), "\(prompt.stdout)\(prompt.stderr)")
        // (`list` prints a track as "  ID  at X, Y size W×H  STYLE", its id right-aligned in three places.)
        let listed = { (id: Int) in prompt.stdout.contains(" " + String(repeating: " ", count: max(0, 3 - String(id).count)) + "\(id)  at ") }
        #expect(listed(1) && !listed(last), "the removed track stays removed at the prompt: \(prompt.stdout)")

        let timings = try browser.script("return window.sketchease.timings") as? [[String: Any]] ?? []
        try JSONSerialization.data(withJSONObject: ["clip": "1920×1080, 3+ styled tracks", "timings": timings], options: [.prettyPrinted])
            .write(to: URL(fileURLWithPath: shots + "/timings-clip.json"))
        let scrubs = timings.filter { $0["kind"] as? String == "scrub" }.map { number($0["ms"] ?? 0) }.dropFirst().sorted()
        if !scrubs.isEmpty {
            print("1080p clip, scrub to frame on screen: median \(scrubs[scrubs.count / 2]) ms (max \(scrubs.last!), n=\(scrubs.count)); screenshots in \(shots)")
        }
        #expect(scrubs.count >= frames.count - 1)
    }
}
