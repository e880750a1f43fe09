import Foundation

/// Per-photo, per-face styles for `sketchease batch --plan` and `sketchease apply`.
///
/// ```json
/// {"format": "sketchease-plan", "version": 1,
///  "photos": [{"path": "group.jpg",
///              "faces": [{"face": 1, "style": {"filter": "pencil", "parameters": {"darkness": 2}}},
///                        {"box": [610, 80, 120, 150], "style": {"filter": "pencil"}}],
///              "others": null}]}
/// ```
/// Photo paths are relative to the plan file's folder. A face is named by its number in
/// reading order (1 = top left, as `sketchease detect` lists them) or by a box `[x, y, w, h]`:
/// the detected face overlapping it most (intersection over union at least 0.3), or, if none
/// does, a new face box there. `others` styles the faces not listed (default: left as they are).
///
/// A clip is listed the same way: its faces are tracks, named by track id (as `sketchease detect`
/// lists them for a clip) or by a box on a given frame (`"frame": 120` or `"time": 4.0`): the
/// track there, or, if none, a box followed through the clip from there.
public struct BatchPlan: Sendable, Equatable {
    public static let format = "sketchease-plan"
    public static let currentVersion = 1

    public struct FaceEntry: Sendable, Equatable {
        public enum Target: Sendable, Equatable {
            case number(Int)
            case box(FaceBox)
        }
        public var target: Target
        /// nil: leave the face as it is.
        public var style: FaceStyle?
        /// For a box in a clip: the moment the box is on.
        public var moment: Moment?

        public enum Moment: Sendable, Equatable {
            case frame(Int)
            case time(Double)
        }
    }

    public struct PhotoEntry: Sendable, Equatable {
        /// Absolute path of the photo.
        public var path: String
        public var faces: [FaceEntry]
        public var others: FaceStyle?
    }

    /// The plan file, for messages.
    public var file: String
    public var photos: [PhotoEntry]

    /// Reads and checks a plan. Every mistake in it is found before any is reported: one
    /// `SessionError` naming the file, with each mistake and its place (one line, or a line
    /// each when there are several), so a plan is mended in one go.
    public static func read(from path: String) throws -> BatchPlan {
        let data = try VersionedJSON.load(path, format: format, supported: currentVersion)
        let raw: RawPlan
        do {
            raw = try JSONDecoder().decode(RawPlan.self, from: data)
        } catch {
            throw SessionError(path: path, reason: .invalid(VersionedJSON.describe(error)))
        }
        let folder = SessionFile.absolute(path).parentPath
        var mistakes: [String] = []
        var seen = Set<String>()
        var photos: [PhotoEntry] = []
        for (i, attempt) in raw.photos.enumerated() {
            func fail(_ why: String) { mistakes.append("photos[\(i)]: \(why)") }
            let p: RawPhoto
            switch attempt.result {
            case .failure(let error): mistakes.append(VersionedJSON.describe(error)); continue
            case .success(let decoded): p = decoded
            }
            guard !p.path.isEmpty else { fail("empty \"path\""); continue }
            let absolute = SessionFile.absolute(p.path.hasPrefix("/") ? p.path : folder + "/" + p.path)
            if !seen.insert(absolute).inserted { fail("\(p.path) is listed twice") }
            var faces: [FaceEntry] = []
            for (j, faceAttempt) in (p.faces ?? []).enumerated() {
                let f: RawFace
                switch faceAttempt.result {
                case .failure(let error): mistakes.append(VersionedJSON.describe(error)); continue
                case .success(let decoded): f = decoded
                }
                var target: FaceEntry.Target?
                switch (f.face, f.box) {
                case (let n?, nil):
                    if n >= 1 { target = .number(n) } else { fail("faces[\(j)]: \"face\" numbers start at 1") }
                case (nil, let b?):
                    if b.count == 4, b.allSatisfy(\.isFinite), b[2] >= 2, b[3] >= 2 {
                        target = .box(FaceBox(x: b[0], y: b[1], width: b[2], height: b[3]))
                    } else {
                        fail("faces[\(j)]: \"box\" must be [x, y, width, height] with width and height at least 2")
                    }
                default:
                    fail("faces[\(j)]: give either \"face\" (a number) or \"box\" ([x, y, w, h])")
                }
                var moment: FaceEntry.Moment?
                switch (f.frame, f.time) {
                case (nil, nil): moment = nil
                case (let n?, nil):
                    if n >= 0 { moment = .frame(n) } else { fail("faces[\(j)]: \"frame\" numbers start at 0") }
                case (nil, let t?):
                    if t.isFinite, t >= 0 { moment = .time(t) } else { fail("faces[\(j)]: \"time\" must be seconds from the start") }
                default: fail("faces[\(j)]: give \"frame\" or \"time\", not both")
                }
                if let target { faces.append(FaceEntry(target: target, style: f.style, moment: moment)) }
            }
            var others: FaceStyle?
            switch p.others?.result {
            case .failure(let error)?: mistakes.append(VersionedJSON.describe(error))
            case .success(let style)?: others = style
            case nil: others = nil
            }
            photos.append(PhotoEntry(path: absolute, faces: faces, others: others))
        }
        if let mistake = mistakes.first {
            throw SessionError(path: path, reason: .invalid(mistakes.count == 1 ? mistake
                : "\(mistakes.count) mistakes:\n  " + mistakes.joined(separator: "\n  ")))
        }
        return BatchPlan(file: path, photos: photos)
    }

