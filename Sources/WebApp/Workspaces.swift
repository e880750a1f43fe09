import Foundation
import SketchEase

/// The photos open in the browser. Each holds its decoded photo, so only the few used last
/// stay open; one closed to make room reopens from its session file exactly as it was left.
/// A photo is opened once even when several requests for it arrive together.
actor Workspaces {
    private var open: [String: Task<Workspace, any Error>] = [:]
    private var recent: [String] = []
    let capacity: Int
    let settings: ServeSettings
    let detector: OpenCVFaceDetector

    init(settings: ServeSettings, detector: OpenCVFaceDetector, capacity: Int = 4) {
        self.settings = settings; self.detector = detector; self.capacity = capacity
    }

    /// The photo open, opening it if needed; with `displaySide`, its previews at that size.
    func workspace(for entry: PhotoLibrary.Entry, displaySide: Int? = nil) async throws -> Workspace {
        if entry.isClip { throw APIError(status: .badRequest, message: "\(entry.id) is a clip: open it with /api/clip/open") }
        let side = displaySide ?? Self.defaultDisplaySide
        let task: Task<Workspace, any Error>
        if let existing = open[entry.id] {
            task = existing
        } else {
            let (settings, detector) = (self.settings, self.detector)
            task = Task { try await Background.run { try Workspace(entry: entry, settings: settings, detector: detector, displaySide: side) } }
            open[entry.id] = task
        }
        recent.removeAll { $0 == entry.id }
        recent.append(entry.id)
        while recent.count > capacity { open[recent.removeFirst()] = nil }
        do {
            let workspace = try await task.value
            if let displaySide { try await Background.run { try workspace.resize(displaySide: displaySide) } }
            return workspace
        } catch {
            if open[entry.id] == task { open[entry.id] = nil }
            recent.removeAll { $0 == entry.id }
            throw error
        }
    }

    /// Draws every style once on a small grey square, in the background as the server starts:
    /// what styles make once per process (pencil's and charcoal's paper grain) is then ready
    /// before the first face is styled, which would otherwise wait ~0.2 s for it.
    static func warmUp(registry: FilterRegistry = .standard) {
        Task.detached(priority: .background) {
            try? await Background.run {
                let square = try VipsImage.solid(width: 160, height: 160, pixel: [128, 128, 128])
                let box = FaceBox(x: 40, y: 30, width: 80, height: 100)
                for filter in registry.filters {
                    let face = StyledFace(box: box, style: try FaceStyle.named(filter.id, registry: registry))
                    _ = try FaceCompositor(registry: registry).render(square, faces: [face]).inMemory()
                }
            }
        }
    }

    /// Previews are drawn at most this large until the page says how large it shows them.
    static let defaultDisplaySide = 1600
    /// The range of sizes a page may ask for.
    static let displaySides = 320...2560
}
