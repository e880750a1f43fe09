import ArgumentParser
import Foundation
import SketchEase

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Check each face before sketching it: size, framing, lighting, sharpness, tilt, skin tone.",
        discussion: """
            For every face: its box, landmarks and confidence; warnings when it is too small, cut \
            off by the photo's edge, lit very unevenly, blurred or strongly tilted, each with the \
            measured value and the limit; and the skin tone (median of cheek and forehead patches) \
            in sRGB hex and CIELAB, with the pixels used and their spread. Coordinates are pixels \
            of the upright photo. Warnings do not change the exit status; unreadable photos do.
            """
    )

    @OptionGroup var input: InputFlags

    func validate() throws { try input.requirePhotos() }

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Also write each face (longest edge 1080 px, enlarged at most 4×) and each eye (full resolution) as PNGs, with a JSON of landmarks and metadata, into this folder.", valueName: "dir"),
            completion: .directory)
    var exportCrops: String?

    @Flag(help: "Replace exported files that already exist.")
    var overwrite = false

    @OptionGroup var detection: DetectionFlags

    @OptionGroup var limits: PixelLimitFlag

    struct PhotoReport: Encodable {
        var file: String
        var width: Int
        var height: Int
        var detector: String
        /// True when CenterFace could not be opened and OpenCV's cascade stood in (no confidence, no landmarks).
        var fallback: Bool
        var faces: [FaceAssessment]
    }

    func run() throws {
        if let exportCrops { try Terminal.failing { try OutputFolder.prepare(exportCrops) } }
        let detector = try detection.openDetector()
        let exporter = FaceCropExporter(export: ExportOptions(overwrite: overwrite))
        try EachInput.run(input.collect(outputFolders: exportCrops.map { [$0] } ?? []), json: json) { file -> PhotoReport in
            let photo = try Photo.load(path: file.path, pixelLimit: limits.maxPixels)
            let faces = try detector.detect(in: photo, options: detection.options)
            let assessments = try FaceReport.analyse(photo: photo, faces: faces)
            let report = PhotoReport(file: file.path, width: photo.width, height: photo.height,
                                     detector: detector.kind.rawValue, fallback: detector.kind == .cascade,
                                     faces: assessments)
            if !json { printText(report) }
            if let exportCrops {
                let stem = (file.outputStem as NSString).lastPathComponent
                let folder = (exportCrops as NSString).appendingPathComponent(file.outputStem.parentPath)
                let result = try exporter.write(photo: photo, assessments: assessments, to: folder, stem: stem)
                describe(result, folder: folder, exporter: exporter)
            }
            return report
        }
    }

    /// Where the crops went (on stderr, so `--json` output stays clean).
    private func describe(_ result: FaceCropExporter.Result, folder: String, exporter: FaceCropExporter) {
        if !result.written.isEmpty {
            Terminal.printErr("  crops: \(Terminal.count(result.written.count, "file")) written in \(folder)/ (\(Terminal.names(result.written)))")
        }
        if !result.kept.isEmpty {
            Terminal.printErr("  crops: \(Terminal.count(result.kept.count, "file")) already there kept (--overwrite replaces them)")
        }
        for (face, edge) in result.limited {
            Terminal.printErr("  face \(face): crop \(edge) px, not \(exporter.longestEdge): enlarged at most "
                + "\(Rounding.pixels(exporter.maxEnlargement))× (more would only show blur)")
        }
    }

    private func printText(_ report: PhotoReport) {
        let count = report.faces.count
        let flagged = report.faces.filter { !$0.isGood }.count
        print("\(report.file): \(count) face\(count == 1 ? "" : "s") (\(report.width)×\(report.height))"
            + (count > 0 ? ", \(flagged) with warnings" : ""))
        for assessment in report.faces {
            for line in assessment.summaryLines { print("  " + line) }
        }
    }
}
