import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct InputCollectorTests {
    let fm = FileManager.default

    func touch(_ path: String) { _ = fm.createFile(atPath: path, contents: Data([1])) }

    @Test func foldersGiveImagesSortedAndRecursionIsOptIn() throws {
        let root = try TestAssets.temporaryFolder("collect")
        try fm.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        touch(root + "/b.jpg"); touch(root + "/a.PNG"); touch(root + "/readme.txt"); touch(root + "/.hidden.jpg")
        touch(root + "/trip/beach.webp")
        let flat = InputCollector.collect([root], recursive: false)
        #expect(flat.files.map { $0.outputName() } == ["a.png", "b.png"])
        let deep = InputCollector.collect([root], recursive: true)
        #expect(deep.files.map { $0.outputName() } == ["a.png", "b.png", "trip/beach.png"])
    }

    @Test func symlinkLoopsAreWalkedOnce() throws {
        let root = try TestAssets.temporaryFolder("loop")
        try fm.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        touch(root + "/sub/face.jpg")
        try fm.createSymbolicLink(atPath: root + "/sub/back", withDestinationPath: root)
        let found = InputCollector.collect([root], recursive: true)
        #expect(found.files.map { $0.outputName() } == ["sub/face.png"])
    }

    @Test func namesThatCollideKeepTheirSuffix() throws {
        let root = try TestAssets.temporaryFolder("collide")
        touch(root + "/photo.jpg"); touch(root + "/photo.png")
        let files = InputCollector.collect([root], recursive: false).files
        #expect(files.map(\.path) == [root + "/photo.jpg", root + "/photo.png"])
        // Whatever the order, the PNG keeps the PNG result's name and the JPEG's takes its whole name.
        #expect(files.map { $0.outputName() } == ["photo.jpg.png", "photo.png"])
        #expect(files.map(\.renamed) == [true, false])
        let jpegs = InputCollector.collect([root], recursive: false, outputSuffix: "jpg").files
        #expect(jpegs.map { $0.outputName(.jpeg) } == ["photo.jpg", "photo.png.jpg"])
    }

    @Test func aPhotoNamedTwiceIsTakenOnceAndNoTwoPhotosShareAnOutput() throws {
        let root = try TestAssets.temporaryFolder("many")
        for folder in ["a", "b", "c", "d"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            touch(root + "/\(folder)/x.jpg")
        }
        let inputs = ["a", "b", "c", "d", "a", "./b/../a"].map { root + "/\($0)/x.jpg" }
        let files = InputCollector.collect(inputs, recursive: false).files
        #expect(files.map(\.path) == inputs.prefix(4).map { $0 })
        #expect(files.map { $0.outputName() } == ["x.png", "x.jpg.png", "x-3.png", "x-4.png"])
    }

    @Test func missingInputsAreReported() {
        let result = InputCollector.collect(["/no/such/folder"], recursive: true)
        #expect(result.files.isEmpty)
        #expect(result.problems == [PhotoError(path: "/no/such/folder", reason: .notFound)])
    }

    @Test func unicodeAndSpacesInNames() throws {
        let root = try TestAssets.temporaryFolder("names")
        touch(root + "/Grand-mère à Noël.jpg")
        #expect(InputCollector.collect([root], recursive: false).files.map { $0.outputName() } == ["Grand-mère à Noël.png"])
    }

    @Test func photosComeInNaturalCaseInsensitiveOrder() throws {
        let root = try TestAssets.temporaryFolder("natural")
        for name in ["Tom_Cruise.jpg", "bald_guys.jpg", "photo 10.jpg", "photo 2.jpg", "photo 1.jpg", "Photo 3.jpg"] {
            touch(root + "/" + name)
        }
        let names = InputCollector.collect([root], recursive: false).files.map { ($0.path as NSString).lastPathComponent }
        #expect(names == ["bald_guys.jpg", "photo 1.jpg", "photo 2.jpg", "Photo 3.jpg", "photo 10.jpg", "Tom_Cruise.jpg"])
        #expect(NaturalOrder.precedes("img007", "img10") && !NaturalOrder.precedes("img10", "img007"))
    }

    @Test func subFoldersLeftOutWithoutRecursionAreNamed() throws {
        let root = try TestAssets.temporaryFolder("unsearched")
        try fm.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        touch(root + "/a.jpg")
        let flat = InputCollector.collect([root], recursive: false)
        #expect(flat.unsearchedFolders == [root + "/trip"])
        #expect(InputCollector.collect([root], recursive: true).unsearchedFolders.isEmpty)
    }

    /// What SketchEase wrote is never read back as a photo: not its outputs (recorded in
    /// `.sketchease/written.log`), not its hidden folder, not the run's own output folder.
    @Test func sketchEaseOutputsAreNeverInputs() throws {
        let root = try TestAssets.temporaryFolder("own")
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: root + "/messi5.jpg")
        let image = try VipsImage.load(path: TestAssets.graceHopper)
        try ImageExporter.write(image, to: root + "/messi5.png", options: ExportOptions())
        try ImageExporter.write(image, to: root + "/sketches/camera.png", options: ExportOptions())
        try ImageExporter.write(image, to: root + "/.sketchease/messi5.preview.png", options: ExportOptions())
        let found = InputCollector.collect([root], recursive: true)
        #expect(found.files.map(\.path) == [root + "/messi5.jpg"])
        #expect(found.files.map { $0.outputName() } == ["messi5.png"], "no messi5.png.png")
        #expect(found.ownOutputs.sorted() == [root + "/messi5.png", root + "/sketches/camera.png"])
        // Named explicitly, an output is still not taken.
        #expect(InputCollector.collect([root + "/messi5.png"], recursive: false).files.isEmpty)
        // A photo copied over an output later is the person's again.
        try fm.removeItem(atPath: root + "/messi5.png")
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: root + "/messi5.png")
        #expect(InputCollector.collect([root], recursive: false).files.count == 2)
    }

    @Test func theRunsOwnOutputFolderIsNotWalked() throws {
        let root = try TestAssets.temporaryFolder("nest")
        try fm.createDirectory(atPath: root + "/sketches/old", withIntermediateDirectories: true)
        touch(root + "/camera.jpg"); touch(root + "/sketches/old/unrecorded.jpg")
        let found = InputCollector.collect([root], recursive: true, outputFolders: [root + "/sketches/"])
        #expect(found.files.map { $0.outputName() } == ["camera.png"])
        // The output folder given as the input itself is walked (its photos are inputs).
        #expect(InputCollector.collect([root + "/sketches/old"], recursive: true, outputFolders: [root + "/sketches/old"]).files.count == 1)
    }
}
