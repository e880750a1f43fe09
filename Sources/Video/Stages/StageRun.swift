import Dispatch
import Synchronization

/// What the stages of one pass over a clip share: the first failure (which stops every stage
/// by cancelling the queues between them), the time each stage spent, and the faces seen.
final class StageRun: Sendable {
    private let failure = Mutex<Error?>(nil)
    private let cancels: Mutex<[@Sendable () -> Void]> = Mutex([])
    private let times = Mutex(ClipStageTimes())
    private let counts = Mutex(FaceCounts())

    /// The tracks seen, the detector's runs and the faces drawn on frames (one per face per frame).
    struct FaceCounts: Sendable {
        var tracks = Set<Int>()
        var detections = 0
        var faceFrames = 0
    }

    /// A queue between two stages, cancelled when any stage fails.
    func queue<Element>(capacity: Int) -> BoundedQueue<Element> {
        let queue = BoundedQueue<Element>(capacity: capacity)
        cancels.withLock { $0.append(queue.cancel) }
        return queue
    }

    /// Records the first failure and stops every stage.
    func fail(_ error: Error) {
        failure.withLock { $0 = $0 ?? error }
        for cancel in cancels.withLock({ $0 }) { cancel() }
    }

    var error: Error? { failure.withLock { $0 } }

    /// Runs `body`, adding the time it took to `stage`.
    func timed<T>(_ stage: WritableKeyPath<ClipStageTimes, Double>, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { let spent = seconds(since: start); times.withLock { $0[keyPath: stage] += spent } }
        return try body()
    }

    func count(_ change: (inout FaceCounts) -> Void) { counts.withLock { change(&$0) } }

    var stageTimes: ClipStageTimes { times.withLock { $0 } }
    var faceCounts: FaceCounts { counts.withLock { $0 } }
}

/// Seconds since `start` (a `DispatchTime` in nanoseconds).
func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
