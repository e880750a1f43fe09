import Dispatch
import Synchronization

/// Works through many inputs (photos, clips) on a pool of workers. It owns what every such job
/// shares: how many workers run, the order inputs are taken in, each worker's own context (a
/// detector, made once when the worker starts), the stop request and the outcomes, so a job
/// gives only the work for one input.
///
/// Once `stop` is requested no further input is started; those in flight are finished. An
/// input never started has no outcome (nil), so a job can say how many are left to do.
public struct JobRunner: Sendable {
    /// Workers running side by side: `jobs`, but never more than there are inputs.
    public let workers: Int
    public let stop: StopRequest

    public init(jobs: Int, inputs: Int, stop: StopRequest = StopRequest()) {
        workers = max(1, min(jobs, inputs))
        self.stop = stop
    }

    /// Runs `work` on each of `items`, taken in `order` (indices into `items`; as given by
    /// default), with the context `prepare` makes for each worker. The outcomes come back in
    /// `items`' order, nil for an item not started. `finished` hears of each outcome as it comes
    /// (its index, the outcome, how many are done), on the worker's thread; `leaving` hears how
    /// many workers are still busy each time one finds nothing left to start.
    ///
    /// A worker whose context cannot be made starts nothing; the others go on, and the first
    /// such error is thrown once they are done.
    public func run<Item: Sendable, Context, Outcome: Sendable>(
        _ items: [Item], order: [Int]? = nil,
        prepare: @Sendable () throws -> Context,
        work: @Sendable (Item, Context) -> Outcome,
        finished: @Sendable (Int, Outcome, Int) -> Void = { _, _, _ in },
        leaving: @Sendable (Int) -> Void = { _ in }
    ) throws -> [Outcome?] {
        let order = order ?? Array(items.indices)
        let next = Atomic<Int>(0)
        let busy = Atomic<Int>(workers)
        let outcomes = Mutex<[Int: Outcome]>([:])
        let setupError = Mutex<Error?>(nil)
        let stop = self.stop
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            defer { leaving(busy.subtract(1, ordering: .relaxed).newValue) }
            let context: Context
            do { context = try prepare() } catch {
                setupError.withLock { $0 = $0 ?? error }
                return
            }
            while !stop.isRequested {
                let position = next.add(1, ordering: .relaxed).oldValue
                guard position < order.count else { return }
                let index = order[position]
                let outcome = work(items[index], context)
                let done = outcomes.withLock { table -> Int in
                    table[index] = outcome
                    return table.count
                }
                finished(index, outcome, done)
            }
        }
        if let error = setupError.withLock({ $0 }) { throw error }
        let table = outcomes.withLock { $0 }
        return items.indices.map { table[$0] }
    }
}
