import Foundation
import Testing
import TestSupport
import Vips

/// "Your photos are never modified", whatever the options: an output that would land on a photo
/// is refused, and nothing SketchEase wrote is ever taken for a photo.
@Suite struct OutputSafetyTests {
    let fm = FileManager.default

    func photos() throws -> String {
        let folder = try TestAssets.temporaryFolder("photos")
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: folder + "/camera.png")
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/grace_hopper.jpg")
        return folder
    }

    func fingerprints(_ folder: String, _ names: [String]) throws -> [Data] {
        try names.map { try TestAssets.fingerprint(folder + "/" + $0) }
    }

    /// The data loss a newcomer found: `batch photos/ --out photos/ --overwrite` replaced
    /// camera.png with its sketch.
    @Test func anOutputThatWouldReplaceItsPhotoIsRefusedWhateverTheOptions() throws {
        let folder = try photos()
        let before = try fingerprints(folder, ["camera.png", "grace_hopper.jpg"])
        let linked = try TestAssets.temporaryFolder("link") + "/to-photos"
        try fm.createSymbolicLink(atPath: linked, withDestinationPath: folder)
        try fm.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        // The same folder as given, through a symlink, and through `..`: each refused the same way.
        for out in [folder, folder + "/", linked, folder + "/sub/.."] {
            let result = try CLIRunner.run(["batch", folder, "--out", out, "--overwrite"])
            #expect(result.status == 1, "\(out): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
            #expect(errors.count == 1 && errors[0].contains("camera.png: its output ")
                    && errors[0].hasSuffix("would replace the photo itself (choose another --out)"), "\(out): \(errors)")
            #expect(try fingerprints(folder, ["camera.png", "grace_hopper.jpg"]) == before, "\(out)")
        }
        #expect(fm.fileExists(atPath: folder + "/grace_hopper.png"), "the other photo's result is written")
    }

    @Test func overwriteReplacesOnlyWhatSketchEaseWrote() throws {
        let folder = try photos()
        let out = try TestAssets.temporaryFolder("theirs")
        // A picture of the person's own where the result would go.
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: out + "/grace_hopper.png")
        let before = try TestAssets.fingerprint(out + "/grace_hopper.png")
        let result = try CLIRunner.run(["batch", folder + "/grace_hopper.jpg", "--out", out, "--overwrite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(folder)/grace_hopper.jpg: its result \(out)/grace_hopper.png exists and was not written by SketchEase, so it is never replaced"))
        #expect(try TestAssets.fingerprint(out + "/grace_hopper.png") == before)
        // Its own earlier result it does replace.
        try fm.removeItem(atPath: out + "/grace_hopper.png")
        #expect(try CLIRunner.run(["batch", folder + "/grace_hopper.jpg", "--out", out]).status == 0)
        let again = try CLIRunner.run(["batch", folder + "/grace_hopper.jpg", "--out", out, "--overwrite"])
        #expect(again.status == 0 && again.stderr.hasPrefix("1 written"), "\(again.stderr)")
    }

    /// `batch nest/ --recursive --out nest/sketches` three times made sketches/sketches/sketches;
    /// with the results in the photos' folder messi5.png became messi5.png.png.
    @Test func resultsAreNeverReadBackAsPhotos() throws {
        let nest = try photos()
        try fm.createDirectory(atPath: nest + "/trip", withIntermediateDirectories: true)
        try fm.moveItem(atPath: nest + "/grace_hopper.jpg", toPath: nest + "/trip/messi5.jpg")
        for _ in 0..<3 {
            let result = try CLIRunner.run(["batch", nest, "--recursive", "--out", nest + "/sketches"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(!fm.fileExists(atPath: nest + "/sketches/sketches"))
        #expect(try fm.subpathsOfDirectory(atPath: nest + "/sketches").filter { !$0.contains(".sketchease") }.sorted()
            == ["camera.png", "trip", "trip/messi5.png"])
        for _ in 0..<2 {
            let result = try CLIRunner.run(["batch", nest + "/trip", "--out", nest + "/trip"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try fm.contentsOfDirectory(atPath: nest + "/trip").sorted() == [".sketchease", "messi5.jpg", "messi5.png"])
        // Another run with the results elsewhere still leaves the earlier results out, and says so.
        let elsewhere = try CLIRunner.run(["batch", nest, "--recursive", "--out", try TestAssets.temporaryFolder("else")])
        #expect(elsewhere.stderr.contains("2 written"), "\(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("3 images left out: SketchEase wrote them"), "\(elsewhere.stderr)")
    }

    /// A batch into a folder that takes no files fails at once, naming the folder (not a
    /// temporary file), before decoding or sketching anything.
    @Test(.enabled(if: ReadOnlyFolder.available))
    func anOutputFolderThatTakesNoFilesFailsBeforeAnyWork() throws {
        let folder = try photos()
        let readOnly = try ReadOnlyFolder()
        defer { readOnly.release() }
        let result = try CLIRunner.run(["batch", folder, "--out", readOnly.path])
        #expect(result.status == 1)
        let reason = getuid() == 0 ? "read-only file system" : "permission denied"
        #expect(result.stderr == "error: \(readOnly.path): cannot write output (\(reason))\n", "\(result.stderr)")
        #expect(!result.stderr.contains(".tmp"))
    }
}
