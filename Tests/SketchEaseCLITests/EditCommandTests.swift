import Foundation
import Testing
import TestSupport
import Vips
import Filters

/// Drives `sketchease edit` through piped stdin, as a script would, and checks the files it writes.
/// In examples/group.jpg the faces are numbered in reading order: 1 (left), 2 (Grace Hopper,
/// middle) and 3 (right, small and lower).
@Suite struct EditCommandTests {
    let face1 = (x: 225, y: 180, width: 60, height: 80)
    let face2 = (x: 800, y: 230, width: 90, height: 110)

    func original() throws -> VipsImage { try VipsImage.load(path: TestAssets.group) }

    func difference(_ a: VipsImage, _ b: VipsImage, _ r: (x: Int, y: Int, width: Int, height: Int)) throws -> Double {
        try PixelStats.meanAbsoluteDifference(a, b, x: r.x, y: r.y, width: r.width, height: r.height)
    }

    func edit(_ out: String, _ script: String, _ extra: [String] = []) throws -> CLIRunner.Result {
        try CLIRunner.run(["edit", TestAssets.group, "--out", out] + extra, stdin: script)
    }

    @Test func aStyledFaceChangesAndAnUndoneOneKeepsTheOriginalPixels() throws {
        let out = try TestAssets.temporaryFolder("edit")
        let result = try edit(out, "set 2 pencil\nset 1 pencil darkness=2\nundo\nexport\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 faces"))
        #expect(result.stdout.contains("undone: face 1: pencil (darkness=2)"))
        #expect(!result.stdout.contains("> "), "no prompt when stdin is not a terminal")
        let exported = try VipsImage.load(path: out + "/group.png")
        let photo = try original()
        #expect(try difference(exported, photo, face2) > 15)
        #expect(try difference(exported, photo, face1) == 0)
        #expect(try difference(exported, photo, (x: 0, y: 0, width: 150, height: 150)) == 0)
        // Only the result in the folder itself; the preview and the session are in .sketchease/.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".sketchease", "group.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/.sketchease").sorted()
            == ["group.preview.png", "group.sketchease.json", "written.log"])
        let preview = try VipsImage.load(path: out + "/.sketchease/group.preview.png")
        #expect(max(preview.width, preview.height) == 1200)
    }

    /// `background STYLE` draws the photo around the faces too, as an edit: exported, undone,
    /// resumed and applied like any other.
    @Test func theBackgroundIsAnEditLikeAnyOther() throws {
        let out = try TestAssets.temporaryFolder("edit-background")
        let corner = (x: 0, y: 0, width: 150, height: 150)
        let drawn = try edit(out, "set 2 pencil\nbackground pencil grain=0\nexport\nquit\n")
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.stdout.contains("the photo around the faces: pencil (grain=0)"), "\(drawn.stdout)")
        let whole = try VipsImage.load(path: out + "/group.png")
        #expect(try difference(whole, original(), corner) > 15, "the corner is drawn")
        let corner3 = try whole.crop(x: corner.x, y: corner.y, width: corner.width, height: corner.height)
        #expect(try corner3.extractBands(0).subtract(corner3.extractBands(2)).absolute().maximum() == 0, "in grey pencil")
        // Resumed with it; undone, the corner is the photo again; apply draws what the session says.
        let undone = try edit(out, "undo\nexport\nquit\n")
        #expect(undone.stdout.contains("undone: the photo around the faces: pencil (grain=0)"), "\(undone.stdout)")
        // Read from a copy: libvips would give back the first export it loaded from that path.
        let copy = try TestAssets.temporaryFolder("edit-background-undone") + "/group.png"
        try FileManager.default.copyItem(atPath: out + "/group.png", toPath: copy)
        #expect(try difference(VipsImage.load(path: copy), original(), corner) == 0)
        let redone = try edit(out, "redo\nexport\nquit\n")
        #expect(redone.status == 0, "\(redone.stderr)")
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/group.png"))
        let again = try TestAssets.temporaryFolder("edit-background-apply")
        #expect(try CLIRunner.run(["apply", out + "/.sketchease/group.sketchease.json", "--out", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/group.png")) == exported)
        let none = try edit(out, "background none\nbackground crayon\nbackground\nquit!\n")
        #expect(none.stdout.contains("the photo around the faces: as photographed"), "\(none.stdout)")
        #expect(none.stderr.contains("crayon"), "\(none.stderr)")
    }

    @Test func applyReproducesTheExportByteForByte() throws {
        let out = try TestAssets.temporaryFolder("edit-apply")
        let script = """
            set all pencil
            set 2 darkness=2.5
            move 3 6 -4
            resize 1 1.2x
            delete 3
            undo
            add 40 40 120 140 pencil
            remove 1
            undo
            export
            quit

            """
        let result = try edit(out, script, ["--compare"])
        #expect(result.status == 0, "\(result.stderr)")
        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/group.png"))
        let compare = try VipsImage.load(path: out + "/group.compare.png")
        #expect(compare.width == 2 * 1500 + 16 && compare.height == 720)

        let again = try TestAssets.temporaryFolder("apply-out")
        let applied = try CLIRunner.run(["apply", out + "/.sketchease/group.sketchease.json", "--out", again])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/group.png")) == exported)
        // Into the session's own output folder, replacing the export; the folder stands for its sessions.
        try FileManager.default.removeItem(atPath: out + "/group.png")
        #expect(try CLIRunner.run(["apply", out]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/group.png")) == exported)
    }

    @Test func mistakesGetAShortMessageAndThePromptGoesOn() throws {
        let out = try TestAssets.temporaryFolder("edit-bad")
        let script = "bogus\nundoo\nset\nset 9 pencil\nset 2 crayon\nset 2 pencl\nset 2 pencil darkness=99\nmove 1 x y\n"
            + "move 1 1.5 2\nmvoe 1 2 3\nundo\nredo\nundo 3\nexport foo\nlist all\nhelp\nhelp mv\nset two pencil\n"
            + "add 5000 5000 10 10\nlist\nquit\n"
        let result = try edit(out, script)
        #expect(result.status == 0, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        let ids = FilterRegistry.standard.ids.joined(separator: ", ")
        #expect(errors == [
            "unknown command 'bogus' (type `help` for the list)",
            "unknown command 'undoo' (did you mean `undo`? type `help` for the list)",
            "usage: set FACES [STYLE] [key=value ...]",
            "there is no face 9 (faces: 1-3)",
            "unknown filter 'crayon' (available: \(ids))",
            "unknown filter 'pencl' (did you mean 'pencil'? available: \(ids))",
            "invalid parameter darkness=99: expected 0.5...4 (default 1.3)",
            "'x' is not a number of pixels",
            "'1.5': boxes are set in whole pixels (try 2)",
            "unknown command 'mvoe' (did you mean `move`? type `help` for the list)",
            "nothing to undo",
            "nothing to redo",
            "unexpected '3'; usage: undo",
            "unexpected 'foo'; usage: export [all]",
            "unexpected 'all'; usage: list",
            "'two' is not a face number (faces: 1-3; also 1,3 or 1-3 or all)",
            "that box would be outside the photo (1500×720)",
        ])
        for name in ["set", "remove", "undo", "redo", "move", "resize", "add", "delete", "detect", "list",
                     "filters", "preview", "export", "skip", "next", "prev", "quit", "help"] {
            #expect(result.stdout.contains("\n  \(name)"), "help lists \(name)")
        }
        #expect(result.stdout.contains("move FACE DX DY\n  shift a face box"))
        #expect(result.stdout.contains("short: mv, m"))
        // Help is wrapped to the width (100 columns when not at a terminal).
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count < 100 })
    }

    /// A box pushed off the photo is refused the same way `add` refuses one, and the photo keeps
    /// working (before, every later command failed with libvips' "embed: bad dimensions").
    @Test func boxesStayOnThePhoto() throws {
        let out = try TestAssets.temporaryFolder("edit-boxes")
        let script = "move 1 5000 0\nlist\nset 1 pencil\nresize 2 9x\nresize 3 20 20\nundo\nset 1,1 ink\nset 1-3 pencil\n"
            + "delete all\nundo\nexport\nquit\n"
        let result = try edit(out, script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "that box would be outside the photo (1500×720)\n")
        #expect(result.stdout.contains("face 2 resized to 1627×2067 (cut off at the photo's edge: now 1466×720 at 34, 0)"))
        #expect(result.stdout.contains("face 1: ink\n"), "a face named twice is named once")
        #expect(result.stdout.contains("faces 1-3: pencil"))
        #expect(result.stdout.contains("faces 1-3 deleted"))
        #expect(!result.stdout.contains("embed") && !result.stderr.contains("embed"))
        #expect(FileManager.default.fileExists(atPath: out + "/group.png"))
    }

    @Test func exportAllWritesEveryPhotoOpened() throws {
        let out = try TestAssets.temporaryFolder("edit-all")
        let script = "set all pencil\nnext\nset all ink\nexport all\nquit\n"
        let result = try CLIRunner.run(["edit", TestAssets.astronaut, TestAssets.graceHopper, TestAssets.group, "--out", out],
                                       stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("exported \(out)/astronaut.png"))
        #expect(result.stdout.contains("exported \(out)/grace_hopper.png"))
        #expect(result.stdout.contains("(1 photo not opened yet, so not exported: `next` opens them)"))
        #expect(!result.stdout.contains("Not exported yet"), "everything edited was exported")
    }

    @Test func anOutputFolderThatTakesNoFilesIsRefusedBeforeAnyWork() throws {
        guard getuid() != 0 else { return }   // root writes everywhere
        let parent = try TestAssets.temporaryFolder("edit-readonly")
        chmod(parent, 0o555)
        defer { chmod(parent, 0o755) }
        let result = try CLIRunner.run(["edit", TestAssets.group, "--out", parent], stdin: "set 1 pencil\nquit\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: \(parent): cannot write output (permission denied)"), "\(result.stderr)")
        #expect(!result.stdout.contains("kept in"))
    }

    @Test func runningEditAgainResumesTheSession() throws {
        let out = try TestAssets.temporaryFolder("edit-resume")
        let first = try edit(out, "set 2 pencil darkness=2\ndelete 1\nquit!\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try edit(out, "undo\nlist\nexport\nquit\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("resumed from \(out)/.sketchease/group.sketchease.json (2 edits in effect)"))
        #expect(second.stdout.contains("undone: face 1 deleted"))
        let listed = second.stdout.components(separatedBy: "undone:").last ?? ""
        #expect(listed.contains("pencil (darkness=2)") && listed.contains("  1  "))
        #expect(try difference(try VipsImage.load(path: out + "/group.png"), try original(), face2) > 15)
    }

    @Test func quitWarnsAboutUnexportedWorkAndEndOfInputKeepsIt() throws {
        let out = try TestAssets.temporaryFolder("edit-quit")
        let warned = try edit(out, "set 1 pencil\nquit\nlist\nquit!\n")
        #expect(warned.status == 0)
        #expect(warned.stdout.contains("Not exported yet: group.jpg (your edits are kept in its session file)"))
        #expect(warned.stdout.components(separatedBy: "Not exported yet").last?.contains("  1  ") == true, "still at the prompt")
        let eof = try edit(out, "set 3 pencil\n")
        #expect(eof.status == 0)
        #expect(eof.stderr.contains("changes not exported; they are saved in \(out)/.sketchease/group.sketchease.json"))
        #expect(!FileManager.default.fileExists(atPath: out + "/group.png"))
    }

    @Test func aDamagedSessionFileIsOneErrorLineAndIsLeftAlone() throws {
        let out = try TestAssets.temporaryFolder("edit-corrupt")
        let sidecar = out + "/.sketchease/group.sketchease.json"
        try FileManager.default.createDirectory(atPath: out + "/.sketchease", withIntermediateDirectories: true)
        try Data("{\"format\": \"sketchease-session\", \"version\": 1, \"faces\": [".utf8).write(to: URL(fileURLWithPath: sidecar))
        let result = try edit(out, "quit\n")
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("error: \(sidecar): damaged file"), "\(result.stderr)")
        #expect(lines[0].hasSuffix("; delete it to start this photo over"), "says how to start over")
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

    /// `edit DIR --out DIR`: the folder's earlier results, previews and sessions are not photos.
    @Test func editingIntoThePhotosOwnFolderOffersOnlyThePhotos() throws {
        let folder = try TestAssets.temporaryFolder("edit-same")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: folder + "/messi5.jpg")
        let first = try CLIRunner.run(["edit", folder, "--out", folder], stdin: "set all pencil\nexport\nquit\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CLIRunner.run(["edit", folder, "--out", folder], stdin: "quit\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stdout.contains("[1/"), "one photo, not its export or preview too: \(second.stdout)")
        #expect(second.stdout.contains("resumed from"))
    }

    @Test func filtersCanShowOneStyle() throws {
        let out = try TestAssets.temporaryFolder("edit-filters")
        let result = try edit(out, "filters pencil\nfilters pencl\nquit\n")
        #expect(result.stdout.contains("pencil —") && !result.stdout.contains("charcoal —"))
        #expect(result.stderr.contains("did you mean 'pencil'?"))
    }
}
