import Foundation
import Testing
import TestSupport
@testable import SketchEase

@Suite struct ImageExporterTests {
    @Test func exportKeepsEveryPixelAndLeavesNoTemporary() throws {
        let folder = try TestAssets.temporaryFolder("export")
        let photo = try VipsImage.load(path: TestAssets.group)
        let path = folder + "/group.png"
        try ImageExporter.write(photo, to: path, options: ExportOptions())
        #expect(try VipsImage.load(path: path).pixels() == photo.pixels())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".sketchease", "group.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/.sketchease") == ["written.log"])
    }

    @Test func defaultExportIsSmallerThanLibvipsDefaults() throws {
        // libvips' own defaults (level 6, rows unfiltered) are what `vips copy x.jpg x.png` writes.
        let folder = try TestAssets.temporaryFolder("export")
        let photo = try VipsImage.load(path: TestAssets.group)
        let ours = folder + "/ours.png", libvips = folder + "/libvips.png"
        try ImageExporter.write(photo, to: ours, options: ExportOptions())
        try photo.savePNG(path: libvips, compression: 6, rowFilter: .none)
        #expect(try TestAssets.fileSize(ours) < TestAssets.fileSize(libvips) * 85 / 100)
    }

    @Test func everyLevelGivesTheSamePixelsAndHigherLevelsSmallerFiles() throws {
        let folder = try TestAssets.temporaryFolder("export")
        let photo = try VipsImage.load(path: TestAssets.graceHopper)
        let original = try photo.pixels()
        var sizes: [Int: Int] = [:]
        for level in [0, 1, ExportOptions.defaultCompression, 6, 9] {
            let path = folder + "/level\(level).png"
            try ImageExporter.write(photo, to: path, options: ExportOptions(compression: level))
            #expect(try VipsImage.load(path: path).pixels() == original, "level \(level)")
            sizes[level] = try TestAssets.fileSize(path)
        }
        // Level 0 stores the pixels as they are: a filter byte per row and chunk framing on top.
        #expect(sizes[0]! >= original.count + photo.height)
        #expect(sizes[0]! > sizes[1]!)
        #expect(sizes[1]! >= sizes[6]!)
        #expect(sizes[6]! >= sizes[9]!)
    }

    @Test func uncompressedOutputSkipsTheRowFilter() {
        #expect(ImageExporter.rowFilter(compression: 0) == .none)
        #expect(ImageExporter.rowFilter(compression: ExportOptions.defaultCompression) == .up)
        #expect(ImageExporter.rowFilter(compression: 9) == .up)
    }
}
