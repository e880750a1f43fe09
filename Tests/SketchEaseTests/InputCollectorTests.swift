import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct InputCollectorTests {
    let fm = FileManager.default

    func touch(_ path: String) { _ = fm.createFile(atPath: path, contents: Data([1])) }

    @Test func foldersGiveImagesSortedAndRecursionIsOptIn() throws {
        let root = try TestAssets.temporaryFolder("collect")
        try fm.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        touch(root + "/b.jpg"); touch(root + "/a.PNG"); touch(root + "/readme.txt"); touch(root + "/.hidden.jpg")
        touch(root + "/trip/beach.webp")
        let flat = InputCollector.collect([root], recursive: false)
        #expect(flat.files.map(\.outputName) == ["a.png", "b.png"])
        let deep = InputCollector.collect([root], recursive: true)
        #expect(deep.files.map(\.outputName) == ["a.png", "b.png", "trip/beach.png"])
    }

    @Test func symlinkLoopsAreWalkedOnce() throws {
        let root = try TestAssets.temporaryFolder("loop")
        try fm.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        touch(root + "/sub/face.jpg")
        try fm.createSymbolicLink(atPath: root + "/sub/back", withDestinationPath: root)
        let found = InputCollector.collect([root], recursive: true)
        #expect(found.files.map(\.outputName) == ["sub/face.png"])
    }

    @Test func namesThatCollideKeepTheirSuffix() throws {
        let root = try TestAssets.temporaryFolder("collide")
        touch(root + "/photo.jpg"); touch(root + "/photo.png")
        let files = InputCollector.collect([root], recursive: false).files
        #expect(files.map(\.path) == [root + "/photo.jpg", root + "/photo.png"])
        #expect(files.map(\.outputName) == ["photo.png", "photo.png.png"])
    }

    @Test func aPhotoNamedTwiceIsTakenOnceAndNoTwoPhotosShareAnOutput() throws {
        let root = try TestAssets.temporaryFolder("many")
        for folder in ["a", "b", "c", "d"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            touch(root + "/\(folder)/x.jpg")
        }
        let inputs = ["a", "b", "c", "d", "a", "./b/../a"].map { root + "/\($0)/x.jpg" }
        let files = InputCollector.collect(inputs, recursive: false).files
        #expect(files.map(\.path) == inputs.prefix(4).map { $0 })
        #expect(files.map(\.outputName) == ["x.png", "x.jpg.png", "x-3.png", "x-4.png"])
    }

    @Test func missingInputsAreReported() {
        let result = InputCollector.collect(["/no/such/folder"], recursive: true)
        #expect(result.files.isEmpty)
        #expect(result.problems == [PhotoError(path: "/no/such/folder", reason: .notFound)])
    }

    @Test func unicodeAndSpacesInNames() throws {
        let root = try TestAssets.temporaryFolder("names")
        touch(root + "/Grand-mère à Noël.jpg")
        #expect(InputCollector.collect([root], recursive: false).files.map(\.outputName) == ["Grand-mère à Noël.png"])
    }
}
