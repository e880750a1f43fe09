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
        var faces: [FaceJSON]
    }

    struct FaceJSON: Encodable {
        var box: [Double]
        var score: Double
        var landmarks: [String: [Double]]
    }

    func run() throws {
        let (files, problems) = InputCollector.collect(inputs, recursive: recursive)
        var failures = problems
        for problem in problems { Terminal.error(problem.description) }
        let detector = try detection.openDetector()
        var results: [PhotoFaces] = []
        for file in files {
            do {
                let size = try Photo.inspect(path: file.path, pixelLimit: limits.maxPixels)
                let faces = try detector.detect(in: Photo.detectionCopy(path: file.path, maxSide: detection.detectSize),
                                                options: detection.options, fullSize: size)
                let entry = PhotoFaces(file: file.path, width: size.width, height: size.height,
                                       detector: detector.kind.rawValue, faces: faces.map(Self.json))
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
        return FaceJSON(box: face.box.array.map(round1), score: (face.score * 1000).rounded() / 1000, landmarks: marks)
    }

    static func round1(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    private func printTable(_ entry: PhotoFaces) {
        print("\(entry.file): \(entry.faces.count) face\(entry.faces.count == 1 ? "" : "s") (\(entry.width)×\(entry.height))")
        for (i, face) in entry.faces.enumerated() {
            let b = face.box.map { String(Int($0.rounded())) }
            print("  \(i + 1). x=\(b[0]) y=\(b[1]) w=\(b[2]) h=\(b[3])  score \(String(format: "%.2f", face.score))")
        }
    }
}
