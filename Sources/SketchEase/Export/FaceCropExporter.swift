import Foundation

/// Writes each face as lossless PNG crops, plus a JSON file describing them.
///
/// Per face N of photo `stem`: `stem-faceN.png`, the face box grown by `boxScale` and resized
/// so its longest edge is `longestEdge` pixels (Lanczos; enlarged when the face is smaller);
/// `stem-faceN-left-eye.png` and `stem-faceN-right-eye.png`, squares of 0.6 interocular
/// distances around each eye at full resolution. `stem-faces.json` lists, per face, the files,
/// each crop's rectangle in the photo, the face crop's scale, and the landmarks in photo and
/// face-crop pixels, with the report's warnings and skin tone.
public struct FaceCropExporter: Sendable {
    public var longestEdge: Int
    public var boxScale: Double
    public var export: ExportOptions

    public init(longestEdge: Int = 1080, boxScale: Double = 1.3, export: ExportOptions = .init()) {
        self.longestEdge = longestEdge; self.boxScale = boxScale; self.export = export
    }

    struct CropJSON: Encodable {
        var file: String
        /// `[x, y, width, height]` in photo pixels.
        var rect: [Int]
        /// Output pixels per photo pixel.
        var scale: Double
    }

    struct FaceJSON: Encodable {
        var assessment: FaceAssessment
        var faceCrop: CropJSON
        var eyeCrops: [String: CropJSON]
        /// Landmarks in the face crop's (scaled) pixels.
        var landmarksInCrop: [String: [Double]]

        enum CodingKeys: String, CodingKey { case report, faceCrop = "face_crop", eyeCrops = "eye_crops", landmarksInCrop = "landmarks_in_face_crop" }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(assessment, forKey: .report)
            try c.encode(faceCrop, forKey: .faceCrop)
            try c.encode(eyeCrops, forKey: .eyeCrops)
            try c.encode(landmarksInCrop, forKey: .landmarksInCrop)
        }
    }

    struct PhotoJSON: Encodable {
        var source: String?
        var width: Int
        var height: Int
        var faces: [FaceJSON]
    }

    /// Writes the crops and `stem-faces.json` into `folder` (created if missing); returns the
    /// paths written. Existing files are kept unless `export.overwrite`.
    @discardableResult
    public func write(photo: Photo, assessments: [FaceAssessment], to folder: String, stem: String) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw PhotoError(path: folder, reason: .outputNotWritable("cannot create folder"))
        }
        let bounds = PixelRect(x: 0, y: 0, width: photo.width, height: photo.height)
        var written: [String] = []
        var faces: [FaceJSON] = []
        for assessment in assessments {
            let name = "\(stem)-face\(assessment.index)"
            guard let faceRect = PixelRect(enclosing: assessment.face.box.grown(by: boxScale))?.clipped(to: bounds) else { continue }
            let scale = Double(longestEdge) / Double(max(faceRect.width, faceRect.height))
            let crop = try photo.rgb.crop(x: faceRect.x, y: faceRect.y, width: faceRect.width, height: faceRect.height)
            let resized = try crop.resize(scale: scale)
            let facePath = (folder as NSString).appendingPathComponent(name + ".png")
            try PNGExporter.write(resized, to: facePath, source: photo.path, options: export)
            written.append(facePath)

            var eyes: [String: CropJSON] = [:]
            let (frame, _) = FaceReport.landmarkFrame(for: assessment.face)
            let side = max(8, 0.6 * frame.interocular)
            for (label, eye) in [("left_eye", frame.leftEye), ("right_eye", frame.rightEye)] {
                let box = FaceBox(x: eye.x - side / 2, y: eye.y - side / 2, width: side, height: side)
                guard let rect = PixelRect(enclosing: box)?.clipped(to: bounds) else { continue }
                let path = (folder as NSString).appendingPathComponent("\(name)-\(label.replacingOccurrences(of: "_", with: "-")).png")
                try PNGExporter.write(try photo.rgb.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                                      to: path, source: photo.path, options: export)
                written.append(path)
                eyes[label] = CropJSON(file: (path as NSString).lastPathComponent,
                                       rect: [rect.x, rect.y, rect.width, rect.height], scale: 1)
            }
            let sx = Double(resized.width) / Double(faceRect.width), sy = Double(resized.height) / Double(faceRect.height)
            let inCrop = assessment.face.landmarks.map { Point(x: ($0.x - Double(faceRect.x)) * sx, y: ($0.y - Double(faceRect.y)) * sy) }
            faces.append(FaceJSON(
                assessment: assessment,
                faceCrop: CropJSON(file: (facePath as NSString).lastPathComponent,
                                   rect: [faceRect.x, faceRect.y, faceRect.width, faceRect.height], scale: (sx * 1000).rounded() / 1000),
                eyeCrops: eyes, landmarksInCrop: FaceAssessment.landmarkTable(inCrop)))
        }
        let jsonPath = (folder as NSString).appendingPathComponent("\(stem)-faces.json")
        if !export.overwrite, FileManager.default.fileExists(atPath: jsonPath) {
            throw PhotoError(path: jsonPath, reason: .outputExists)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(PhotoJSON(source: photo.path, width: photo.width, height: photo.height, faces: faces))
        do {
            try data.write(to: URL(fileURLWithPath: jsonPath), options: .atomic)
        } catch {
            throw PhotoError(path: jsonPath, reason: .outputNotWritable(error.localizedDescription))
        }
        written.append(jsonPath)
        return written
    }
}
