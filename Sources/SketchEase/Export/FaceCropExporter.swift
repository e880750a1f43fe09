import Foundation

/// Writes each face as lossless PNG crops, plus a JSON file describing them.
///
/// Per face N of photo `stem`: `stem-faceN.png`, the face box grown by `boxScale` and resized
/// so its longest edge is `longestEdge` pixels (Lanczos), but enlarged at most `maxEnlargement`
/// times (a 28 px face blown up to 1080 px would show nothing but blur);
/// `stem-faceN-left-eye.png` and `stem-faceN-right-eye.png`, squares of 0.6 interocular
/// distances around each eye at full resolution. `stem-faces.json` lists, per face, the files,
/// each crop's rectangle in the photo, the face crop's scale, and the landmarks in photo and
/// face-crop pixels, with the report's warnings and skin tone. Files already there are kept
/// (and listed as kept) unless `export.overwrite`; the rest are still written.
public struct FaceCropExporter: Sendable {
    public var longestEdge: Int
    public var maxEnlargement: Double
    public var boxScale: Double
    public var export: ExportOptions

    public init(longestEdge: Int = 1080, maxEnlargement: Double = 4, boxScale: Double = 1.3, export: ExportOptions = .init()) {
        self.longestEdge = longestEdge; self.maxEnlargement = maxEnlargement; self.boxScale = boxScale; self.export = export
    }

    /// What one photo's export did.
    public struct Result: Sendable {
        public var written: [String] = []
        /// Files already there, left as they were.
        public var kept: [String] = []
        /// Faces shown smaller than `longestEdge` because that would enlarge them more than
        /// `maxEnlargement` times: (face number, the crop's longest edge).
        public var limited: [(face: Int, edge: Int)] = []
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

    /// Writes the crops and `stem-faces.json` into `folder` (created if missing).
    @discardableResult
    public func write(photo: Photo, assessments: [FaceAssessment], to folder: String, stem: String) throws -> Result {
        try OutputFolder.prepare(folder)
        let bounds = PixelRect(x: 0, y: 0, width: photo.width, height: photo.height)
        var result = Result()
        // An earlier file kept (no --overwrite) is listed, not an error: the rest are still written.
        func save(to path: String, _ write: () throws -> Void) throws {
            if try OutputPolicy.verdict(for: path, source: photo.path, overwrite: export.overwrite) == .keep {
                result.kept.append(path)
                return
            }
            try write()
            result.written.append(path)
        }
        func save(_ image: @autoclosure () throws -> VipsImage, to path: String) throws {
            try save(to: path) { try ImageExporter.write(try image(), to: path, source: photo.path, options: export) }
        }
        var faces: [FaceJSON] = []
        for assessment in assessments {
            let name = "\(stem)-face\(assessment.index)"
            guard let faceRect = PixelRect(enclosing: assessment.face.box.grown(by: boxScale))?.clipped(to: bounds) else { continue }
            let wanted = Double(longestEdge) / Double(max(faceRect.width, faceRect.height))
            let scale = min(wanted, maxEnlargement)
            let crop = try photo.rgb.crop(x: faceRect.x, y: faceRect.y, width: faceRect.width, height: faceRect.height)
            let resized = try crop.resize(scale: scale)
            if wanted > maxEnlargement { result.limited.append((assessment.index, max(resized.width, resized.height))) }
            let facePath = (folder as NSString).appendingPathComponent(name + ".png")
            try save(resized, to: facePath)

            var eyes: [String: CropJSON] = [:]
            let (frame, _) = FaceReport.landmarkFrame(for: assessment.face)
            let side = min(max(8, Rounding.pixels(0.6 * frame.interocular)), photo.width, photo.height)
            for (label, eye) in [("left_eye", frame.leftEye), ("right_eye", frame.rightEye)] {
                // A square of `side` around the eye, moved inside the photo rather than cut at its edge.
                let x = min(max(0, Rounding.pixels(eye.x - Double(side) / 2)), photo.width - side)
                let y = min(max(0, Rounding.pixels(eye.y - Double(side) / 2)), photo.height - side)
                let path = (folder as NSString).appendingPathComponent("\(name)-\(label.replacingOccurrences(of: "_", with: "-")).png")
                try save(try photo.rgb.crop(x: x, y: y, width: side, height: side), to: path)
                eyes[label] = CropJSON(file: (path as NSString).lastPathComponent, rect: [x, y, side, side], scale: 1)
            }
            let sx = Double(resized.width) / Double(faceRect.width), sy = Double(resized.height) / Double(faceRect.height)
            let inCrop = assessment.face.landmarks.map { Point(x: ($0.x - Double(faceRect.x)) * sx, y: ($0.y - Double(faceRect.y)) * sy) }
            faces.append(FaceJSON(
                assessment: assessment,
                faceCrop: CropJSON(file: (facePath as NSString).lastPathComponent,
                                   rect: [faceRect.x, faceRect.y, faceRect.width, faceRect.height], scale: Rounding.decimals(sx, 3)),
                eyeCrops: eyes, landmarksInCrop: FaceAssessment.landmarkTable(inCrop)))
        }
        let jsonPath = (folder as NSString).appendingPathComponent("\(stem)-faces.json")
        let data = try JSONEncoder.readable.encode(PhotoJSON(source: photo.path, width: photo.width, height: photo.height, faces: faces))
        try save(to: jsonPath) { try OutputFile.write(data, to: jsonPath, source: photo.path, overwrite: export.overwrite) }
        return result
    }
}
