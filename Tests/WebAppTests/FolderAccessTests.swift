import Foundation
import Testing
import TestSupport
@testable import WebApp

/// How a photo named in a request becomes a file: every way out of the served folders refused
/// with its reason, whatever the spelling.
@Suite struct FolderAccessTests {
    let root: String
    let access: FolderAccess

    init() throws {
        root = FolderAccess.resolved(try TestAssets.temporaryFolder("access"))
        let fm = FileManager.default
        for folder in ["trip/day 1", "other", "out/uploads", "elsewhere"] {
            try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["trip/a.jpg", "trip/day 1/b.jpg", "trip/.c.jpg", "other/a.jpg", "elsewhere/x.jpg", "single.jpg", "neighbour.jpg"] {
            try Data([1]).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        try fm.createSymbolicLink(atPath: root + "/trip/out.jpg", withDestinationPath: root + "/elsewhere/x.jpg")
        try fm.createSymbolicLink(atPath: root + "/trip/inside.jpg", withDestinationPath: root + "/trip/a.jpg")
        try fm.createSymbolicLink(atPath: root + "/trip/away", withDestinationPath: root + "/elsewhere")
        access = FolderAccess(inputs: [root + "/trip", root + "/other/", root + "/single.jpg"], uploadFolder: root + "/out/uploads")
    }

    @Test func eachFolderGetsALabelAndFilesAnId() {
        #expect(access.roots.map(\.label) == ["uploads", "trip", "other", (root as NSString).lastPathComponent])
        #expect(access.id(forResolved: root + "/trip/day 1/b.jpg") == "trip/day 1/b.jpg")
        #expect(access.id(forResolved: root + "/other/a.jpg") == "other/a.jpg")
        #expect(access.id(forResolved: root + "/elsewhere/x.jpg") == nil)
        #expect(access.id(forResolved: root + "/neighbour.jpg") == nil, "a single photo serves only itself")
        #expect(access.id(forResolved: root + "/single.jpg") != nil)
        #expect(access.id(forResolved: root + "/tripped/a.jpg") == nil, "a folder whose name starts like a served one is not inside it")
    }

    @Test func namesInsideResolve() throws {
        #expect(try access.resolve("trip/a.jpg") == root + "/trip/a.jpg")
        #expect(try access.resolve("trip/day 1/b.jpg") == root + "/trip/day 1/b.jpg")
        #expect(try access.resolve("trip/inside.jpg") == root + "/trip/a.jpg", "a link within the folder is fine")
    }

    @Test func everyWayOutIsRefused() {
        let cases: [(String, Int, String)] = [
            ("trip/../elsewhere/x.jpg", 403, "path traversal"),
            ("trip/./a.jpg", 403, "path traversal"),
            ("trip/day 1/../../other/a.jpg", 403, "path traversal"),
            ("/etc/passwd", 403, "absolute paths"),
            ("~/secret.jpg", 403, "absolute paths"),
            (root + "/trip/a.jpg", 403, "absolute paths"),
            ("trip/out.jpg", 403, "outside the served folders"),
            ("trip/away/x.jpg", 403, "outside the served folders"),
            ("trip/.c.jpg", 403, "hidden files"),
            ("trip//a.jpg", 400, "malformed"),
            ("trip\\..\\elsewhere\\x.jpg", 400, "malformed"),
            ("trip/a.jpg\0.png", 400, "malformed"),
            ("", 400, "malformed"),
            ("trip", 400, "malformed"),
            ("elsewhere/x.jpg", 404, "no served folder named 'elsewhere'"),
            ("trip/missing.jpg", 404, "no such photo"),
        ]
        for (name, status, reason) in cases {
            #expect(throws: FolderAccess.Refusal.self, "\(name)") { try access.resolve(name) }
            do { _ = try access.resolve(name) } catch let refusal as FolderAccess.Refusal {
                #expect(refusal.status == status && refusal.reason.contains(reason), "\(name): \(refusal)")
            } catch {}
        }
    }
}
