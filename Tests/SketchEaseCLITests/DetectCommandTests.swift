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
}
