import Foundation
import Testing
import TestSupport
@testable import SketchEase

/// Unusual and hostile inputs, all generated here: each gives a correct PNG or one clear error.
@Suite struct RobustnessTests {
    func batch(_ paths: [String], out: String, pixelLimit: Int = Photo.defaultPixelLimit) throws -> BatchReport {
        let options = BatchOptions(outputFolder: out, style: try .named("pencil"), pixelLimit: pixelLimit)
        let runner = BatchRunner(options: options) { try .centerFace(modelPath: TestAssets.model) }
        return try runner.run(paths.map { InputFile(path: $0) })
    }

    func outcome(_ report: BatchReport, _ index: Int = 0) -> BatchReport.Outcome { report.entries[index].outcome }

    @Test func decompressionBombIsRefusedBeforeDecoding() throws {
        let folder = try TestAssets.temporaryFolder("bomb"), out = try TestAssets.temporaryFolder("bomb-out")
        let bomb = try BadInputs.hugeDeclaredPNG(in: folder)
        let report = try batch([bomb], out: out)
        #expect(outcome(report) == .failed(PhotoError(path: bomb, reason: .tooLarge(pixels: 3_600_000_000, limit: Photo.defaultPixelLimit))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    @Test func manyChannelBombIsRefusedBeforeDecoding() throws {
        let folder = try TestAssets.temporaryFolder("channels"), out = try TestAssets.temporaryFolder("channels-out")
        let bomb = try BadInputs.manyChannelTIFF(in: folder)
        #expect(try TestAssets.fileSize(bomb) < 4096)
        let report = try batch([bomb], out: out)
        let limit = Photo.defaultPixelLimit * Photo.bytesPerPixelAllowance
        #expect(outcome(report) == .failed(PhotoError(path: bomb, reason: .tooMuchData(
            channels: 250, bytesPerSample: 4, bytes: 1_000_000 * 250 * 4, limit: limit))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    @Test func truncatedFilesFailWithTheirNameAndLeaveNothing() throws {
        let folder = try TestAssets.temporaryFolder("trunc"), out = try TestAssets.temporaryFolder("trunc-out")
        let jpeg = try BadInputs.truncatedJPEG(in: folder), png = try BadInputs.truncatedPNG(in: folder)
        let report = try batch([jpeg, png], out: out)
        for (i, path) in [jpeg, png].enumerated() {
            guard case .failed(let error) = outcome(report, i) else { Issue.record("\(path) should fail"); continue }
            #expect(error.path == path)
            guard case .corrupt = error.reason else { Issue.record("\(error)"); continue }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    @Test func colourVariantsBecomeEightBitSRGB() throws {
        let folder = try TestAssets.temporaryFolder("colour"), out = try TestAssets.temporaryFolder("colour-out")
        let source = try VipsImage.load(path: TestAssets.graceHopper)
        let cmyk = folder + "/cmyk.jpg", cmykBare = folder + "/cmyk-no-profile.jpg", p3 = folder + "/p3.jpg"
        let wide = folder + "/sixteen.png", grey = folder + "/grey.jpg", alpha = folder + "/alpha.png"
        try source.iccExport(profile: "cmyk").save(path: cmyk)
        try source.iccExport(profile: "cmyk").removingFields(["icc-profile-data"]).save(path: cmykBare)
        try source.iccExport(profile: "p3").save(path: p3)
        try source.colourspace(.rgb16).save(path: wide)
        try source.colourspace(.bw).save(path: grey)
        try source.bandjoin(try VipsImage.solid(width: 512, height: 600, pixel: [255])).save(path: alpha)
        #expect(try VipsImage.load(path: cmyk).interpretation == .cmyk)
        #expect(try VipsImage.load(path: wide).format == .ushort)
        let inputs = [cmyk, cmykBare, p3, wide, grey, alpha]
        let report = try batch(inputs, out: out)
        #expect(report.succeeded, "\(report.failures)")
        for (i, path) in inputs.enumerated() {
            let output = out + "/" + InputFile(path: path).outputName()
            #expect(outcome(report, i) == .written(output: output, faces: 1, small: 0), "\(path)")
        }
        for name in ["cmyk", "cmyk-no-profile", "p3", "sixteen", "grey"] {
            let png = try VipsImage.load(path: out + "/\(name).png")
            #expect(png.format == .uchar && png.bands == 3 && png.interpretation == .srgb, "\(name)")
            // Far from the face the colours match the sRGB original closely.
            let diff = try PixelStats.meanAbsoluteDifference(png.colourspace(.bw), source.colourspace(.bw), x: 0, y: 0, width: 100, height: 100)
            #expect(diff < 12, "\(name): mean difference \(diff)")
        }
        let withAlpha = try VipsImage.load(path: out + "/alpha.png")
        #expect(withAlpha.bands == 4 && withAlpha.format == .uchar)
    }

    @Test(arguments: 1...8)
    func everyEXIFOrientationComesOutUpright(tag: Int) throws {
        let folder = try TestAssets.temporaryFolder("orient"), out = try TestAssets.temporaryFolder("orient-out")
        let upright = try VipsImage.load(path: TestAssets.graceHopper)
        let path = folder + "/o\(tag).jpg"
        try BadInputs.stored(upright, orientation: tag).save(path: path)
        let report = try batch([path], out: out)
        #expect(outcome(report) == .written(output: out + "/o\(tag).png", faces: 1, small: 0))
        let png = try VipsImage.load(path: out + "/o\(tag).png")
        #expect(png.width == 512 && png.height == 600)
        let diff = try PixelStats.meanAbsoluteDifference(png, upright, x: 0, y: 0, width: 120, height: 120)
        #expect(diff < 6, "orientation \(tag): corner differs by \(diff)")
    }

    @Test(arguments: ["gif", "webp"])
    func animationGivesItsFirstFrame(suffix: String) throws {
        let folder = try TestAssets.temporaryFolder("anim"), out = try TestAssets.temporaryFolder("anim-out")
        let animation = try BadInputs.animated(in: folder, suffix: suffix)
        #expect(try VipsImage.load(path: animation).int(field: "n-pages") == 3)
        let report = try batch([animation], out: out)
        #expect(report.succeeded, "\(report.failures)")
        let png = try VipsImage.load(path: out + "/animated.png")
        #expect(png.width == 320 && png.height == 360)
        // The first frame, not a later, brighter one.
        let first = try VipsImage.load(path: TestAssets.graceHopper).crop(x: 100, y: 80, width: 320, height: 360)
        let corner = try PixelStats.meanAbsoluteDifference(png.extractBands(0, count: 3), first, x: 0, y: 0, width: 40, height: 40)
        #expect(corner < 25, "corner differs by \(corner)")
    }

    @Test func outputFolderThatCannotBeCreatedIsOneClearError() throws {
        let folder = try TestAssets.temporaryFolder("blocked")
        let file = folder + "/a-file"
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let error = #expect(throws: PhotoError.self) { try batch([TestAssets.astronaut], out: file + "/out") }
        #expect(error?.path == file + "/out")
        #expect(error?.description.contains("cannot write output") == true)
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file; permissions cannot be tested as root"))
    func unreadableFileIsReported() throws {
        let folder = try TestAssets.temporaryFolder("perm"), out = try TestAssets.temporaryFolder("perm-out")
        let path = folder + "/locked.jpg"
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: path)
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        let report = try batch([path], out: out)
        #expect(outcome(report) == .failed(PhotoError(path: path, reason: .notReadable)))
    }

    @Test(.enabled(if: TinyDisk.available, "needs permission to mount a tmpfs"))
    func fullDiskLeavesNoPartialOutput() throws {
        let disk = try TinyDisk(kilobytes: 200)
        defer { disk.unmount() }
        let report = try batch([TestAssets.astronaut], out: disk.path)
        guard case .failed(let error) = outcome(report) else { Issue.record("should fail on a full disk"); return }
        // Said of the photo, naming its result (every batch error names the photo).
        #expect(error.path == TestAssets.astronaut)
        guard case .withOutput(let output, .outputNotWritable) = error.reason else {
            Issue.record("expected a write failure of the result, got \(error)"); return
        }
        #expect(output == disk.path + "/astronaut.png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }

    @Test func staleTemporaryFilesOfDeadWritersAreRemoved() throws {
        let out = try TestAssets.temporaryFolder("stale")
        let dead = out + "/.photo.png.999999.123.tmp", mine = out + "/.other.png.\(getpid()).5.tmp"
        for p in [dead, mine] { _ = FileManager.default.createFile(atPath: p, contents: Data([1])) }
        #expect(ImageExporter.removeStaleTemporaries(in: out) == 1)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: mine))
    }
}
