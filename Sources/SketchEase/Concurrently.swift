import Dispatch
import Synchronization

/// Runs `side` on another thread while `main` runs on this one; returns both results, or
/// rethrows the first error (from `main` first).
func concurrently<A, B: Sendable>(_ main: () throws -> A, _ side: @escaping @Sendable () throws -> B) throws -> (A, B) {
    let result = Mutex<Result<B, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global(qos: .userInitiated).async {
        let value = Result { try side() }
        result.withLock { $0 = value }
        done.signal()
    }
    let mainResult = Result { try main() }
    done.wait()
    let sideResult = result.withLock { $0 }!
    return (try mainResult.get(), try sideResult.get())
}
