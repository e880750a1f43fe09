import ArgumentParser
import Foundation
import SketchEase
import Video

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "List the faces found in photos (and the tracked faces of clips).",
        discussion: """
            Coordinates are pixels of the upright photo (EXIF orientation applied): \
            box = [x, y, width, height]; landmarks are the eyes, nose tip and mouth corners, \
            left and right as seen in the image. A clip gives its tracks: each face's id (as \
            `video --plan` names it) and its smoothed box on every frame it is drawn on.
            """
    )

    @OptionGroup var input: InputFlags

    func validate() throws { try input.requirePhotos() }

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var detection: DetectionFlags

    @OptionGroup(title: "Clips") var tracking: TrackingFlags

    @OptionGroup var limits: PixelLimitFlag

    struct PhotoFaces: Encodable {
        var file: String
        var width: Int
        var height: Int
        var detector: String
        /// True when CenterFace could not be opened and OpenCV's cascade stood in (no confidence, no landmarks).
        var fallback: Bool
        var faces: [FaceJSON]
    }

    struct FaceJSON: Encodable {
        var box: [Double]
        /// Null from the cascade fallback, which gives no confidence.
        var score: Double?
        var landmarks: [String: [Double]]

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(box, forKey: .box)
            try c.encode(score, forKey: .score)
            try c.encode(landmarks, forKey: .landmarks)
        }

        enum CodingKeys: String, CodingKey { case box, score, landmarks }
    }

    func run() throws {
        let detector = try detection.openDetector()
        try EachInput.run(input.collect(), json: json) { file -> DetectResult in
            if ClipFiles.isClip(file.path) {
                let entry = try clipTracks(file.path, detector: detector)
                if !json { printTable(entry) }
                return .clip(entry)
            }
            let photo = try Photo.load(path: file.path, pixelLimit: limits.maxPixels)
            let faces = try detector.detect(in: photo, options: detection.options)
            if !json { printTable(file.path, size: (photo.width, photo.height), faces: faces) }
            return .photo(PhotoFaces(file: file.path, width: photo.width, height: photo.height,
                                     detector: detector.kind.rawValue, fallback: detector.kind == .cascade,
                                     faces: faces.map(Self.json)))
        }
    }

    static func json(_ face: DetectedFace) -> FaceJSON {
        FaceJSON(box: face.box.array.map { Rounding.decimals($0, 1) }, score: face.score.map { Rounding.decimals($0, 3) },
                 landmarks: FaceAssessment.landmarkTable(face.landmarks))
    }

    private func printTable(_ file: String, size: (width: Int, height: Int), faces: [DetectedFace]) {
        print("\(file): \(Terminal.count(faces.count, "face")) (\(size.width)×\(size.height))")
        for (i, face) in faces.enumerated() {
            let b = face.box.array.map { String(Rounding.pixels($0)) }
            let score = face.score.map { "  score \(Rounding.score($0))" } ?? ""
            print("  \(i + 1). x=\(b[0]) y=\(b[1]) w=\(b[2]) h=\(b[3])" + score)
        }
    }
}
