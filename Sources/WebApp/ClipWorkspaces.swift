import Foundation
import SketchEase
import Synchronization
import Video

/// The clips open in the browser. Opening one follows its faces through the whole clip (or
/// resumes its session, which follows them again), so a clip is opened once even when several
/// requests for it arrive together, and how far the pass has got can be asked meanwhile. Only
/// the two used last stay open. A clip whose session file was changed at the `edit` prompt
/// since is opened again from it.
actor ClipWorkspaces {
    private var open: [String: Task<ClipWorkspace, any Error>] = [:]
    private var recent: [String] = []
    let capacity: Int
    let settings: ServeSettings
    let detector: OpenCVFaceDetector
    let log: @Sendable (String) -> Void
    /// How far each clip being opened has got: frames done, frames expected.
    let opening = OpeningProgress()

    init(settings: ServeSettings, detector: OpenCVFaceDetector, capacity: Int = 2, log: @escaping @Sendable (String) -> Void) {
        self.settings = settings; self.detector = detector; self.capacity = capacity; self.log = log
    }

    func workspace(for entry: PhotoLibrary.Entry) async throws -> ClipWorkspace {
        guard entry.isClip else { throw APIError(status: .badRequest, message: "\(entry.id) is a photo, not a clip") }
        if let existing = open[entry.id], let ready = try? await existing.value, ready.changedElsewhere {
            log("\(entry.id): its session was changed at the prompt; opening it again")
            open[entry.id] = nil
        }
        let task: Task<ClipWorkspace, any Error>
        if let existing = open[entry.id] {
            task = existing
        } else {
            let (settings, detector, opening) = (self.settings, self.detector, self.opening)
            let id = entry.id
            task = Task {
                defer { opening.table.withLock { $0[id] = nil } }
                return try await Background.run {
                    try ClipWorkspace(entry: entry, settings: settings, detector: detector) { p in
                        opening.table.withLock { $0[id] = (p.frames, p.expectedFrames) }
                    }
                }
            }
            open[entry.id] = task
        }
        recent.removeAll { $0 == entry.id }
        recent.append(entry.id)
        while recent.count > capacity { open[recent.removeFirst()] = nil }
        do {
            return try await task.value
        } catch {
            if open[entry.id] == task { open[entry.id] = nil }
            recent.removeAll { $0 == entry.id }
            throw error
        }
    }

    /// The clip if it is open already (no pass over it started).
    func openWorkspace(for id: String) async -> ClipWorkspace? {
        guard let task = open[id] else { return nil }
        return try? await task.value
    }
}

/// How far each clip being opened has got: frames done, frames expected.
final class OpeningProgress: Sendable {
    let table = Mutex<[String: (frames: Int, expected: Int?)]>([:])
}
