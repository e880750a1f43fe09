import Foundation
import SketchEase
import Synchronization
import Testing

@Suite struct JobRunnerTests {
    struct Failed: Error {}

    @Test func outcomesComeBackInTheInputsOrderWhateverOrderTheyRanIn() throws {
        let ran = Mutex<[Int]>([])
        let pool = JobRunner(jobs: 3, inputs: 8)
        #expect(pool.workers == 3)
        let outcomes = try pool.run(Array(0..<8), order: [7, 6, 5, 4, 3, 2, 1, 0], prepare: { "worker" }) { item, context in
            ran.withLock { $0.append(item) }
            return "\(context) \(item * item)"
        }
        #expect(outcomes == (0..<8).map { "worker \($0 * $0)" })
        #expect(ran.withLock { $0 }.sorted() == Array(0..<8))
    }

    @Test func eachWorkerPreparesItsContextOnce() throws {
        let prepared = Atomic<Int>(0)
        let pool = JobRunner(jobs: 2, inputs: 10)
        let outcomes = try pool.run(Array(0..<10), prepare: { prepared.add(1, ordering: .relaxed).newValue }) { _, context in context }
        #expect(prepared.load(ordering: .relaxed) == 2)
        #expect(Set(outcomes.compactMap { $0 }).isSubset(of: [1, 2]))
        #expect(JobRunner(jobs: 4, inputs: 1).workers == 1 && JobRunner(jobs: 4, inputs: 0).workers == 1)
    }

    @Test func afterAStopRequestNothingMoreIsStarted() throws {
        let stop = StopRequest()
        let pool = JobRunner(jobs: 1, inputs: 5, stop: stop)
        let heard = Mutex<[Int]>([])
        let outcomes = try pool.run(Array(0..<5), prepare: {}, work: { item, _ in
            if item == 1 { stop.request() }
            return item
        }, finished: { index, _, done in heard.withLock { $0.append(index * 10 + done) } })
        #expect(outcomes == [0, 1, nil, nil, nil])
        #expect(heard.withLock { $0 } == [1, 12])
    }

    @Test func aWorkerThatCannotStartLeavesTheRestToTheOthersAndTheErrorIsThrown() throws {
        let attempts = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let pool = JobRunner(jobs: 2, inputs: 6)
        #expect(throws: Failed.self) {
            _ = try pool.run(Array(0..<6), prepare: {
                if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Failed() }
            }, work: { _, _ in done.add(1, ordering: .relaxed).newValue })
        }
        #expect(done.load(ordering: .relaxed) == 6)
    }

    @Test func leavingWorkersSayHowManyAreStillBusy() throws {
        let heard = Mutex<[Int]>([])
        _ = try JobRunner(jobs: 2, inputs: 4).run(Array(0..<4), prepare: {}, work: { item, _ in item },
                                                 leaving: { still in heard.withLock { $0.append(still) } })
        #expect(heard.withLock { $0 }.sorted() == [0, 1])
    }
}
