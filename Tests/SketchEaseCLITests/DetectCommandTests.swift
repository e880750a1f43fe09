import Foundation
import Testing
import TestSupport

@Suite struct DetectCommandTests {
    struct Entry: Decodable {
        var file: String
        var width: Int
        var height: Int
        var detector: String
        var faces: [Face]
    }

    struct Face: Decodable {
        var box: [Double]
        var score: Double
        var landmarks: [String: [Double]]
    }

    @Test func jsonListsEveryFaceOfTheGroupPhoto() throws {
        let result = try CLIRunner.run(["detect", TestAssets.group, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(result.stdout.utf8))
        let entry = try #require(entries.first)
        #expect(entry.detector == "centerface")
        #expect(entry.width == 1500 && entry.height == 720)
        #expect(entry.faces.count == 3)
        for face in entry.faces {
            #expect(face.box.count == 4)
            #expect(Set(face.landmarks.keys) == ["left_eye", "right_eye", "nose", "mouth_left", "mouth_right"])
        }
    }

    @Test func tableOutputAndBadInputExitStatus() throws {
        let folder = try TestAssets.temporaryFolder("detect")
        let notes = try BadInputs.text(in: folder)
        let result = try CLIRunner.run(["detect", TestAssets.astronaut, notes])
        #expect(result.status == 1)
        #expect(result.stdout.contains("1 face"))
        #expect(result.stderr.contains("\(notes): not an image"))
    }

    @Test func filtersListsPencilWithItsParameters() throws {
        let result = try CLIRunner.run(["filters"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("pencil"))
        #expect(result.stdout.contains("darkness"))
    }

    /// Issue 22 (7): `filters pencil` works at edit's prompt; on the command line it said
    /// "Unexpected argument". The same words now work in both.
    @Test func filtersTakesAStyleAsAtThePrompt() throws {
        let one = try CLIRunner.run(["filters", "pencil"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.hasPrefix("pencil — ") && one.stdout.contains("darkness"), "\(one.stdout)")
        #expect(!one.stdout.contains("graphite — "))
        let words = one.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Judged blind against G'MIC's `pencilbw`") && words.contains("`--background-filter pencil`"), "\(one.stdout)")
        let misspelt = try CLIRunner.run(["filters", "pencl"])
        #expect(misspelt.status != 0 && misspelt.stderr.contains("did you mean 'pencil'?"), "\(misspelt.stderr)")
    }
}

/// Every command finds the same faces and shows the same numbers for them (item 9 of the
/// newcomer's list: detect said y=209, score 0.89 where report said y=208, 0.88).
@Suite struct NumbersAgreeTests {
    struct Detected: Decodable { var faces: [Face]; struct Face: Decodable { var box: [Double]; var score: Double } }
    struct Reported: Decodable { var faces: [Face]; struct Face: Decodable { var box: [Double]; var score: Double; var index: Int } }

    @Test func detectReportAndEditAgree() throws {
        let detect = try CLIRunner.run(["detect", TestAssets.group, "--json"])
        let report = try CLIRunner.run(["report", TestAssets.group, "--json"])
        let detected = try JSONDecoder().decode([Detected].self, from: Data(detect.stdout.utf8))[0].faces
        let reported = try JSONDecoder().decode([Reported].self, from: Data(report.stdout.utf8))[0].faces
        #expect(detected.map(\.box) == reported.map(\.box))
        #expect(detected.map(\.score) == reported.map(\.score))
        #expect(reported.map(\.index) == [1, 2, 3])
        // Numbered in reading order: left to right along the row, the lower right face last.
        #expect(detected.map { $0.box[0] } == detected.map { $0.box[0] }.sorted())
        let table = try CLIRunner.run(["detect", TestAssets.group]).stdout
        let edit = try CLIRunner.run(["edit", TestAssets.group, "--out", try TestAssets.temporaryFolder("agree")],
                                     stdin: "resize 1 1.2x\nlist\nquit!\n").stdout
        // The JSON's coordinates have one decimal, the table and the prompt whole pixels, each
        // rounded once from the same value: a JSON 1290.5 was 1290.45...1290.55, shown as 1290
        // or 1291.
        func wholes(_ shown: Double) -> Set<Int> {
            [Int((shown - 0.05).rounded(.toNearestOrAwayFromZero)), Int((shown + 0.0499).rounded(.toNearestOrAwayFromZero))]
        }
        for face in detected {
            let corners = wholes(face.box[0]).flatMap { x in wholes(face.box[1]).map { y in (x, y) } }
            #expect(corners.contains { table.contains("x=\($0.0) y=\($0.1)") }, "\(table)")
            #expect(corners.contains { edit.contains("at \($0.0), \($0.1) size") }, "\(edit)")
        }
        // The size an edit reports is the size the list then shows.
        let resized = try #require(edit.split(separator: "\n").first { $0.hasPrefix("face 1 resized to ") })
        let size = resized.replacingOccurrences(of: "face 1 resized to ", with: "")
        #expect(edit.contains("size \(size)"), "\(edit)")
    }
}
