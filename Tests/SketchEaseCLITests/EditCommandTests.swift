import Foundation
import Testing
import TestSupport
import Vips
import Filters

/// Drives `sketchease edit` through piped stdin, as a script would, and checks the files it writes.
/// In examples/group.jpg the detector numbers the faces 1 (right, small), 2 (Grace Hopper, middle)
/// and 3 (left).
@Suite struct EditCommandTests {
    let face2 = (x: 800, y: 230, width: 90, height: 110)
    let face3 = (x: 225, y: 180, width: 60, height: 80)

    func original() throws -> VipsImage { try VipsImage.load(path: TestAssets.group) }

    func difference(_ a: VipsImage, _ b: VipsImage, _ r: (x: Int, y: Int, width: Int, height: Int)) throws -> Double {
        try PixelStats.meanAbsoluteDifference(a, b, x: r.x, y: r.y, width: r.width, height: r.height)
    }

    @Test func aStyledFaceChangesAndAnUndoneOneKeepsTheOriginalPixels() throws {
        let out = try TestAssets.temporaryFolder("edit")
        let result = try CLIRunner.run(["edit", TestAssets.group, "--out", out],
                                       stdin: "set 2 pencil\nset 3 pencil darkness=2\nundo\nexport\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 faces"))
        #expect(result.stdout.contains("undone: face 3: pencil (darkness=2)"))
        #expect(!result.stdout.contains("> "), "no prompt when stdin is not a terminal")
        let exported = try VipsImage.load(path: out + "/group.png")
        let photo = try original()
        #expect(try difference(exported, photo, face2) > 15)
        #expect(try difference(exported, photo, face3) == 0)
        #expect(try difference(exported, photo, (x: 0, y: 0, width: 150, height: 150)) == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["group.png", "group.preview.png", "group.sketchease.json"])
        let preview = try VipsImage.load(path: out + "/group.preview.png")
        #expect(max(preview.width, preview.height) == 1200)
    }

    @Test func applyReproducesTheExportByteForByte() throws {
        let out = try TestAssets.temporaryFolder("edit-apply")
        let script = """
            set all pencil
            set 2 darkness=2.5
            move 1 6 -4
            resize 3 1.2x
            delete 1
            undo
            add 40 40 120 140 pencil
            remove 3
            undo
            export
            quit

            """
        let result = try CLIRunner.run(["edit", TestAssets.group, "--out", out, "--compare"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/group.png"))
        let compare = try VipsImage.load(path: out + "/group.compare.png")
        #expect(compare.width == 2 * 1500 + 16 && compare.height == 720)

        let again = try TestAssets.temporaryFolder("apply-out")
        let applied = try CLIRunner.run(["apply", out + "/group.sketchease.json", "--out", again])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/group.png")) == exported)
        // Into the session's own folder, replacing the export.
        try FileManager.default.removeItem(atPath: out + "/group.png")
        #expect(try CLIRunner.run(["apply", out + "/group.sketchease.json"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/group.png")) == exported)
    }

    @Test func mistakesGetAShortMessageAndThePromptGoesOn() throws {
        let out = try TestAssets.temporaryFolder("edit-bad")
        let script = "bogus\nundoo\nset\nset 9 pencil\nset 2 crayon\nset 2 pencil darkness=99\nmove 1 x y\nundo\nredo\n"
            + "help\nhelp mv\nset two pencil\nadd 5000 5000 10 10\nlist\nquit\n"
        let result = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors == [
            "unknown command 'bogus' (type `help` for the list)",
            "unknown command 'undoo' (did you mean `undo`? type `help` for the list)",
            "usage: set FACES [STYLE] [key=value ...]",
            "there is no face 9 (faces: 1, 2, 3)",
            "unknown filter 'crayon' (available: \(FilterRegistry.standard.ids.joined(separator: ", ")))",
            "invalid parameter darkness=99: expected 0.5...4 (default 1.6)",
            "usage: move FACE DX DY",
            "nothing to undo",
            "nothing to redo",
            "'two' is not a face number (faces: 1, 2, 3)",
            "that box is outside the photo (1500×720)",
        ])
        for name in ["set", "remove", "undo", "redo", "move", "resize", "add", "delete", "detect", "list",
                     "filters", "preview", "export", "skip", "next", "prev", "quit", "help"] {
            #expect(result.stdout.contains("\n  \(name)"), "help lists \(name)")
        }
        #expect(result.stdout.contains("move FACE DX DY\n  shift a face box"))
        #expect(result.stdout.contains("short: mv, m"))
    }

    @Test func runningEditAgainResumesTheSession() throws {
        let out = try TestAssets.temporaryFolder("edit-resume")
        let first = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: "set 2 pencil darkness=2\ndelete 3\nquit!\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: "undo\nlist\nexport\nquit\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("resumed from \(out)/group.sketchease.json (2 edits in effect)"))
        #expect(second.stdout.contains("undone: face 3 deleted"))
        let listed = second.stdout.components(separatedBy: "undone:").last ?? ""
        #expect(listed.contains("pencil (darkness=2)") && listed.contains("  3  "))
        #expect(try difference(try VipsImage.load(path: out + "/group.png"), try original(), face2) > 15)
    }

    @Test func quitWarnsAboutUnexportedWorkAndEndOfInputKeepsIt() throws {
        let out = try TestAssets.temporaryFolder("edit-quit")
        let warned = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: "set 1 pencil\nquit\nlist\nquit!\n")
        #expect(warned.status == 0)
        #expect(warned.stdout.contains("Not exported yet: group.jpg"))
        #expect(warned.stdout.components(separatedBy: "Not exported yet").last?.contains("  1  ") == true, "still at the prompt")
        let eof = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: "set 3 pencil\n")
        #expect(eof.status == 0)
        #expect(eof.stderr.contains("changes not exported; they are saved in \(out)/group.sketchease.json"))
        #expect(!FileManager.default.fileExists(atPath: out + "/group.png"))
    }

    @Test func aDamagedSessionFileIsOneErrorLineAndIsLeftAlone() throws {
        let out = try TestAssets.temporaryFolder("edit-corrupt")
        let sidecar = out + "/group.sketchease.json"
        try Data("{\"format\": \"sketchease-session\", \"version\": 1, \"faces\": [".utf8).write(to: URL(fileURLWithPath: sidecar))
        let result = try CLIRunner.run(["edit", TestAssets.group, "--out", out], stdin: "quit\n")
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("error: \(sidecar): damaged file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8).hasSuffix("["))
        let newer = try CLIRunner.run(["apply", sidecar.replacingOccurrences(of: "group", with: "none")])
        #expect(newer.status == 1 && newer.stderr.contains("no such file"))
    }

    @Test func photosAreVisitedInTurnAndEachKeepsItsEdits() throws {
        let out = try TestAssets.temporaryFolder("edit-many")
        let script = "set all pencil\nnext\nset all pencil darkness=3\nexport\nnext\nprev\nlist\nexport\nquit\n"
        let result = try CLIRunner.run(["edit", TestAssets.astronaut, TestAssets.graceHopper, "--out", out], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("[2/2] \(TestAssets.graceHopper)"))
        #expect(result.stdout.contains("that was the last photo"))
        #expect(result.stdout.contains("pencil (darkness=3)"))
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(files.isSuperset(of: ["astronaut.png", "grace_hopper.png"]))
    }
}
