import Foundation
import SketchEase

/// A plan's entry for a clip (see `BatchPlan`): its faces are tracks, named by id or by a box
/// on a frame. Boxes need the clip's tracks first (`ClipRenderer.track`), so a plan with boxes
/// is carried out in two passes: follow the clip, then draw it as followed.
public struct PlannedClip: Sendable {
    public let entry: BatchPlan.PhotoEntry
    /// The plan file, for messages.
    public let plan: String

    public init(entry: BatchPlan.PhotoEntry, plan: String) {
        self.entry = entry; self.plan = plan
    }

    /// Whether the entry names faces by box (and so needs the tracks before drawing).
    public var needsTracks: Bool {
        entry.faces.contains { if case .box = $0.target { true } else { false } }
    }

    /// Styles by track id, for a plan that names tracks by id only.
    public var styles: TrackStyles {
        var byTrack: [Int: FaceStyle?] = [:]
        for face in entry.faces { if case .number(let id) = face.target { byTrack[id] = .some(face.style) } }
        return TrackStyles(others: entry.others, byTrack: byTrack)
    }

    /// The boxes to follow while finding the tracks, each under a provisional id (-1, -2, …):
    /// where no track is found on its frame, the followed box becomes a face of its own.
    public var follows: [ClipRenderer.Follow] {
        entry.faces.enumerated().compactMap { j, face in
            guard case .box(let box) = face.target else { return nil }
            return ClipRenderer.Follow(id: -1 - j, moment: face.moment ?? .frame(0), box: box)
        }
    }

    /// The tracks to draw and their styles: each box names the track it overlaps on its frame,
    /// or becomes a new track (the next free id) followed from there. Throws, naming the plan,
    /// when two entries name the same track or a box's moment is past the clip's end.
    public func resolve(_ found: ClipTracks) throws -> (tracks: ClipTracks, styles: TrackStyles) {
        var tracks = found
        var byTrack: [Int: FaceStyle?] = [:]
        var listedAt: [Int: Int] = [:]
        var nextID = found.ids.filter { $0 > 0 }.max().map { $0 + 1 } ?? 1
        var renamed: [Int: Int] = [:]
        let clip = (entry.path as NSString).lastPathComponent
        for (j, face) in entry.faces.enumerated() {
            let id: Int
            switch face.target {
            case .number(let n):
                id = n
            case .box(let box):
                let moment = face.moment ?? .frame(0)
                let problem: String? = switch moment {
                case .frame(let n): found.pastTheEnd(frame: n)
                case .time(let t): found.pastTheEnd(t)
                }
                if let problem { throw SessionError(path: plan, reason: .invalid("\(clip): faces[\(j)]: \(problem)")) }
                let frame: Int = switch moment {
                case .frame(let n): n
                case .time(let t): found.frame(at: t)
                }
                if let track = found.track(on: frame, overlapping: box) {
                    id = track
                } else {
                    id = nextID
                    renamed[-1 - j] = nextID
                    nextID += 1
                }
            }
            if let earlier = listedAt[id] {
                throw SessionError(path: plan, reason: .invalid("\(clip): faces[\(j)] is track \(id), already listed at faces[\(earlier)]"))
            }
            listedAt[id] = j
            byTrack[id] = .some(face.style)
        }
        // Followed boxes: kept (renumbered) where they became faces, dropped where a track was there.
        for i in tracks.frames.indices {
            tracks.frames[i].faces = tracks.frames[i].faces.compactMap { f in
                guard f.id < 0 else { return f }
                guard let id = renamed[f.id] else { return nil }
                var kept = f
                kept.id = id
                return kept
            }
        }
        return (tracks, TrackStyles(others: entry.others, byTrack: byTrack))
    }

    /// Track ids the plan names that the clip does not have: one line for the person.
    public func missing(in ids: Set<Int>) -> String? {
        let named = entry.faces.compactMap { f -> Int? in if case .number(let n) = f.target { n } else { nil } }
        let absent = named.filter { !ids.contains($0) }
        guard !absent.isEmpty else { return nil }
        let clip = (entry.path as NSString).lastPathComponent
        return "\(plan): \(clip): no track \(absent.map(String.init).joined(separator: ", ")) (tracks found: \(ids.sorted().map(String.init).joined(separator: ", ")))"
    }
}
