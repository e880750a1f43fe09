import Foundation
import Testing
import TestSupport

/// `sketchease serve` as a command: its address, `--port`, `--open`, and photos it cannot use.
@Suite struct ServeCommandTests {
    func folder() throws -> (photos: String, out: String) {
        let photos = try TestAssets.temporaryFolder("serve-cmd")
        try FileManager.default.copyItem(atPath: TestAssets.graceHopper, toPath: photos + "/grace.jpg")
        return (photos, try TestAssets.temporaryFolder("serve-cmd-out"))
    }

    @Test func itPrintsItsAddressWithATokenNewEachRun() throws {
        let (photos, out) = try folder()
        let first = try ServerProcess([photos, "--out", out])
        let second = try ServerProcess([photos, "--out", out])
        defer { first.stop(); second.stop() }
        #expect(first.url.hasPrefix("http://127.0.0.1:\(first.port)/?token="))
        #expect(first.token != second.token && first.port != second.port)
        #expect(first.output.contains("Ctrl+C stops"))
    }

    @Test func aTakenPortIsOneClearLine() throws {
        let (photos, out) = try folder()
        let first = try ServerProcess([photos, "--out", out])
        defer { first.stop() }
        let second = try CLIRunner.run(["serve", photos, "--out", out, "--port", String(first.port)])
        #expect(second.status == 1)
        #expect(second.stderr.contains("error: port \(first.port) on 127.0.0.1 is not free"), "\(second.stderr)")
    }

    @Test func openHandsTheAddressToXdgOpen() throws {
        let (photos, out) = try folder()
        let bin = try TestAssets.temporaryFolder("fake-bin")
        let record = bin + "/opened.txt"
        try "#!/bin/sh\necho \"$1\" > \(record)\n".write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/xdg-open")
        let server = try ServerProcess([photos, "--out", out, "--open"], environment: ["PATH": bin + ":/usr/bin:/bin"])
        defer { server.stop() }
        var opened = ""
        for _ in 0..<100 where opened.isEmpty {
            opened = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(opened.trimmingCharacters(in: .whitespacesAndNewlines) == server.url)

        let empty = try TestAssets.temporaryFolder("no-bin")
        let without = try ServerProcess([photos, "--out", out, "--open"], environment: ["PATH": empty])
        defer { without.stop() }
        #expect(without.log(atLeast: 1).contains { $0.contains("no xdg-open here to open a browser") })
    }

    @Test func aPhotoThatCannotBeReadIsOneLineInThePage() throws {
        let (photos, out) = try folder()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestAssets.graceHopper))
        try jpeg.prefix(jpeg.count / 3).write(to: URL(fileURLWithPath: photos + "/broken.jpg"))
        let label = (photos as NSString).lastPathComponent
        let server = try ServerProcess([photos, "--out", out])
        defer { server.stop() }
        let listed = ServerProcess.object(try server.get("/api/library"))["photos"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["name"] as? String } == ["broken.jpg", "grace.jpg"])
        let opened = try server.post("/api/open", json: ["photo": label + "/broken.jpg"])
        #expect(opened.status == 422)
        #expect(opened.error?.contains("broken.jpg: damaged or truncated image") == true, "\(opened.text)")
        #expect(try server.get("/api/thumbnail?photo=\(label)/broken.jpg").status == 422)
        #expect(try server.post("/api/open", json: ["photo": label + "/grace.jpg"]).status == 200, "the others still open")
    }
}
