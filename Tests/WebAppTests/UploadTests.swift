import Foundation
import Testing
import TestSupport
import Vips

/// Uploads (files dropped or picked in the page, camera pictures): kept in OUT/uploads under a
/// safe name once known to be a usable photo within the limits `batch` applies; anything else
/// is one clear line for the page and nothing left on disk.
@Suite struct UploadTests {
    func startServer(_ extra: [String] = []) throws -> (ServerProcess, out: String) {
        let served = try TestAssets.temporaryFolder("upload-in")
        let out = try TestAssets.temporaryFolder("upload-out")
        return (try ServerProcess([served, "--out", out] + extra), out)
    }

    func uploads(_ out: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: out + "/uploads").sorted()
    }

    @Test func aPhotoIsKeptUnderASafeNameAndOpens() throws {
        let (server, out) = try startServer()
        defer { server.stop() }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestAssets.graceHopper))
        let first = try server.upload(jpeg, name: "../../Grace Hopper.jpg")
        #expect(first.status == 200, "\(first.text)")
        #expect(ServerProcess.object(first)["id"] as? String == "uploads/Grace Hopper.jpg")
        let second = try server.upload(jpeg, name: "Grace Hopper.jpg")
        #expect(ServerProcess.object(second)["id"] as? String == "uploads/Grace Hopper-2.jpg")
        let unnamed = try server.upload(jpeg, name: ".profile")
        #expect(ServerProcess.object(unnamed)["id"] as? String == "uploads/profile.jpg", "a name without a photo suffix gets one")
        #expect(try uploads(out) == ["Grace Hopper-2.jpg", "Grace Hopper.jpg", "profile.jpg"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/uploads/Grace Hopper.jpg")) == jpeg)
        let opened = try server.post("/api/open", json: ["photo": "uploads/Grace Hopper.jpg"])
        #expect(opened.status == 200 && (ServerProcess.object(opened)["faces"] as? [Any])?.count == 1)
        #expect(server.log.contains { $0.contains("uploaded") && $0.contains("Grace Hopper.jpg") })
    }

    @Test func badUploadsGetOneLineAndLeaveNothing() throws {
        let (server, out) = try startServer(["--max-upload", "1", "--max-pixels", "200000"])
        defer { server.stop() }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestAssets.graceHopper))
        let folder = try TestAssets.temporaryFolder("small")
        try VipsImage.load(path: TestAssets.graceHopper).crop(x: 0, y: 0, width: 300, height: 300).save(path: folder + "/small.jpg")
        let small = try Data(contentsOf: URL(fileURLWithPath: folder + "/small.jpg"))
        let cases: [(Data, String, Int, String)] = [
            (Data(), "empty.jpg", 422, "empty.jpg: empty file (0 bytes)"),
            (Data("hello".utf8), "notes.jpg", 422, "notes.jpg: not an image (unrecognised format)"),
            (small.prefix(small.count / 2), "half.jpg", 422, "half.jpg: damaged or truncated image"),
            (jpeg, "big.jpg", 413, "big.jpg: image too large (307200 pixels, limit 200000; see --max-pixels)"),
            (Data(count: 1_200_000), "huge.jpg", 413, "huge.jpg: too large to upload (limit 1 MB; see --max-upload)"),
        ]
        for (data, name, status, message) in cases {
            let answer = try server.upload(data, name: name)
            #expect(answer.status == status, "\(name): \(answer.text)")
            #expect(answer.error?.hasPrefix(message) == true, "\(name): \(answer.error ?? answer.text)")
        }
        #expect(try uploads(out).isEmpty, "no temporary or refused file is left")
    }
}
