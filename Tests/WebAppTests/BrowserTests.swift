import Foundation
import Testing
import TestSupport
import Vips

/// The web app in a real browser (Debian's chromium, headless, through chromedriver), used as
/// a person would: click a face, choose a style, move a slider, drag a box, undo, export; the
/// camera (Chromium's fake one); a bad upload dropped on the page; keyboard only; phone width.
///
/// Screenshots go to `$SKETCHEASE_SCREENSHOTS` (or a temporary folder, printed) and the time
/// from each change to its preview on screen to `timings.json` there.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (scripts/setup.sh)"))
struct BrowserTests {
    /// A folder with a 12-megapixel photo: examples/group.jpg enlarged to 5000×2400.
    static func photoFolder() throws -> String {
        let folder = try TestAssets.temporaryFolder("party")
        let group = try VipsImage.load(path: TestAssets.group)
        try group.resize(scale: 5000.0 / Double(group.width)).save(path: folder + "/party.jpg")
        return folder
    }

    static var screenshots: String {
        if let folder = ProcessInfo.processInfo.environment["SKETCHEASE_SCREENSHOTS"], !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder
        }
        return (try? TestAssets.temporaryFolder("screens")) ?? NSTemporaryDirectory()
    }

    /// The server on a fresh 12 MP photo folder and a browser showing it, ready to use.
    struct Setup {
        var folder: String, out: String, downloads: String
        var server: ServerProcess
        var browser: WebDriver
        func close() { browser.quit(); server.stop() }
    }

    static func start(_ label: String) throws -> Setup {
        let folder = try photoFolder()
        let out = try TestAssets.temporaryFolder(label)
        let downloads = try TestAssets.temporaryFolder("downloads")
        let server = try ServerProcess([folder, "--out", out])
        let browser: WebDriver
        do { browser = try WebDriver(downloads: downloads) } catch { server.stop(); throw error }
        let setup = Setup(folder: folder, out: out, downloads: downloads, server: server, browser: browser)
        do {
            try browser.open(server.url)
            try browser.wait("the photo and its preview", for: "return window.sketchease?.state?.name === 'party.jpg' && window.sketchease.previewShown > 0")
        } catch { setup.close(); throw error }
        return setup
    }

    func number(_ value: Any) -> Double { (value as? Double) ?? Double((value as? Int) ?? -1) }

    @Test func aPersonStylesAFaceDragsABoxUndoesAndExportsWhatApplyWrites() throws {
        let setup = try Self.start("serve-out")
        defer { setup.close() }
        let (folder, out, downloads, browser) = (setup.folder, setup.out, setup.downloads, setup.browser)
        let shots = Self.screenshots
        #expect(try browser.script("return window.sketchease.state.faces.length") as? Int == 3)
        #expect(try browser.script("return document.querySelectorAll('#thumbs .thumb').length") as? Int == 1)
        #expect(try browser.script("""
            return document.querySelectorAll('.face .warn').length === window.sketchease.state.faces.filter(f => f.warnings.length).length
            """) as? Bool == true, "the face report's warnings are shown on the faces")
        try browser.screenshot(to: shots + "/opened.png")

        // Click face 2: it is selected and the style picker shows a sample of it in every style.
        try browser.click(".face[data-id='2']")
        try browser.wait("face 2 selected", for: "return document.getElementById('face-heading').textContent === 'Face 2'")
        try browser.wait("style samples", for: "return [...document.querySelectorAll('img.sample')].every(i => i.complete && i.naturalWidth > 0)")
        #expect(try browser.script("return document.querySelector('.face[data-id=\"2\"]').getAttribute('aria-pressed')") as? String == "true")

        // Choose pencil.
        try browser.click(".style[data-filter='pencil']")
        try browser.wait("pencil on face 2", for: "return window.sketchease.state.faces.find(f => f.id === 2).style?.filter === 'pencil'")
        try browser.wait("its preview", for: "return window.sketchease.timings.some(t => t.kind === 'change')")
        try browser.wait("the samples again", for: "return [...document.querySelectorAll('img.sample')].every(i => i.complete && i.naturalWidth > 0 && !i.classList.contains('loading'))")
        try browser.screenshot(to: shots + "/picker.png")

        // Move the darkness slider: previews follow it; letting go records one edit.
        let slider = try browser.rect("#param-darkness")
        try browser.drag(from: (slider.x + slider.width * 0.3, slider.y + slider.height / 2),
                         to: (slider.x + slider.width * 0.75, slider.y + slider.height / 2), steps: 10, pauseMs: 60)
        try browser.wait("darkness recorded", for: "return window.sketchease.state.faces.find(f => f.id === 2).style?.parameters?.darkness > 2")
        try browser.wait("slider previews", for: "return window.sketchease.timings.filter(t => t.kind === 'slider').length >= 1")
        try browser.wait("the committed preview", for: "return window.sketchease.previewShown === window.sketchease.state.revision")
        try browser.screenshot(to: shots + "/styled.png")

        // Drag face 3's box 40 px right and 25 px down.
        let before = try browser.script("return window.sketchease.state.faces.find(f => f.id === 3).box") as? [Any] ?? []
        let box = try browser.rect(".face[data-id='3']")
        try browser.drag(from: (box.x + box.width / 2, box.y + box.height / 2), to: (box.x + box.width / 2 + 40, box.y + box.height / 2 + 25))
        try browser.wait("the move", for: "return window.sketchease.state.undo?.startsWith('face 3 moved')")
        let scale = number(try browser.script("return document.getElementById('frame').clientWidth / window.sketchease.state.width"))
        let moved = try browser.script("return window.sketchease.state.faces.find(f => f.id === 3).box") as? [Any] ?? []
        #expect(abs(number(moved[0]) - number(before[0]) - 40 / scale) < 3 / scale)
        #expect(abs(number(moved[1]) - number(before[1]) - 25 / scale) < 3 / scale)

        // Ctrl+Z puts it back.
        try browser.keys([[WebDriver.control, "z"]])
        try browser.wait("the undo", for: "return window.sketchease.state.redo?.startsWith('face 3 moved')")
        let undone = try browser.script("return window.sketchease.state.faces.find(f => f.id === 3).box") as? [Any] ?? []
        #expect(abs(number(undone[0]) - number(before[0])) < 0.001 && abs(number(undone[1]) - number(before[1])) < 0.001)

        // Before / after.
        try browser.click("#compare")
        try browser.wait("the original", for: "return document.querySelector('#before-img').complete && document.querySelector('#before-img').naturalWidth > 0")
        try browser.screenshot(to: shots + "/before-after.png")
        try browser.click("#compare")

        // Export: the file, the download, and `apply` on the saved session agree byte for byte.
        try browser.click("#export")
        try browser.wait("the export", for: "return window.sketchease.state.exported === true")
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/party.png"))
        let session = out + "/.sketchease/party.sketchease.json"
        let again = try TestAssets.temporaryFolder("serve-apply")
        let applied = try CLIRunner.run(["apply", session, "--out", again])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/party.png")) == exported)
        var downloaded: Data?
        for _ in 0..<100 {
            downloaded = FileManager.default.contents(atPath: downloads + "/party.png")
            if downloaded == exported { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(downloaded == exported, "the browser downloaded the export")

        // The session is the one `edit` reads: face 2 in pencil, the undone move can be redone.
        let prompt = try CLIRunner.run(["edit", folder + "/party.jpg", "--out", out], stdin: "list\nredo\nquit!\n")
        #expect(prompt.status == 0, "\(prompt.stderr)")
        #expect(prompt.stdout.contains("resumed from \(session)"))
        #expect(prompt.stdout.contains("pencil (darkness="))
        #expect(prompt.stdout.contains("redone: face 3 moved"))

        let timings = try browser.script("return window.sketchease.timings") as? [[String: Any]] ?? []
        try JSONSerialization.data(withJSONObject: ["photo": "5000×2400 (12 MP)", "timings": timings], options: [.prettyPrinted])
            .write(to: URL(fileURLWithPath: shots + "/timings.json"))
        let slider_ = timings.filter { $0["kind"] as? String == "slider" }.map { number($0["ms"] ?? 0) }.sorted()
        let change = timings.filter { $0["kind"] as? String == "change" }.map { number($0["ms"] ?? 0) }.sorted()
        print("12 MP photo, change to preview on screen: slider median \(slider_[slider_.count / 2]) ms (max \(slider_.last!), n=\(slider_.count)); "
              + "edit median \(change[change.count / 2]) ms (max \(change.last!), n=\(change.count)); screenshots in \(shots)")
        #expect(!slider_.isEmpty && !change.isEmpty)
    }

    @Test func theCameraTakesAPictureAndABadDropIsOneClearMessage() throws {
        let setup = try Self.start("serve-camera")
        defer { setup.close() }
        let (out, browser, shots) = (setup.out, setup.browser, Self.screenshots)

        try browser.click("#camera-button")
        try browser.wait("the fake camera", for: "return !document.getElementById('camera-snap').disabled && document.getElementById('camera-video').videoWidth > 0")
        try browser.screenshot(to: shots + "/camera.png")
        try browser.click("#camera-snap")
        try browser.wait("the picture opened", for: "return window.sketchease.state?.name.startsWith('camera-')", timeout: 90)
        let uploads = try FileManager.default.contentsOfDirectory(atPath: out + "/uploads")
        #expect(uploads.count == 1 && uploads[0].hasPrefix("camera-") && uploads[0].hasSuffix(".jpg"), "\(uploads)")
        #expect(try browser.script("return document.querySelectorAll('#thumbs .thumb').length") as? Int == 2)

        // A text file dropped on the page as a photo: one line naming it and why.
        try browser.drop("notes.jpg", type: "image/jpeg", bytes: Data("hello".utf8))
        let message = try browser.wait("the message", for: """
            const t = document.getElementById('toast'); return !t.hidden && t.textContent.includes('notes.jpg') ? t.textContent : null
            """) as? String
        #expect(message == "notes.jpg: not an image (unrecognised format)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/uploads").count == 1, "nothing kept of the bad file")
    }

    @Test func itWorksByKeyboardWithVisibleFocusAndAtPhoneWidth() throws {
        let setup = try Self.start("serve-keys")
        defer { setup.close() }
        let (browser, shots) = (setup.browser, Self.screenshots)

        // Tab to the first face: the focus ring shows; Enter selects it; arrows move it.
        var reached = false
        for _ in 0..<20 {
            try browser.keys([[WebDriver.tab]])
            if try browser.script("return document.activeElement.classList.contains('face')") as? Bool == true { reached = true; break }
        }
        #expect(reached, "a face box can be reached with Tab")
        let outline = try browser.script("const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth") as? String
        #expect(outline == "solid 3px")
        let id = try browser.script("return Number(document.activeElement.dataset.id)") as? Int ?? 0
        try browser.keys([[WebDriver.enter]])
        try browser.wait("selected by Enter", for: "return document.activeElement.getAttribute('aria-pressed') === 'true'")
        try browser.wait("its samples", for: "return [...document.querySelectorAll('img.sample')].every(i => i.complete && i.naturalWidth > 0 && !i.classList.contains('loading'))")
        try browser.screenshot(to: shots + "/keyboard.png")
        let x0 = number(try browser.script("return window.sketchease.state.faces.find(f => f.id === \(id)).box[0]"))
        try browser.keys([[WebDriver.right], [WebDriver.right]])
        try browser.wait("the nudge", for: "return window.sketchease.state.faces.find(f => f.id === \(id)).box[0] > \(x0)")
        try browser.keys([[WebDriver.control, WebDriver.shift, "z"]])  // nothing to redo: harmless
        try browser.keys([[WebDriver.control, "z"]])
        try browser.wait("undone", for: "return Math.abs(window.sketchease.state.faces.find(f => f.id === \(id)).box[0] - \(x0)) < 0.001")

        // Phone width: nothing wider than the screen; photo, styles and strip all there.
        try browser.click(".face[data-id='2']")
        try browser.click(".style[data-filter='ink']")
        try browser.wait("ink", for: "return window.sketchease.state.faces.find(f => f.id === 2).style?.filter === 'ink'")
        try browser.resize(width: 390, height: 844)
        try browser.wait("relaid out", for: "return window.innerWidth <= 400 && window.sketchease.previewShown === window.sketchease.state.revision")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try browser.script("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool == true)
        let frame = try browser.rect("#frame"), strip = try browser.rect(".strip")
        #expect(frame.width > 300 && frame.y + frame.height <= strip.y)
        try browser.screenshot(to: shots + "/phone.png")
    }

    /// Issue 22 (9): charcoal's stroke slider (0.002–0.05, default 0.006) sat near its left end
    /// and a drag to the middle gave black blobs; at phone width the "!" of a small face covered
    /// its number. Sliders for sizes and strengths now move on a logarithmic scale over a range
    /// that keeps a face (the middle is near the default), and the badge sits on the corner away
    /// from the number.
    @Test func slidersCenterOnTheDefaultAndTheWarningLeavesTheNumberAtPhoneWidth() throws {
        let folder = try TestAssets.temporaryFolder("phone")
        try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/group.jpg")
        let out = try TestAssets.temporaryFolder("phone-out")
        let server = try ServerProcess([folder, "--out", out])
        defer { server.stop() }
        let browser = try WebDriver(downloads: try TestAssets.temporaryFolder("phone-downloads"))
        defer { browser.quit() }
        try browser.resize(width: 390, height: 844)
        try browser.open(server.url)
        try browser.wait("the photo", for: "return window.sketchease?.state?.name === 'group.jpg' && window.sketchease.previewShown > 0")

        // Face 3 (54 × 68 px) is too small to sketch well: its "!" and its number both show, apart,
        // and apart from the resize handles once it is selected.
        try browser.screenshot(to: Self.screenshots + "/phone-badge-plain.png")
        try browser.click(".face[data-id='3']")
        try browser.click(".style[data-filter='charcoal']")
        try browser.wait("charcoal", for: "return window.sketchease.state.faces.find(f => f.id === 3).style?.filter === 'charcoal'")
        try browser.wait("shown", for: "return window.sketchease.previewShown === window.sketchease.state.revision")
        Thread.sleep(forTimeInterval: 0.3)
        let overlaps = try browser.script("""
            const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            return [...document.querySelectorAll('.face')].filter(f => f.querySelector('.warn')).map(f => {
              const w = f.querySelector('.warn').getBoundingClientRect(), t = f.querySelector('.tag').getBoundingClientRect();
              const handles = [...f.querySelectorAll('.handle')].map(h => h.getBoundingClientRect()).filter(h => h.width > 0);
              const covered = hit(w, t) || handles.some(h => hit(w, h) || hit(t, h));
              return f.dataset.id + ':' + (covered ? 'covers' : 'apart') + ':' + Math.round(f.getBoundingClientRect().width);
            }).join(' ');
            """) as? String ?? ""
        #expect(overlaps.contains("3:"), "face 3 has a warning: \(overlaps)")
        #expect(!overlaps.contains("covers"), "\(overlaps)")
        try browser.screenshot(to: Self.screenshots + "/phone-badge.png")

        // The stroke slider is logarithmic: the default near its middle, the middle of the slider
        // near the default, and its right end a bold drawing rather than blobs (range 0.002–0.015).
        #expect(try browser.script("return document.getElementById('param-stroke').dataset.scale") as? String == "log")
        let position = number(try browser.script("return Number(document.getElementById('param-stroke').value)"))
        #expect((400...600).contains(position), "the default sits at \(position) of 1000")
        try browser.script("""
            const s = document.getElementById('param-stroke');
            s.value = 500; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));
            """)
        try browser.wait("the middle recorded", for: "return window.sketchease.state.faces.find(f => f.id === 3).style?.parameters?.stroke !== undefined")
        let middle = number(try browser.script("return window.sketchease.state.faces.find(f => f.id === 3).style.parameters.stroke"))
        #expect(abs(middle - 0.00548) < 0.0001, "the slider's middle is stroke \(middle)")
        #expect(try browser.script("return document.querySelector('output[for=param-stroke]').textContent") as? String == "0.00548")
    }

    /// "Draw the whole photo": the photo around the faces in the face's style, as an edit the
    /// preview shows, Ctrl+Z takes back and the export and `apply` agree on.
    @Test func thePhotoAroundTheFacesIsDrawnAtATick() throws {
        let setup = try Self.start("serve-around")
        defer { setup.close() }
        let (out, browser) = (setup.out, setup.browser)
        try browser.click(".face[data-id='2']")
        try browser.click(".style[data-filter='ink']")
        try browser.wait("ink on face 2", for: "return window.sketchease.state.faces.find(f => f.id === 2).style?.filter === 'ink'")
        #expect(try browser.script("return document.getElementById('draw-whole').checked") as? Bool == false)
        try browser.click("#draw-whole")
        try browser.wait("the photo drawn in ink", for: "return window.sketchease.state.background?.filter === 'ink'")
        try browser.wait("its preview", for: "return window.sketchease.previewShown === window.sketchease.state.revision")
        #expect(try browser.script("return document.getElementById('draw-whole').checked") as? Bool == true)
        #expect(try browser.script("return window.sketchease.state.undo") as? String == "the photo around the faces: ink")
        try browser.screenshot(to: Self.screenshots + "/drawn-whole.png")
        try browser.click("#export")
        try browser.wait("the export", for: "return window.sketchease.state.exported === true")
        let exported = try VipsImage.load(path: out + "/party.png")
        let corner = try exported.crop(x: 0, y: 0, width: 400, height: 300)
        #expect(try corner.extractBands(0).subtract(corner.extractBands(2)).absolute().maximum() == 0, "the corner is drawn in grey ink")
        let again = try TestAssets.temporaryFolder("serve-around-apply")
        #expect(try CLIRunner.run(["apply", out + "/.sketchease/party.sketchease.json", "--out", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/party.png")) == Data(contentsOf: URL(fileURLWithPath: out + "/party.png")))
        try browser.keys([[WebDriver.control, "z"]])
        try browser.wait("undone", for: "return window.sketchease.state.background === undefined || window.sketchease.state.background === null")
        #expect(try browser.script("return document.getElementById('draw-whole').checked") as? Bool == false)
    }
}
