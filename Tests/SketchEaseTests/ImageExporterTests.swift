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

/// JPEG and WebP for sharing: small, and as private as the PNG (libvips 8.14's WebP writer keeps
/// EXIF even when told to strip it, so the exporter removes it first).
@Suite struct SharingFormatTests {
    func located() throws -> VipsImage {
        try VipsImage.load(path: TestAssets.graceHopper).settingBlob("exif-data", ExifFixture.gpsBlob())
            .settingBlob("xmp-data", Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'>GPS here</x:xmpmeta>".utf8))
    }

    @Test(arguments: [ImageFormat.jpeg, .webp, .png])
    func everyFormatDropsTheLocationUnlessAskedToKeepIt(format: ImageFormat) throws {
        let folder = try TestAssets.temporaryFolder("formats")
        let stripped = folder + "/stripped." + format.fileExtension, kept = folder + "/kept." + format.fileExtension
        try ImageExporter.write(try located(), to: stripped, options: ExportOptions(format: format))
        try ImageExporter.write(try located(), to: kept, options: ExportOptions(keepMetadata: true, format: format))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: stripped))
        for marker in ["Exif", "EXIF", "GPS", "xmpmeta"] {
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(format): \(marker) left in the file")
        }
        #expect(!(try VipsImage.load(path: stripped).fieldNames.contains { $0.hasPrefix("exif-") || $0 == "xmp-data" }))
        #expect(try VipsImage.load(path: kept).fieldNames.contains { $0.contains("GPSLatitude") }, "\(format)")
        let image = try VipsImage.load(path: stripped)
        #expect(image.width == 512 && image.height == 600 && image.bands == 3)
    }

    @Test func lossyFormatsAreSmallAndFaithful() throws {
        let folder = try TestAssets.temporaryFolder("sizes")
        let photo = try VipsImage.load(path: TestAssets.group)
        var sizes: [ImageFormat: Int] = [:]
        for format in ImageFormat.allCases {
            let path = folder + "/group." + format.fileExtension
            try ImageExporter.write(photo, to: path, options: ExportOptions(format: format))
            sizes[format] = try TestAssets.fileSize(path)
            let back = try VipsImage.load(path: path)
            #expect(try PixelStats.meanAbsoluteDifference(back, photo, x: 0, y: 0, width: 1500, height: 720) < 3, "\(format)")
        }
        #expect(sizes[.jpeg]! * 3 < sizes[.png]! && sizes[.webp]! * 3 < sizes[.png]!, "\(sizes)")
        // Lower quality, smaller file.
        try ImageExporter.write(photo, to: folder + "/q50.jpg", options: ExportOptions(format: .jpeg, quality: 50))
        #expect(try TestAssets.fileSize(folder + "/q50.jpg") < sizes[.jpeg]!)
    }

    @Test func transparencyGoesOntoWhiteInAJPEG() throws {
        let folder = try TestAssets.temporaryFolder("alpha-jpeg")
        let rgb = try VipsImage.solid(width: 8, height: 8, pixel: [0, 0, 0])
        let alpha = try VipsImage.solid(width: 8, height: 8, pixel: [0])
        try ImageExporter.write(rgb, alpha: alpha, to: folder + "/clear.jpg", options: ExportOptions(format: .jpeg))
        #expect(try VipsImage.load(path: folder + "/clear.jpg").average() > 250)
    }
}
