import Foundation
import Testing
import TestSupport

/// Every command that writes a file leaves a person's own file where it would land untouched:
/// `gallery --out`, `report --export-crops`, `batch --report`, `report-merge --out`,
/// `video --report` and `video`'s clip (and `batch`'s images: `OutputSafetyTests`). Each test puts
/// a photo of the person's own at the destination and checks its bytes afterwards.
@Suite struct UserFilesTests {
    let fm = FileManager.default

    /// A folder with the person's photo `name` in it (a real JPEG, as a person would have).
    func folderWithTheirFile(_ name: String) throws -> (folder: String, file: String, before: Data) {
        let folder = try TestAssets.temporaryFolder("theirs")
        let file = folder + "/" + name
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: file)
        return (folder, file, try TestAssets.fingerprint(file))
    }

    /// The data loss a new user hit: `gallery trip.jpg --out mine.jpg` turned mine.jpg into a PNG
    /// contact sheet still named .jpg.
    @Test func galleryNeverReplacesAPersonsFile() throws {
        for name in ["mine.jpg", "precious.png"] {
            let (folder, file, before) = try folderWithTheirFile(name)
            let result = try CLIRunner.run(["gallery", TestAssets.graceHopper, "--out", file])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("error: \(file): exists and was not written by SketchEase, so it is never replaced"),
                    "\(result.stderr)")
            #expect(try TestAssets.fingerprint(file) == before)
            #expect(try fm.contentsOfDirectory(atPath: folder) == [name], "no temporary file is left")
        }
    }

    /// A sheet SketchEase wrote is its own: made again over it without asking; a sheet named .jpg
    /// is a JPEG.
    @Test func galleryReplacesItsOwnSheetInTheFormatItsNameSays() throws {
        let folder = try TestAssets.temporaryFolder("sheets")
        for _ in 0..<2 {
            let result = try CLIRunner.run(["gallery", TestAssets.graceHopper, "--out", folder + "/sheet.jpg"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: folder + "/sheet.jpg")).read(upToCount: 3)
        #expect(head == Data([0xFF, 0xD8, 0xFF]), "a JPEG")
        let wrongName = try CLIRunner.run(["gallery", TestAssets.graceHopper, "--out", folder + "/sheet.gif"])
        #expect(wrongName.status != 0 && wrongName.stderr.contains("name the sheet .png, .jpg or .webp"), "\(wrongName.stderr)")
    }

    @Test func cropExportNeverReplacesAPersonsFile() throws {
        let (folder, file, before) = try folderWithTheirFile("grace_hopper-face1.png")
        let photo = folder + "/grace_hopper.jpg"
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: photo)
        for overwrite in [[], ["--overwrite"]] {
            let result = try CLIRunner.run(["report", photo, "--export-crops", folder] + overwrite)
            #expect(try TestAssets.fingerprint(file) == before, "\(overwrite): \(result.stderr)")
        }
        #expect(fm.fileExists(atPath: folder + "/grace_hopper-faces.json"), "the rest is written")
    }

    @Test func batchReportNeverReplacesAPersonsFile() throws {
        let (folder, file, before) = try folderWithTheirFile("notes.json")
        let result = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", folder + "/out", "--report", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(file): exists and was not written by SketchEase"), "\(result.stderr)")
        #expect(try TestAssets.fingerprint(file) == before)
        #expect(!fm.fileExists(atPath: folder + "/out/grace_hopper.png"), "refused before any work")
        // Its own report it replaces when the batch runs again.
        let report = folder + "/report.json"
        for _ in 0..<2 {
            let again = try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", folder + "/out", "--report", report])
            #expect(again.status == 0 && fm.fileExists(atPath: report), "\(again.stderr)")
        }
    }

    @Test func mergedReportNeverReplacesAPersonsFileNorAShard() throws {
        let (folder, file, before) = try folderWithTheirFile("summary.json")
        let shard = folder + "/shard.json"
        #expect(try CLIRunner.run(["batch", TestAssets.graceHopper, "--out", folder + "/out", "--report", shard]).status == 0)
        let shardBefore = try TestAssets.fingerprint(shard)
        let theirs = try CLIRunner.run(["report-merge", shard, "--out", file])
        #expect(theirs.status == 1 && theirs.stderr.contains("exists and was not written by SketchEase"), "\(theirs.stderr)")
        #expect(try TestAssets.fingerprint(file) == before)
        let ontoShard = try CLIRunner.run(["report-merge", shard, "--out", shard])
        #expect(ontoShard.status != 0 && ontoShard.stderr.contains("is one of the reports"), "\(ontoShard.stderr)")
        #expect(try TestAssets.fingerprint(shard) == shardBefore)
        #expect(try CLIRunner.run(["report-merge", shard, "--out", folder + "/merged.json"]).status == 0)
    }

    @Test func videoNeverReplacesAPersonsFile() throws {
        let (folder, file, before) = try folderWithTheirFile("stats.json")
        let clip = folder + "/clip.mp4"
        try TestClips.pattern(clip, seconds: 1)
        // The person's own picture where the clip's result would go, and where its report would go.
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/out.mp4")
        try fm.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/out/clip.mp4")
        let clipBefore = try TestAssets.fingerprint(folder + "/out/clip.mp4")
        let report = try CLIRunner.run(["video", clip, "--out", folder + "/elsewhere", "--report", file])
        #expect(report.status == 1 && report.stderr.contains("exists and was not written by SketchEase"), "\(report.stderr)")
        #expect(try TestAssets.fingerprint(file) == before)
        let result = try CLIRunner.run(["video", clip, "--out", folder + "/out", "--overwrite"])
        #expect(result.status == 1 && result.stderr.contains("exists and was not written by SketchEase"), "\(result.stderr)")
        #expect(try TestAssets.fingerprint(folder + "/out/clip.mp4") == clipBefore)
    }

    /// `--out afile/sub` said "NSCocoaErrorDomain error 512"; the line names what is in the way.
    @Test func anOutputFolderUnderAFileIsSaidInPlainWords() throws {
        let (_, file, _) = try folderWithTheirFile("afile")
        for command in [["batch", TestAssets.graceHopper], ["report", TestAssets.graceHopper, "--export-crops"]] {
            let result = try CLIRunner.run(command + (command[0] == "batch" ? ["--out"] : []) + [file + "/sub"])
            #expect(result.status == 1, "\(command[0]): \(result.stderr)")
            #expect(result.stderr.contains("\(file) is a file, not a folder"), "\(command[0]): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(command[0]): \(result.stderr)")
        }
    }

    /// A JPEG renamed .mp4 became a 0.04 s one-frame video.
    @Test func aPhotoGivenAsAClipIsNamedForWhatItIs() throws {
        let folder = try TestAssets.temporaryFolder("photo-clip")
        try fm.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/holiday.mp4")
        let result = try CLIRunner.run(["video", folder + "/holiday.mp4", "--out", folder + "/out"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(folder)/holiday.mp4: not a video (this is a JPEG photo: use `sketchease batch`)"),
                "\(result.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/out/holiday.mp4"))
    }
}
