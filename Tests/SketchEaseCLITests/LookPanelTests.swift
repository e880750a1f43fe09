import Foundation
import Testing
import TestSupport
import Vips

/// `scripts/look-panel`, the blind panel's sheets and tally (docs/look-panel.md): each judge gets
/// the sheets lettered apart, and the tally reads each judge's rankings by that judge's letters.
@Suite struct LookPanelTests {
    static var script: String { TestAssets.root.appendingPathComponent("scripts/look-panel").path }

    /// Two builds of pencil (here the same binary twice) on one photo, for two judges: a folder
    /// of sheets each, and on each judge's sheet the two drawings under the other's letters.
    @Test func eachJudgeGetsTheSheetsLetteredApart() throws {
        let faces = try TestAssets.temporaryFolder("panel-faces")
        try FileManager.default.copyItem(atPath: TestAssets.example("grace_hopper.jpg"), toPath: faces + "/grace_hopper.jpg")
        let sheets = try TestAssets.temporaryFolder("panel-sheets"), key = try TestAssets.temporaryFolder("panel-key")
        let made = try CLIRunner.run(["make", "--faces", faces, "--also", "--no-hard-cases", "--styles", "pencil", "--peers", "",
                                      "--also-bin", "twin=\(CLIRunner.executable)", "--judges", "2", "--sheets", sheets, "--key", key],
                                     environment: ["BIN": CLIRunner.executable], executable: Self.script, in: TestAssets.root.path)
        #expect(made.status == 0, "\(made.stderr)")
        for judge in ["judge1", "judge2"] {
            #expect(FileManager.default.fileExists(atPath: "\(sheets)/\(judge)/face01.png"), "\(judge)'s sheet")
        }
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: key + "/key.json"))) as? [String: Any]
        #expect(written?["judges"] as? Int == 2)
        let sheet = (written?["sheets"] as? [String: Any])?["face01"] as? [String: Any]
        let letterings = try #require(sheet?["letters_by_judge"] as? [[String: String]])
        #expect(letterings.count == 2)
        #expect(Set(letterings[0].values) == ["sketchease pencil", "sketchease pencil [twin]"], "\(letterings)")
        #expect(letterings[0]["A"] == letterings[1]["B"] && letterings[0]["B"] == letterings[1]["A"], "lettered apart: \(letterings)")
    }

    /// `--min-face`: every face of at least that size gets a sheet, each cut out of a photo with
    /// several faces into a photo of its own (group.jpg: 181 and 96 px faces, not its 54 px one),
    /// a photo with one face as it is.
    @Test func largeFacesEachGetASheetOfTheirOwn() throws {
        let faces = try TestAssets.temporaryFolder("panel-large")
        for photo in ["grace_hopper.jpg", "group.jpg"] {
            try FileManager.default.copyItem(atPath: TestAssets.example(photo), toPath: faces + "/" + photo)
        }
        let sheets = try TestAssets.temporaryFolder("panel-large-sheets"), key = try TestAssets.temporaryFolder("panel-large-key")
        let made = try CLIRunner.run(["make", "--faces", faces, "--also", "--no-hard-cases", "--styles", "pencil", "--peers", "",
                                      "--min-face", "90", "--judges", "1", "--sheets", sheets, "--key", key],
                                     environment: ["BIN": CLIRunner.executable], executable: Self.script, in: TestAssets.root.path)
        #expect(made.status == 0, "\(made.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: key + "/key.json"))) as? [String: Any]
        let sheet = try #require(written?["sheets"] as? [String: [String: Any]])
        let sources = Set(sheet.values.compactMap { $0["source"] as? String })
        #expect(sources == ["grace_hopper", "group-face1", "group-face2"], "\(sources)")
        for (name, entry) in sheet {
            #expect((entry["face_px"] as? Int ?? 0) >= 90, "\(name): \(entry)")
            #expect(FileManager.default.fileExists(atPath: "\(sheets)/\(name).png"), "\(name)")
        }
    }

    /// `PEER@region`: the peer's drawing laid into the photo through SketchEase's region for the
    /// face, so the sheet's peer panel is the photo's own pixels away from the head (the flag in
    /// the corner) and a drawing on the face. An unknown place is refused in one line.
    @Test func aPeerInTheRegionLeavesThePhotoBesideTheHead() throws {
        let faces = try TestAssets.temporaryFolder("panel-region")
        try FileManager.default.copyItem(atPath: TestAssets.example("grace_hopper.jpg"), toPath: faces + "/grace_hopper.jpg")
        let sheets = try TestAssets.temporaryFolder("panel-region-sheets"), key = try TestAssets.temporaryFolder("panel-region-key")
        let made = try CLIRunner.run(["make", "--faces", faces, "--also", "--no-hard-cases", "--styles", "pencil",
                                      "--peers", "im-sketch@region", "--judges", "1", "--sheets", sheets, "--key", key],
                                     environment: ["BIN": CLIRunner.executable], executable: Self.script, in: TestAssets.root.path)
        #expect(made.status == 0, "\(made.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: key + "/key.json"))) as? [String: Any]
        let sheet = try #require((written?["sheets"] as? [String: Any])?["face01"] as? [String: Any])
        let letters = try #require(sheet["letters"] as? [String: String])
        let letter = try #require(letters.first { $0.value == "im-sketch@region" }?.key)
        #expect((sheet["settings"] as? [String: String])?["im-sketch@region"]?.contains("through sketchease's region") == true, "\(sheet)")
        // Three cells in a row (the photo, A, B), each in a slot a third of the sheet wide, 6 px
        // in from its sides, under a label 32 px tall; the panels 320 px tall.
        let image = try VipsImage.load(path: sheets + "/face01.png")
        let slot = image.width / 3, width = slot - 12
        let column = 1 + Int(letter.unicodeScalars.first!.value - 65)
        func difference(_ x: Int, _ y: Int) throws -> Double {
            let patch = { (cell: Int) in try image.crop(x: cell * slot + 6 + x, y: 32 + y, width: 24, height: 24).cast(.float) }
            return try patch(column).subtract(patch(0)).absolute().average()
        }
        let corner = try difference(4, 320 - 28), face = try difference(width / 2 - 12, 150)
        #expect(corner < 1, "beside the head, the photo: \(corner)")
        #expect(face > 20, "on the face, a drawing: \(face)")
        let refused = try CLIRunner.run(["make", "--faces", faces, "--peers", "im-sketch@elsewhere", "--sheets", sheets, "--key", key],
                                        environment: ["BIN": CLIRunner.executable], executable: Self.script, in: TestAssets.root.path)
        #expect(refused.status != 0 && refused.stderr.contains("unknown peer 'im-sketch@elsewhere'"), "\(refused.stderr)")
    }

    /// Each judge's file is read with that judge's letters: two judges who both put the same
    /// drawing first, under letters A and B, give it every first place, and each letter the
    /// same mean rank. Fewer files than judges is refused in one line.
    @Test func theTallyReadsEachJudgesRankingsByItsOwnLetters() throws {
        let folder = try TestAssets.temporaryFolder("panel-tally")
        let key: [String: Any] = [
            "judges": 2,
            "sheets": ["face01": ["face_px": 40, "letters_by_judge": [["A": "new", "B": "old"], ["A": "old", "B": "new"]]],
                       "face02": ["face_px": 120, "letters_by_judge": [["A": "old", "B": "new"], ["A": "new", "B": "old"]]]],
        ]
        try JSONSerialization.data(withJSONObject: key).write(to: URL(fileURLWithPath: folder + "/key.json"))
        try "face01: A B\nface02: B A  # the new one\n".write(toFile: folder + "/j1.txt", atomically: true, encoding: .utf8)
        try "face01: B, A\nface02: A B\n".write(toFile: folder + "/j2.txt", atomically: true, encoding: .utf8)
        let tally = try CLIRunner.run(["tally", folder + "/key.json", folder + "/j1.txt", folder + "/j2.txt", "--pair", "new", "old"],
                                      executable: Self.script)
        #expect(tally.status == 0, "\(tally.stderr)")
        #expect(tally.stdout.contains("| new | 1.00 | 4 of 4 | 0 |"), "\(tally.stdout)")
        #expect(tally.stdout.contains("| old | 2.00 | 0 of 4 | 4 |"), "\(tally.stdout)")
        #expect(tally.stdout.contains("A 1.50, B 1.50"), "\(tally.stdout)")
        #expect(tally.stdout.contains("new against old: 4 to 0 (faces of 80 px or less 2 to 0, larger 2 to 0)"), "\(tally.stdout)")
        let short = try CLIRunner.run(["tally", folder + "/key.json", folder + "/j1.txt"], executable: Self.script)
        #expect(short.status != 0 && short.stderr.contains("lettered for 2 judges"), "\(short.stderr)")
    }
}
