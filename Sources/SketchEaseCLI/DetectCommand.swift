import ArgumentParser
import Foundation
import SketchEase

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "List the faces found in photos.",
        discussion: """
            Coordinates are pixels of the upright photo (EXIF orientation applied): \
            box = [x, y, width, height]; landmarks are the eyes, nose tip and mouth corners, \
            left and right as seen in the image.
            """
    )

    @Argument(help: ArgumentHelp("Photos and folders of photos.", valueName: "input"))
    var inputs: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .shortAndLong, help: "Also take photos from sub-folders.")
    var recursive = false

    @OptionGroup var detection: DetectionFlags

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
        let (files, problems) = InputCollector.collect(inputs, recursive: recursive)
        var failures = problems
        for problem in problems { Terminal.error(problem.description) }
        let detector = try detection.openDetector()
        var results: [PhotoFaces] = []
        for file in files {
            do {
                let photo = try Photo.load(path: file.path, pixelLimit: limits.maxPixels)
                let faces = try detector.detect(in: photo, options: detection.options)
                let entry = PhotoFaces(file: file.path, width: photo.width, height: photo.height,
                                       detector: detector.kind.rawValue, fallback: detector.kind == .cascade,
                                       faces: faces.map(Self.json))
                if json { results.append(entry) } else { printTable(entry) }
            } catch {
                let failure = PhotoError(path: file.path, wrapping: error)
                failures.append(failure)
                Terminal.error(failure.description)
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        }
        if !failures.isEmpty { throw ExitCode.failure }
    }

    static func json(_ face: DetectedFace) -> FaceJSON {
        var marks: [String: [Double]] = [:]
        for mark in Landmark.allCases {
            if let p = face.landmark(mark) { marks[mark.name] = [round1(p.x), round1(p.y)] }
        }
        return FaceJSON(box: face.box.array.map(round1), score: face.score.map { ($0 * 1000).rounded() / 1000 }, landmarks: marks)
    }

    static func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    private func printTable(_ entry: PhotoFaces) {
        print("\(entry.file): \(entry.faces.count) face\(entry.faces.count == 1 ? "" : "s") (\(entry.width)×\(entry.height))")
        for (i, face) in entry.faces.enumerated() {
            let b = face.box.map { String(Int($0.rounded())) }
            let score = face.score.map { "  score " + String(format: "%.2f", $0) } ?? ""
            print("  \(i + 1). x=\(b[0]) y=\(b[1]) w=\(b[2]) h=\(b[3])" + score)
        }
    }
}
