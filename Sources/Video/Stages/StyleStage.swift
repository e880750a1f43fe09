import Dispatch
import FFmpeg
import Foundation
import SketchEase
import Synchronization
import Vips

/// Style: each frame's faces drawn (`draw`), on `workers` threads side by side (frames are
/// independent once tracked); what `draw` returns (a side-by-side comparison frame) goes on
/// with the frame. Frames leave in the order they finish, numbered for the encoder to restore.
struct StyleStage: Sendable {
    typealias Draw = @Sendable (VideoFrame, TrackedFrame, VipsImage?, FrameCarry) throws -> VideoFrame?
    let workers: Int
    let draw: Draw

    /// Starts the workers (`run.start`); the last to finish closes `styled`.
    func start(from tracked: BoundedQueue<(Int, TrackedItem)>, into styled: BoundedQueue<(Int, MediaItem, VideoFrame?)>,
               _ run: StageRun) {
        // Frames in flight share the cores: one libvips thread each.
        if workers > 1 { try? VipsRuntime.setConcurrency(1) }
        let running = Atomic<Int>(workers)
        let draw = self.draw
        for _ in 0..<workers {
            run.start {
                defer { if running.subtract(1, ordering: .relaxed).newValue == 0 { styled.close() } }
                do {
                    while let (n, item) = tracked.pop() {
                        switch item {
                        case .packet(let p):
                            guard styled.push((n, .packet(p), nil)) else { return }
                        case .frame(let frame, let faces, let picture, let carry):
                            let companion = try run.timed(\.style) { try draw(frame, faces, picture, carry) }
                            guard styled.push((n, .frame(frame), companion)) else { return }
                        }
                    }
                } catch { run.fail(error) }
            }
        }
    }
}
