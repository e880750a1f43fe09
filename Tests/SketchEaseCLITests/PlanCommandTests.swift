import Foundation
import Testing
import TestSupport
import Vips

@Suite struct PlanCommandTests {
    func writePlan(_ text: String) throws -> String {
        let folder = try TestAssets.temporaryFolder("cli-plan")
        try FileManager.default.copyItem(atPath: TestAssets.group, toPath: folder + "/group.jpg")
        let path = folder + "/plan.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func batchPlanStylesOnlyTheFacesItNamesAndApplyGivesTheSameBytes() throws {
        let plan = try writePlan("""
            {"format": "sketchease-plan", "version": 1, "photos": [
              {"path": "group.jpg", "faces": [{"face": 2, "style": {"filter": "pencil", "parameters": {"darkness": 2}}}]}]}
            """)
        let out = try TestAssets.temporaryFolder("cli-plan-out")
        let batch = try CLIRunner.run(["batch", "--plan", plan, "--out", out, "--compare"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let result = try VipsImage.load(path: out + "/group.png")
        let photo = try VipsImage.load(path: TestAssets.group)
        #expect(try PixelStats.meanAbsoluteDifference(result, photo, x: 800, y: 230, width: 90, height: 110) > 15)
        #expect(try PixelStats.meanAbsoluteDifference(result, photo, x: 225, y: 180, width: 60, height: 80) == 0)
        #expect(try VipsImage.load(path: out + "/group.compare.png").width == 3016)

        let again = try TestAssets.temporaryFolder("cli-plan-apply")
        let apply = try CLIRunner.run(["apply", plan, "--out", again])
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again + "/group.png"))
                == Data(contentsOf: URL(fileURLWithPath: out + "/group.png")))
    }

    @Test func aBadPlanIsOneLineNamingIt() throws {
        let plan = try writePlan("""
            {"format": "sketchease-plan", "version": 1, "photos": [{"path": "group.jpg", "faces": [{"face": 7}]}]}
            """)
        let out = try TestAssets.temporaryFolder("cli-plan-bad")
        let missingFace = try CLIRunner.run(["batch", "--plan", plan, "--out", out])
        #expect(missingFace.status == 1)
        #expect(missingFace.stderr.contains("\(plan): invalid content (group.jpg: faces[0]: no face 7 (3 found))"))
        try Data("{\"version\": 1}".utf8).write(to: URL(fileURLWithPath: plan))
        let foreign = try CLIRunner.run(["apply", plan, "--out", out])
        #expect(foreign.status == 1)
        #expect(foreign.stderr == "error: \(plan): not a SketchEase session or plan file\n")
    }
}
