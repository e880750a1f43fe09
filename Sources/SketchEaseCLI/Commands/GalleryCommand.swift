import ArgumentParser
import Foundation
import SketchEase

/// `sketchease gallery`: the contact sheet of every style shown in the README (`make gallery`).
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Draw every style on the largest face of each photo into one contact sheet PNG."
    )

    @Argument(help: ArgumentHelp("Photos, one row each.", valueName: "photo"))
    var photos: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write.", valueName: "file"))
    var out: String

    @Option(help: "Height of each face in the sheet, in pixels.")
    var cellHeight: Int = 200

    @OptionGroup var detection: DetectionFlags

    @OptionGroup var limits: PixelLimitFlag

    func validate() throws {
        // The sheet replaces what is at --out, as asked, but never one of the photos.
        if let target = FileIdentity(out), photos.contains(where: { FileIdentity($0) == target }) {
            throw ValidationError("--out \(out) is one of the photos; choose another file")
        }
    }

    func run() throws {
        let detector = try detection.openDetector()
        var faces: [(image: VipsImage, face: DetectedFace)] = []
        var failed = false
        for path in photos {
            do {
                let photo = try Photo.load(path: path, pixelLimit: limits.maxPixels)
                let found = try detector.detect(in: photo, options: detection.options)
                guard let largest = found.max(by: { $0.box.area < $1.box.area }) else {
                    Terminal.warn("\(path): no face found, left out of the gallery")
                    continue
                }
                faces.append((photo.rgb, largest))
            } catch {
                // One line per photo that cannot be used; the sheet is made from the rest.
                Terminal.error(PhotoError(path: path, wrapping: error).description)
                failed = true
            }
        }
        guard !faces.isEmpty else {
            Terminal.error("no faces to draw: nothing written to \(out)")
            throw ExitCode.failure
        }
        let gallery = StyleGallery(columns: try StyleGallery.standardColumns(), cellHeight: cellHeight)
        let sheet = try gallery.render(faces: faces)
        // Like every export: written atomically, the photos' metadata (GPS...) left out.
        try ImageExporter.write(sheet, to: out, options: ExportOptions(compression: 9, overwrite: true, namedDestination: true))
        Terminal.printErr("gallery written to \(out) (\(sheet.width)×\(sheet.height))")
        if failed { throw ExitCode.failure }
    }
}
