// Group photos with known faces for the benchmark (the same ones the tests make, see
// Tests/TestSupport/GroupPhoto.swift), and their scoring.
//
//   GroupPhotos make OUT.jpg WIDTHxHEIGHT ROWSxCOLUMNS MIN-MAX [grass|studio] [DARKNESS] [SEED] [TURN]
//       writes the photo (JPEG, quality 90) and OUT.json with its faces; TURN (0, 90, 180,
//       270) turns it clockwise afterwards, as a photo lying on its side
//   GroupPhotos score OUT.json DETECT.json MIN-FACE
//       prints recall and precision of `sketchease detect --json` output as JSON
import FaceDetector
import Foundation
import TestSupport
import Vips

struct Truth: Codable {
    var faces: [[Double]]
    var unmarked: [[Double]]
}

struct Detections: Decodable {
    struct Face: Decodable { var box: [Double] }
    var faces: [Face]
}

func box(_ a: [Double]) -> FaceBox { FaceBox(x: a[0], y: a[1], width: a[2], height: a[3]) }

func pair(_ text: String, _ separator: Character) -> (Double, Double)? {
    let parts = text.split(separator: separator).compactMap { Double($0) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("GroupPhotos: \(message)\n".utf8))
    exit(2)
}

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "make":
    guard args.count >= 5, let size = pair(args[2], "x"), let grid = pair(args[3], "x"), let faces = pair(args[4], "-")
    else { fail("usage: make OUT.jpg WIDTHxHEIGHT ROWSxCOLUMNS MIN-MAX [grass|studio] [DARKNESS] [SEED] [TURN]") }
    let backdrop = args.count > 5 ? GroupPhoto.Backdrop(rawValue: args[5]) ?? .grass : .grass
    let darkness = args.count > 6 ? Double(args[6]) ?? 0 : 0
    let seed = args.count > 7 ? UInt64(args[7]) ?? 1 : 1
    let turn = args.count > 8 ? QuarterTurn(rawValue: Int(args[8]) ?? 0) ?? .none : .none
    do {
        let photo = try GroupPhoto.make(width: Int(size.0), height: Int(size.1), rows: Int(grid.0), columns: Int(grid.1),
                                        faceSizes: faces.0...faces.1, backdrop: backdrop, darkness: darkness, seed: seed)
            .turned(turn)
        _ = try VipsCall("jpegsave", ["in": .image(photo.image), "filename": .string(args[1]), "Q": .int(90)])
        let truth = Truth(faces: photo.faces.map(\.array), unmarked: photo.unmarked.map(\.array))
        try JSONEncoder().encode(truth).write(to: URL(fileURLWithPath: (args[1] as NSString).deletingPathExtension + ".json"))
        print("\(args[1]): \(photo.faces.count) faces")
    } catch {
        fail("\(error)")
    }
case "score":
    guard args.count == 4, let minFace = Double(args[3]) else { fail("usage: score TRUTH.json DETECT.json MIN-FACE") }
    do {
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: args[1])))
        let found = try JSONDecoder().decode([Detections].self, from: Data(contentsOf: URL(fileURLWithPath: args[2])))
        let photo = GroupPhoto(image: try VipsImage.solid(width: 1, height: 1, pixel: [0]), faces: truth.faces.map(box),
                               unmarked: truth.unmarked.map(box))
        let score = photo.score(found.first?.faces.map { box($0.box) } ?? [], minFace: minFace)
        let result: [String: Double] = ["recall": score.recall, "precision": score.precision, "wanted": Double(score.wanted),
                                        "found": Double(score.found), "missed": Double(score.missed.count),
                                        "false_positives": Double(score.falsePositives.count)]
        print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
    } catch {
        fail("\(error)")
    }
default:
    fail("commands: make, score")
}
