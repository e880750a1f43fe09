import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct BatchRunnerTests {
    func runner(out: String, jobs: Int = 1, overwrite: Bool = false, keepMetadata: Bool = false) throws -> BatchRunner {
        let options = BatchOptions(outputFolder: out, style: try .named("pencil"),
                                   export: ExportOptions(keepMetadata: keepMetadata, overwrite: overwrite), jobs: jobs)
        return BatchRunner(options: options) { try .centerFace(modelPath: TestAssets.model) }
    }

    func examples() -> [InputFile] {
        InputCollector.collect([TestAssets.astronaut, TestAssets.graceHopper, TestAssets.group], recursive: false).files
    }

    @Test func sketchesEveryPhotoAndLeavesInputsUntouched() throws {
        let out = try TestAssets.temporaryFolder("batch")
        let before = try examples().map { try TestAssets.fingerprint($0.path) }
        let report = try runner(out: out, jobs: 2).run(examples())
        #expect(report.succeeded)
        #expect(report.written == 3)
        let faces = report.entries.map { entry -> Int in
            if case .written(_, let n, _) = entry.outcome { n } else { -1 }
        }
        #expect(faces == [1, 1, 3])
        for name in ["astronaut.png", "grace_hopper.png", "group.png"] {
            let png = try VipsImage.load(path: out + "/" + name)
            #expect(png.loader == "pngload" && png.format == .uchar && png.bands == 3)
        }
        #expect(try examples().map { try TestAssets.fingerprint($0.path) } == before)
        // No temporary files left behind; the record of what SketchEase wrote is hidden.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            == [".sketchease", "astronaut.png", "grace_hopper.png", "group.png"])
    }

    @Test func parallelWorkersTakeTheLargestPhotosFirst() throws {
        let folder = try TestAssets.temporaryFolder("order")
        let files = try [("a.jpg", 10), ("b.jpg", 300), ("c.jpg", 20), ("d.jpg", 300), ("missing.jpg", -1)].map { name, size in
            let path = folder + "/" + name
            if size >= 0 { try Data(count: size).write(to: URL(fileURLWithPath: path)) }
            return InputFile(path: path)
        }
        // Ties keep the order given; a file that cannot be read goes last (it fails fast).
        #expect(BatchRunner.largestFirst(files) == [1, 3, 2, 0, 4])
    }

    @Test func badFilesAreReportedAndTheBatchGoesOn() throws {
        let inputs = try TestAssets.temporaryFolder("in")
        let out = try TestAssets.temporaryFolder("out")
        _ = try BadInputs.zeroBytes(in: inputs, name: "a-empty.jpg")
        _ = try BadInputs.text(in: inputs, name: "b-notes.jpg")
        _ = try BadInputs.truncatedJPEG(in: inputs, name: "c-truncated.jpg")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: inputs + "/d-good.jpg")
        let files = InputCollector.collect([inputs], recursive: false).files
        #expect(files.count == 4)
        let report = try runner(out: out).run(files)
        #expect(!report.succeeded)
        #expect(report.written == 1)
        #expect(report.failures.map { ($0.path as NSString).lastPathComponent } == ["a-empty.jpg", "b-notes.jpg", "c-truncated.jpg"])
        #expect(report.failures.allSatisfy { !$0.description.contains("\n") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".sketchease", "d-good.png"])
        #expect(report.summary == "1 written, 3 failed")
    }

    @Test func existingOutputsAreSkippedUnlessOverwriting() throws {
        let out = try TestAssets.temporaryFolder("skip")
        let files = InputCollector.collect([TestAssets.graceHopper], recursive: false).files
        _ = try runner(out: out).run(files)
        let first = try TestAssets.fingerprint(out + "/grace_hopper.png")
        let again = try runner(out: out).run(files)
        #expect(again.skipped == 1 && again.written == 0 && again.succeeded)
        let replaced = try runner(out: out, overwrite: true).run(files)
        #expect(replaced.written == 1)
        #expect(try TestAssets.fingerprint(out + "/grace_hopper.png") == first, "same input, same output")
    }

    @Test func metadataIsStrippedByDefaultAndKeptOnRequest() throws {
        let inputs = try TestAssets.temporaryFolder("meta")
        let photo = inputs + "/located.jpg"
        try VipsImage.load(path: TestAssets.graceHopper).settingBlob("exif-data", ExifFixture.gpsBlob()).save(path: photo)
        #expect(try VipsImage.load(path: photo).fieldNames.contains { $0.contains("GPSLatitude") })
        let files = InputCollector.collect([photo], recursive: false).files
        let stripped = try TestAssets.temporaryFolder("stripped"), kept = try TestAssets.temporaryFolder("kept")
        _ = try runner(out: stripped).run(files)
        _ = try runner(out: kept, keepMetadata: true).run(files)
        #expect(!(try VipsImage.load(path: stripped + "/located.png").fieldNames.contains { $0.hasPrefix("exif-") }))
        #expect(try VipsImage.load(path: kept + "/located.png").fieldNames.contains { $0.contains("GPSLatitude") })
    }
}
