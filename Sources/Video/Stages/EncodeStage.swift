import FFmpeg
import SketchEase

/// Encode: the styled frames and the packets back in their order (the style workers finish out
/// of order), each written (`write`), with progress after every frame.
struct EncodeStage {
    let progress: (Int) -> Void

    /// What was written: frames, and the first frame's start and the last one's end (stream time).
    struct Written {
        var frames = 0
        var firstPts: Int64?
        var lastEnd: Int64?
    }

    func run(from styled: BoundedQueue<(Int, MediaItem, VideoFrame?)>, write: (MediaItem, VideoFrame?) throws -> Void,
             _ run: StageRun) -> Written {
        var written = Written()
        var waiting: [Int: (MediaItem, VideoFrame?)] = [:]
        var next = 0
        do {
            while let (n, arrived, companion) = styled.pop() {
                waiting[n] = (arrived, companion)
                while let (item, companion) = waiting.removeValue(forKey: next) {
                    next += 1
                    try run.timed(\.encode) { try write(item, companion) }
                    guard case .frame(let f) = item else { continue }
                    written.frames += 1
                    // Memory the stages freed (the face network's layers, styled crops) goes back
                    // to the system now and then, so a long clip's footprint stays where it began.
                    if written.frames % 256 == 0 { VipsRuntime.releaseFreedMemory(ifResidentAbove: 0) }
                    if written.firstPts == nil { written.firstPts = f.pts }
                    written.lastEnd = f.pts + f.duration
                    progress(written.frames)
                }
            }
        } catch { run.fail(error) }
        return written
    }
}
