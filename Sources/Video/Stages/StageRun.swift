import Dispatch
import Foundation
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
        var carriedFaceFrames = 0
    }

    private let running = DispatchGroup()

    /// Runs `body` (one stage, or one of its workers) on a thread of its own. Stages block on
    /// their queues for as long as the clip lasts: on Dispatch's shared pool (as wide as the
    /// cores) the style workers waited for threads the pool adds only once a second while the
    /// decode and track stages held its two, which cost 0.5-2 s a clip.
    func start(_ body: @escaping @Sendable () -> Void) {
        running.enter()
        let running = self.running
        Thread.detachNewThread {
            body()
            running.leave()
        }
    }

    /// Waits for every stage started with `start` to end.
    func wait() { running.wait() }

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
