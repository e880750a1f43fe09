import Foundation
import Testing
import TestSupport
import Vips

@Suite struct ReportCommandTests {
    struct Entry: Decodable {
        var file: String
        var faces: [Face]
    }

    struct Face: Decodable {
        var index: Int
        var box: [Double]
        var score: Double
        var landmarks: [String: [Double]]
        var good: Bool
        var warnings: [Warning]
        var measurements: [String: JSONValue]
        var skin_tone: Tone
    }

    struct Warning: Decodable {
        var kind: String
        var value: Double
        var threshold: Double
        var message: String
    }

    struct Tone: Decodable {
        var hex: String
        var lab: [Double]
        var pixel_count: Int
        var lab_standard_deviation: [Double]
    }

    /// Any JSON scalar or array, for fields the test only checks are present.
    enum JSONValue: Decodable {
        case number(Double), list([String])
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let d = try? c.decode(Double.self) { self = .number(d) } else { self = .list(try c.decode([String].self)) }
        }
    }

    @Test func jsonReportsEveryFaceWithWarningsAndSkinTone() throws {
        let folder = try TestAssets.temporaryFolder("report")
        // A copy of Grace Hopper cut off just left of her eye.
        let cut = folder + "/cut.png"
        try VipsImage.load(path: TestAssets.graceHopper).crop(x: 200, y: 0, width: 312, height: 600).savePNG(path: cut)
        let result = try CLIRunner.run(["report", TestAssets.graceHopper, cut, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(result.stdout.utf8))
        #expect(entries.map(\.file) == [TestAssets.graceHopper, cut])
        let good = try #require(entries[0].faces.first)
        #expect(good.good && good.warnings.isEmpty && good.index == 1)
        #expect(Set(good.landmarks.keys) == ["left_eye", "right_eye", "nose", "mouth_left", "mouth_right"])
        #expect(good.skin_tone.hex.hasPrefix("#") && good.skin_tone.hex.count == 7)
        #expect(good.skin_tone.lab[0] > 40 && good.skin_tone.lab[0] < 90 && good.skin_tone.lab[1] > 5)
        #expect(good.skin_tone.pixel_count > 500)
        for key in ["face_size", "outside_fraction", "lighting_stops", "sharpness", "roll_degrees", "edges_touched"] {
            #expect(good.measurements[key] != nil, "missing \(key)")
        }
        let cutFace = try #require(entries[1].faces.first)
        #expect(!cutFace.good)
        #expect(cutFace.warnings.map(\.kind).contains("cut_off"))
    }

    @Test func textReportAndCropExport() throws {
        let folder = try TestAssets.temporaryFolder("report-crops")
        let result = try CLIRunner.run(["report", TestAssets.group, "--export-crops", folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 faces"))
        #expect(result.stdout.contains("warning: too small"))
        #expect(result.stdout.contains("skin tone #"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.contains("group-faces.json"))
        #expect(files.filter { $0.hasSuffix("-eye.png") }.count == 6)
        #expect(files.filter { $0.range(of: #"^group-face\d\.png$"#, options: .regularExpression) != nil }.count == 3)
        // Unreadable inputs fail the run; warnings do not.
        let notes = try BadInputs.text(in: folder)
        let bad = try CLIRunner.run(["report", notes])
        #expect(bad.status == 1 && bad.stderr.contains("not an image"))
    }

    @Test func batchTakesAStickerFolderForTheMaskStyle() throws {
        let folder = try TestAssets.temporaryFolder("batch-stickers")
        let stickers = folder + "/stickers"
        try FileManager.default.createDirectory(atPath: stickers, withIntermediateDirectories: true)
        try VipsImage.solid(width: 50, height: 50, pixel: [0, 0, 255]).savePNG(path: stickers + "/nose.png")
        let out = folder + "/out"
        let result = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "-f", "mask", "-p", "features=nose", "--stickers", stickers])
        #expect(result.status == 0, "\(result.stderr)")
        // Grace Hopper's nose tip is at about (266, 237): now pure blue.
        let drawn = try VipsImage.load(path: out + "/grace_hopper.png").crop(x: 262, y: 233, width: 8, height: 8)
        #expect(try drawn.extractBands(2).minimum() > 240 && drawn.extractBands(0).maximum() < 15)
        let wrongStyle = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "--stickers", stickers])
        #expect(wrongStyle.status != 0 && wrongStyle.stderr.contains("--stickers needs the mask style"))
        let missing = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", out, "-f", "mask", "--stickers", folder + "/nope"])
        #expect(missing.status != 0 && missing.stderr.contains("no such folder"))
    }

    /// Crops say where they went, small faces are not blown up past 4×, and a second run keeps
    /// what is there and goes on.
    @Test func exportedCropsAreNamedKeptAndNotOverEnlarged() throws {
        let crops = try TestAssets.temporaryFolder("crops")
        let first = try CLIRunner.run(["report", TestAssets.group, "--export-crops", crops])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("crops: 10 files written in \(crops)/ (group-face1.png, group-face1-left-eye.png"), "\(first.stderr)")
        #expect(first.stderr.contains("face 3: crop "), "the small face says it was not enlarged to 1080: \(first.stderr)")
        let small = try VipsImage.load(path: crops + "/group-face3.png")
        #expect(max(small.width, small.height) < 400)
        let eye = try VipsImage.load(path: crops + "/group-face3-left-eye.png")
        #expect(eye.width == eye.height)
        let again = try CLIRunner.run(["report", TestAssets.group, "--export-crops", crops])
        #expect(again.status == 0)
        #expect(again.stderr.contains("crops: 10 files already there kept (--overwrite replaces them)"), "\(again.stderr)")
    }
}
