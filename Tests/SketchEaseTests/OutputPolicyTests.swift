import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct OutputPolicyTests {
    let fm = FileManager.default

    @Test func theOneRuleForWritingOverAFile() throws {
        let folder = try TestAssets.temporaryFolder("policy")
        let photo = folder + "/photo.png"
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: photo)
        // Nothing there: write.
        #expect(try OutputPolicy.verdict(for: folder + "/new.png", source: photo, overwrite: false) == .create)
        // The photo itself, by any path: refused even with overwrite.
        for path in [photo, folder + "/./photo.png", folder + "/../" + (folder as NSString).lastPathComponent + "/photo.png"] {
            #expect(throws: PhotoError(path: photo, reason: .outputIsInput(path))) {
                try OutputPolicy.verdict(for: path, source: photo, overwrite: true)
            }
        }
        try fm.linkItem(atPath: photo, toPath: folder + "/hardlink.png")
        #expect(throws: PhotoError.self) { try OutputPolicy.verdict(for: folder + "/hardlink.png", source: photo, overwrite: true) }
        // Someone else's file: kept without overwrite, refused with it, and refused as a named
        // destination too (`gallery --out mine.jpg` once replaced a person's photo).
        let theirs = folder + "/theirs.png"
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: theirs)
        #expect(try OutputPolicy.verdict(for: theirs, source: photo, overwrite: false) == .keep)
        #expect(throws: PhotoError(path: theirs, reason: .notOurOutput)) {
            try OutputPolicy.verdict(for: theirs, source: photo, overwrite: true)
        }
        #expect(throws: PhotoError(path: theirs, reason: .notOurOutput)) {
            try OutputPolicy.verdict(for: theirs, source: photo, overwrite: false, namedDestination: true)
        }
        // SketchEase's own output: replaced when asked.
        let ours = folder + "/ours.png"
        try ImageExporter.write(try VipsImage.load(path: photo), to: ours, options: ExportOptions())
        #expect(OutputRecord.wrote(ours))
        #expect(try OutputPolicy.verdict(for: ours, source: photo, overwrite: true) == .replace)
        // A named destination replaces SketchEase's own file without being told to overwrite.
        #expect(try OutputPolicy.verdict(for: ours, source: photo, overwrite: false, namedDestination: true) == .replace)
        // ...until a photo is copied over it: then it is the person's again.
        try fm.removeItem(atPath: ours)
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: ours)
        #expect(!OutputRecord.wrote(ours))
    }

    @Test func theExporterAppliesTheRuleItself() throws {
        let folder = try TestAssets.temporaryFolder("exporter-rule")
        let photo = folder + "/photo.png"
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: photo)
        let before = try TestAssets.fingerprint(photo)
        let image = try VipsImage.load(path: TestAssets.graceHopper)
        #expect(throws: PhotoError.self) {
            try ImageExporter.write(image, to: photo, source: photo, options: ExportOptions(overwrite: true))
        }
        #expect(throws: PhotoError.self) { try ImageExporter.write(image, to: photo, options: ExportOptions(overwrite: true)) }
        #expect(try TestAssets.fingerprint(photo) == before)
    }

    @Test func aKilledWriterLeavesItsOutputRecorded() throws {
        // The record line goes in before the rename: the file is SketchEase's as soon as it has its name.
        let folder = try TestAssets.temporaryFolder("record-order")
        let temporary = folder + "/.x.png.1.2.tmp"
        try fm.copyItem(atPath: TestAssets.astronaut, toPath: temporary)
        OutputRecord.note(file: temporary, as: "x.png", in: folder)
        try fm.moveItem(atPath: temporary, toPath: folder + "/x.png")
        #expect(OutputRecord.wrote(folder + "/x.png"))
    }

    @Test func shortPathsHaveParents() {
        for (path, parent) in [("a", ""), ("./", ""), (".", ""), ("a/", ""), ("/a", "/"), ("/", "/"), ("a/b.png", "a"),
                               ("/x/y/", "/x"), ("x//y", "x")] {
            #expect(path.parentPath == parent, "\(path)")
        }
    }

    @Test func theRecordKeepsOnlyWhatIsStillThereWhenItGrows() throws {
        let folder = try TestAssets.temporaryFolder("compact")
        let image = try VipsImage.solid(width: 4, height: 4, pixel: [1, 2, 3])
        for _ in 0..<3 { try ImageExporter.write(image, to: folder + "/a.png", options: ExportOptions(overwrite: true)) }
        try ImageExporter.write(image, to: folder + "/b.png", options: ExportOptions())
        try fm.removeItem(atPath: folder + "/b.png")
        let log = folder + "/.sketchease/written.log"
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 4)
        OutputRecord.compact(folder)
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 1)
        #expect(OutputRecord.wrote(folder + "/a.png"))
    }
}
