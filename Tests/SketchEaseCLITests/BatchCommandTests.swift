import Foundation
import Testing
import TestSupport
import Vips

@Suite struct BatchCommandTests {
    @Test func batchWritesPNGsForAFolder() throws {
        let out = try TestAssets.temporaryFolder("cli-batch")
        let inputs = try TestAssets.temporaryFolder("cli-in")
        for name in ["astronaut.png", "grace_hopper.jpg"] {
            try FileManager.default.copyItem(atPath: TestAssets.example(name), toPath: inputs + "/" + name)
        }
        let result = try CLIRunner.run(["batch", inputs, "--out", out, "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 written"))
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".sketchease", "astronaut.png", "grace_hopper.png"])
    }

    @Test func badFileGivesOneLineNonZeroExitAndTheRestIsDone() throws {
        let out = try TestAssets.temporaryFolder("cli-bad")
        let inputs = try TestAssets.temporaryFolder("cli-badin")
        let broken = try BadInputs.truncatedPNG(in: inputs, name: "broken.png")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: inputs + "/ok.jpg")
        let result = try CLIRunner.run(["batch", inputs, "--out", out])
        #expect(result.status == 1)
        let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.contains(broken) == true)
        #expect(result.stderr.contains("1 written, 1 failed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".sketchease", "ok.png"])
    }

    @Test func unknownFilterAndBadParameterAreUsageErrors() throws {
        let out = try TestAssets.temporaryFolder("cli-usage")
        let unknown = try CLIRunner.run(["batch", TestAssets.astronaut, "--out", out, "--filter", "crayon"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown filter 'crayon'"))
        let badParam = try CLIRunner.run(["batch", TestAssets.astronaut, "--out", out, "-p", "darkness=99"])
        #expect(badParam.status == 64)
        #expect(badParam.stderr.contains("darkness=99"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    @Test func theEllipsesEdgeCanBeStrokes() throws {
        var outputs: [[UInt8]] = []
        for edge in ["soft", "strokes"] {
            let out = try TestAssets.temporaryFolder("cli-edge")
            let result = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "--region", "ellipse", "--edge", edge])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try VipsImage.load(path: out + "/grace_hopper.png").pixels())
        }
        #expect(outputs[0] != outputs[1])
        let wrong = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", try TestAssets.temporaryFolder("cli-edge"), "--edge", "fuzzy"])
        #expect(wrong.status == 64 && wrong.stderr.contains("fuzzy"), "\(wrong.stderr)")
    }

    @Test func missingModelFallsBackToTheCascadeWithAWarning() throws {
        let out = try TestAssets.temporaryFolder("cli-cascade")
        let result = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "--model", "/no/model.onnx"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: CenterFace unavailable"))
        #expect(FileManager.default.fileExists(atPath: out + "/grace_hopper.png"))
    }

    /// The summary says what a person would want to know: photos with no face (written as they
    /// were), faces too small to sketch well, sub-folders not searched; `-v` gives a line a photo.
    @Test func theSummaryNamesPhotosWithoutFacesSmallFacesAndSkippedFolders() throws {
        let inputs = try TestAssets.temporaryFolder("cli-summary"), out = try TestAssets.temporaryFolder("cli-summary-out")
        try VipsImage.solid(width: 300, height: 200, pixel: [90, 120, 200]).save(path: inputs + "/sky.png")
        try FileManager.default.copyItem(atPath: TestAssets.group, toPath: inputs + "/group.jpg")
        try FileManager.default.createDirectory(atPath: inputs + "/trip", withIntermediateDirectories: true)
        let result = try CLIRunner.run(["batch", inputs, "--out", out, "-v"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(inputs)/group.jpg: 3 faces (1 too small to sketch well) → \(out)/group.png"))
        #expect(result.stderr.contains("\(inputs)/sky.png: 0 faces → \(out)/sky.png"))
        #expect(result.stderr.contains("no face found in 1 photo (written unchanged): sky.png"))
        #expect(result.stderr.contains("1 face in 1 photo is under 96 px and may not sketch well (`sketchease report` shows them): group.jpg"))
        #expect(result.stderr.contains("1 sub-folder not searched (--recursive takes it): trip/"))
    }

    /// With a background style a photo without faces is drawn all the same, and the summary
    /// says so, not that it was written unchanged.
    @Test func aPhotoWithoutFacesUnderABackgroundStyleIsSaidToBeDrawn() throws {
        let inputs = try TestAssets.temporaryFolder("cli-summary-bg"), out = try TestAssets.temporaryFolder("cli-summary-bg-out")
        let sky = try VipsImage.solid(width: 300, height: 200, pixel: [90, 120, 200])
        try sky.save(path: inputs + "/sky.png")
        let result = try CLIRunner.run(["batch", inputs, "--out", out, "--background-filter", "pixelate"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no face found in 1 photo (only the background drawn): sky.png"))
        #expect(!result.stderr.contains("written unchanged"))
    }
}

/// Issue 22 (4): `rot8.jpg` and `rot8.png` in one folder. The failure named the result
/// (`rot8.png`), not the photo, and the other result became `rot8.png.png`.
@Suite struct SharedResultNameTests {
    func photos() throws -> String {
        let folder = try TestAssets.temporaryFolder("rot8")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/rot8.jpg")
        try FileManager.default.copyItem(atPath: TestAssets.astronaut, toPath: folder + "/rot8.png")
        return folder
    }

    /// The photo already a PNG keeps `rot8.png`; the JPEG's result takes its whole name, and
    /// the summary says so.
    @Test func thePhotoInTheResultsFormatKeepsThePlainName() throws {
        let folder = try photos()
        let out = try TestAssets.temporaryFolder("rot8-out")
        let result = try CLIRunner.run(["batch", folder, "--out", out, "-f", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".sketchease", "rot8.jpg.png", "rot8.png"])
        #expect(result.stderr.contains("rot8.jpg → rot8.jpg.png"), "\(result.stderr)")
        // The PNG's result is the astronaut (512 × 512), the JPEG's Grace Hopper.
        #expect(try VipsImage.load(path: out + "/rot8.png").width == 512)
        // With --format jpeg the JPEG keeps the plain name instead.
        let jpeg = try CLIRunner.run(["batch", folder, "--out", out, "-f", "none", "--format", "jpeg"])
        #expect(jpeg.status == 0, "\(jpeg.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/rot8.jpg") && FileManager.default.fileExists(atPath: out + "/rot8.png.jpg"))
    }

    /// With --out the photos' own folder the PNG's plain result would be the PNG itself: the one
    /// error names that photo, the JPEG is done as `rot8.jpg.png`, and nothing is `rot8.png.png`.
    @Test func inThePhotosOwnFolderTheErrorNamesThePhoto() throws {
        let folder = try photos()
        let result = try CLIRunner.run(["batch", folder, "--out", folder, "-f", "none", "--overwrite"])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors == ["error: \(folder)/rot8.png: its output \(folder)/rot8.png would replace the photo itself (choose another --out)"],
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".sketchease", "rot8.jpg", "rot8.jpg.png", "rot8.png"])
    }

    /// A result that cannot be written is said of the photo it comes from.
    @Test func aResultThatIsNotOursIsSaidOfThePhoto() throws {
        let folder = try photos()
        let out = try TestAssets.temporaryFolder("rot8-theirs")
        try FileManager.default.copyItem(atPath: TestAssets.astronaut, toPath: out + "/rot8.jpg.png")
        let result = try CLIRunner.run(["batch", folder, "--out", out, "-f", "none", "--overwrite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(folder)/rot8.jpg: its result \(out)/rot8.jpg.png exists and was not written by SketchEase"),
                "\(result.stderr)")
    }
}

/// Issue 22 (8): `--format jpeg` on a transparent PNG put it onto white without a word.
@Suite struct FlattenedTransparencyTests {
    @Test func theSummaryNamesPhotosWhoseTransparencyJPEGCannotKeep() throws {
        let folder = try TestAssets.temporaryFolder("see-through")
        let photo = try VipsImage.load(path: TestAssets.graceHopper)
        try photo.bandjoin(try VipsImage.solid(width: photo.width, height: photo.height, pixel: [128])).save(path: folder + "/glass.png")
        try photo.bandjoin(try VipsImage.solid(width: photo.width, height: photo.height, pixel: [255])).save(path: folder + "/opaque.png")
        let out = try TestAssets.temporaryFolder("see-through-out")
        let jpeg = try CLIRunner.run(["batch", folder, "--out", out, "-f", "none", "--format", "jpeg"])
        #expect(jpeg.status == 0, "\(jpeg.stderr)")
        let note = jpeg.stderr.split(separator: "\n").filter { $0.contains("transparent") }
        #expect(note == ["1 photo had transparent parts, put onto white: JPEG has none (--format png or webp keeps them): glass.png"],
                "\(jpeg.stderr)")
        // PNG keeps the transparency: nothing to say.
        let png = try CLIRunner.run(["batch", folder, "--out", out, "-f", "none"])
        #expect(png.status == 0 && !png.stderr.contains("transparent"), "\(png.stderr)")
    }
}
