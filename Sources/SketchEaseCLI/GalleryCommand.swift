import ArgumentParser
import Foundation
import SketchEase

/// `sketchease gallery`: the contact sheet of every style shown in the README (`make gallery`).
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Draw every style on the largest face of each photo into one contact sheet PNG.",
        shouldDisplay: false
    )

    @Argument(help: ArgumentHelp("Photos, one row each.", valueName: "photo"))
    var photos: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write.", valueName: "file"))
    var out: String

    @Option(help: "Height of each face in the sheet, in pixels.")
    var cellHeight: Int = 200

    @OptionGroup var detection: DetectionFlags

    func run() throws {
        let detector = try detection.openDetector()
        var faces: [(image: VipsImage, face: DetectedFace)] = []
        for path in photos {
            let photo = try Photo.load(path: path)
            let found = try detector.detect(in: photo, options: detection.options)
            guard let largest = found.max(by: { $0.box.area < $1.box.area }) else {
                Terminal.warn("\(path): no face found, left out of the gallery")
                continue
            }
            faces.append((photo.rgb, largest))
        }
        let gallery = StyleGallery(columns: try StyleGallery.standardColumns(), cellHeight: cellHeight)
        let sheet = try gallery.render(faces: faces)
        try sheet.savePNG(path: out, compression: 9)
        Terminal.printErr("gallery written to \(out) (\(sheet.width)×\(sheet.height))")
    }
}
