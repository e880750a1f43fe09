import Dispatch

/// Seconds spent in each stage of one photo, for `--report` and the benchmark.
public struct StageTimes: Sendable, Equatable, Codable {
    public var decode: Double = 0
    public var detect: Double = 0
    public var filter: Double = 0
    public var encode: Double = 0

    public init() {}

    /// Runs `body`, adding its duration to the stage at `keyPath`.
    static func measure<T>(_ times: inout StageTimes, _ stage: WritableKeyPath<StageTimes, Double>,
                           _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { times[keyPath: stage] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return try body()
    }
}
