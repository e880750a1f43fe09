import Foundation

/// Casiez, Roussel & Vogel's 1€ filter (CHI 2012): a low-pass filter whose cutoff rises with
/// the signal's speed, for values measured live and shown at once. A still face's box keeps
/// still (the detector's few pixels of wobble are smoothed away) and a moving one follows
/// with little lag (the faster it moves, the less it is smoothed). It looks only at what came
/// before: nothing is held back.
public struct OneEuroFilter: Sendable {
    /// The cutoff (Hz) when the value stands still: lower smooths more.
    public var minCutoff: Double
    /// How fast the cutoff rises with the value's speed (per unit of value per second).
    public var beta: Double
    /// The cutoff (Hz) of the speed's own smoothing.
    public var speedCutoff: Double
    private var last: (value: Double, speed: Double, time: Double)?

    public init(minCutoff: Double, beta: Double, speedCutoff: Double = 1) {
        self.minCutoff = minCutoff; self.beta = beta; self.speedCutoff = speedCutoff
    }

    /// The smoothing factor of a first-order low-pass filter at `cutoff` Hz over `dt` seconds.
    static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    /// The filtered value of `value` measured at `time` (seconds, increasing). A time that does
    /// not move forward restarts the filter at the value.
    public mutating func filter(_ value: Double, at time: Double) -> Double {
        guard let last, time > last.time else {
            self.last = (value, 0, time)
            return value
        }
        let dt = time - last.time
        let speed = last.speed + Self.alpha(cutoff: speedCutoff, dt: dt) * ((value - last.value) / dt - last.speed)
        let cutoff = minCutoff + beta * abs(speed)
        let filtered = last.value + Self.alpha(cutoff: cutoff, dt: dt) * (value - last.value)
        self.last = (filtered, speed, time)
        return filtered
    }
}
