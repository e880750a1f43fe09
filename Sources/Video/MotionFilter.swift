/// A constant-velocity Kalman filter over one coordinate (a box centre's x, a width...) with
/// fixed-lag Rauch-Tung-Striebel smoothing.
///
/// It steps once per frame (any time step, so variable frame rates are handled) and takes a
/// measurement on the frames where the detector saw the face. `smoothed(at:)` runs the
/// backward pass from the newest step to an older one: the estimate there uses measurements
/// on both sides, so a moving face's box follows it without lagging and noise averages out.
struct MotionFilter: Sendable {
    /// Position and velocity, and their covariance [p_pp, p_pv, p_vv].
    struct State: Sendable {
        var position: Double, velocity: Double
        var pp: Double, pv: Double, vv: Double
    }

    private struct Step: Sendable {
        var frame: Int
        var dt: Double
        var predicted: State
        var filtered: State
    }

    /// How fast velocity may change: the white-noise acceleration's strength (units/s² ~).
    var acceleration: Double
    private var steps: [Step] = []

    /// Starts at a first measurement, at rest, with `noise` its standard deviation.
    init(frame: Int, measurement: Double, noise: Double, acceleration: Double) {
        self.acceleration = acceleration
        let start = State(position: measurement, velocity: 0, pp: noise * noise, pv: 0, vv: pow2(acceleration * 0.5))
        steps = [Step(frame: frame, dt: 0, predicted: start, filtered: start)]
    }

    var newest: State { steps[steps.count - 1].filtered }
    /// How many steps it holds (for the tests: a track's memory).
    var heldSteps: Int { steps.count }
    var newestFrame: Int { steps[steps.count - 1].frame }
    var oldestFrame: Int { steps[0].frame }

    /// The state predicted `dt` seconds after the newest step, without stepping.
    func predicted(after dt: Double) -> State { Self.predict(newest, dt: dt, q: acceleration) }

    /// Steps to `frame`, `dt` seconds after the previous step, with the measurements there are:
    /// a position (a detection) and a velocity (motion measured between frames).
    mutating func step(frame: Int, dt: Double, measurement: Double?, noise: Double,
                       velocity: Double? = nil, velocityNoise: Double = 0) {
        let predicted = Self.predict(newest, dt: dt, q: acceleration)
        var s = predicted
        if let z = measurement {
            let r = noise * noise
            let sum = s.pp + r
            let kp = s.pp / sum, kv = s.pv / sum
            let innovation = z - s.position
            s = State(position: s.position + kp * innovation, velocity: s.velocity + kv * innovation,
                      pp: (1 - kp) * s.pp, pv: (1 - kp) * s.pv, vv: s.vv - kv * s.pv)
        }
        if let z = velocity {
            let r = velocityNoise * velocityNoise
            let sum = s.vv + r
            let kp = s.pv / sum, kv = s.vv / sum
            let innovation = z - s.velocity
            s = State(position: s.position + kp * innovation, velocity: s.velocity + kv * innovation,
                      pp: s.pp - kp * s.pv, pv: (1 - kv) * s.pv, vv: (1 - kv) * s.vv)
        }
        steps.append(Step(frame: frame, dt: dt, predicted: predicted, filtered: s))
    }

    /// The smoothed state at `frame` (between the oldest and newest steps), given every
    /// measurement up to the newest step.
    func smoothed(at frame: Int) -> State? {
        guard let target = steps.lastIndex(where: { $0.frame <= frame }), steps[target].frame == frame else { return nil }
        var next = steps[steps.count - 1].filtered
        var k = steps.count - 2
        while k >= target {
            let s = steps[k], after = steps[k + 1]
            // C = P_filtered(k) F(dt)ᵀ P_predicted(k+1)⁻¹
            let dt = after.dt
            // P_f Fᵀ = [[pp + dt pv, pv], [pv + dt vv, vv]]
            let a11 = s.filtered.pp + dt * s.filtered.pv, a12 = s.filtered.pv
            let a21 = s.filtered.pv + dt * s.filtered.vv, a22 = s.filtered.vv
            let p = after.predicted
            let det = p.pp * p.vv - p.pv * p.pv
            guard abs(det) > 1e-12 else { next = s.filtered; k -= 1; continue }
            let i11 = p.vv / det, i12 = -p.pv / det, i22 = p.pp / det
            let c11 = a11 * i11 + a12 * i12, c12 = a11 * i12 + a12 * i22
            let c21 = a21 * i11 + a22 * i12, c22 = a21 * i12 + a22 * i22
            let dp = next.position - p.position, dv = next.velocity - p.velocity
            next = State(position: s.filtered.position + c11 * dp + c12 * dv,
                         velocity: s.filtered.velocity + c21 * dp + c22 * dv,
                         pp: s.filtered.pp, pv: s.filtered.pv, vv: s.filtered.vv)
            k -= 1
        }
        return next
    }

    /// Forgets the steps before `frame` (already emitted); keeps at least one.
    mutating func forget(before frame: Int) {
        guard let first = steps.firstIndex(where: { $0.frame >= frame }), first > 0 else { return }
        steps.removeFirst(min(first, steps.count - 1))
    }

    private static func predict(_ s: State, dt: Double, q: Double) -> State {
        guard dt > 0 else { return s }
        let q2 = q * q
        let pp = s.pp + 2 * dt * s.pv + dt * dt * s.vv + q2 * dt * dt * dt / 3
        let pv = s.pv + dt * s.vv + q2 * dt * dt / 2
        let vv = s.vv + q2 * dt
        return State(position: s.position + dt * s.velocity, velocity: s.velocity, pp: pp, pv: pv, vv: vv)
    }
}

private func pow2(_ x: Double) -> Double { x * x }