    /// The entry for a photo path, if the plan has one.
    public func entry(for photoPath: String) -> PhotoEntry? {
        let absolute = SessionFile.absolute(photoPath)
        return photos.first { $0.path == absolute }
    }

    /// The photos to process, with output names as `batch` gives them.
    public var inputFiles: [InputFile] {
        photos.map { InputFile(path: $0.path) }
    }

    private struct RawPlan: Decodable {
        var photos: [Attempt<RawPhoto>]
    }

    private struct RawPhoto: Decodable {
        var path: String
        var faces: [Attempt<RawFace>]?
        var others: Attempt<FaceStyle>?
    }

    /// A part of the file decoded on its own, so that one mistake does not hide the next.
    private struct Attempt<Value: Decodable>: Decodable {
        var result: Result<Value, Error>
        init(from decoder: Decoder) throws {
            do { result = .success(try Value(from: decoder)) } catch { result = .failure(error) }
        }
    }

    private struct RawFace: Decodable {
        var face: Int?
        var box: [Double]?
        var style: FaceStyle?
        var frame: Int?
        var time: Double?
    }
}

extension BatchPlan.PhotoEntry {
    /// The edits that carry out this entry on freshly detected faces (numbered 1, 2, … in
    /// reading order). Throws, naming the plan, the photo and the entry, when the plan names a
    /// face number that was not found or names one face twice (by number or by box).
    public func edits(for history: EditHistory, plan file: String) throws -> [Edit] {
        var edits: [Edit] = []
        var listedAt: [Int: Int] = [:]
        var nextID = history.nextFaceID
        let photo = (path as NSString).lastPathComponent
        // Every mistake for this photo is said at once.
        var mistakes: [String] = []
        func fail(_ j: Int, _ why: String) { mistakes.append("faces[\(j)]: \(why)") }
        func list(_ id: Int, at j: Int, as what: String) -> Bool {
            if let earlier = listedAt[id] {
                fail(j, "\(what) is face \(id), already listed at faces[\(earlier)]")
                return false
            }
            listedAt[id] = j
            return true
        }
        for (j, entry) in faces.enumerated() {
            switch entry.target {
            case .number(let n):
                guard history.face(n) != nil else { fail(j, "no face \(n) (\(history.faces.count) found)"); continue }
                guard list(n, at: j, as: "face \(n)") else { continue }
                if let style = entry.style { edits.append(.setStyle(faces: [n], style: style)) }
            case .box(let box):
                let best = history.faces.max { $0.box.iou(box) < $1.box.iou(box) }
                if let best, best.box.iou(box) >= 0.3 {
                    guard list(best.id, at: j, as: "the box \(box.array.map { Rounding.pixels($0) })") else { continue }
                    if let style = entry.style { edits.append(.setStyle(faces: [best.id], style: style)) }
                } else {
                    guard (try? BoxRule.fit(box, in: history.imageSize)) != nil else {
                        fail(j, "the box \(box.array.map { Rounding.pixels($0) }) is outside the photo (\(history.imageSize.text))")
                        continue
                    }
                    edits.append(.add(face: nextID, box: box, style: entry.style))
                    listedAt[nextID] = j
                    nextID += 1
                }
            }
        }
        if !mistakes.isEmpty {
            throw SessionError(path: file, reason: .invalid(mistakes.count == 1 ? "\(photo): \(mistakes[0])"
                : "\(photo): \(mistakes.count) mistakes: " + mistakes.joined(separator: "; ")))
        }
        let rest = history.faces.map(\.id).filter { listedAt[$0] == nil }
        if let others, !rest.isEmpty { edits.append(.setStyle(faces: rest, style: others)) }
        return edits
    }
}
