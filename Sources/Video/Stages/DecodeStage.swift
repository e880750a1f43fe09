import FFmpeg
import SketchEase

/// Decode: the clip's frames and other packets, in file order, until its end, `duration`
/// seconds (`--duration` on a recording) or a stop request (Ctrl-C on a recording: what was
/// read is finished into a complete file).
struct DecodeStage: Sendable {
    let reader: MediaReader
    let duration: Double?
    let stop: StopRequest

    func run(into decoded: BoundedQueue<MediaItem>, _ run: StageRun) {
        defer { decoded.close() }
        do {
            while true {
                if stop.isRequested { reader.requestStop() }
                guard let item = try run.timed(\.decode, { try reader.next() }) else { return }
                if case .frame(let f) = item, let duration, f.time >= duration {
                    reader.requestStop()
                    continue
                }
                guard decoded.push(item) else { return }
            }
        } catch { run.fail(error) }
    }
}
