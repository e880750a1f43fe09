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

    @Option(name: .shortAndLong, help: ArgumentHelp("The sheet to write: .png, .jpg or .webp. An earlier sheet of SketchEase's there is replaced; any other file is kept.", valueName: "file"))
    var out: String

    @Option(help: "Height of each face in the sheet, in pixels.")
    var cellHeight: Int = 200

    @Option(help: ArgumentHelp("What each style covers: face, head, person or ellipse.", valueName: "region"))
    var region: RenderOptions.Region = .head

    @Option(help: ArgumentHelp("Drawings' lightness: photo or paper.", valueName: "tone"))
    var tone: RenderOptions.Tone = .photo

    @OptionGroup var detection: DetectionFlags

    @OptionGroup var limits: PixelLimitFlag

    func validate() throws {
        if FileIdentity.of(out, isAnyOf: photos) {
            throw ValidationError("--out \(out) is one of the photos; choose another file")
        }
        _ = try format()
    }

    /// The sheet's format, as its name says: a sheet named .jpg is a JPEG, not a PNG in disguise.
    private func format() throws -> ImageFormat {
        let suffix = (out as NSString).pathExtension
        guard let format = ImageFormat(name: suffix) else {
            throw ValidationError("--out \(out): name the sheet .png, .jpg or .webp")
        }
        return format
    }

    func run() throws {
        try Terminal.failing { try OutputFile.checkNamed(out) }
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
        let gallery = StyleGallery(columns: try StyleGallery.standardColumns(), cellHeight: cellHeight,
                                   render: RenderOptions(region: region, tone: tone))
        let sheet = try gallery.render(faces: faces)
        // Like every export: written atomically, the photos' metadata (GPS...) left out, and
        // never over a file SketchEase did not write.
        try Terminal.failing {
            try ImageExporter.write(sheet, to: out, options: ExportOptions(compression: 9, namedDestination: true, format: try format()))
        }
        Terminal.printErr("gallery written to \(out) (\(sheet.width)×\(sheet.height))")
        if failed { throw ExitCode.failure }
    }
}
