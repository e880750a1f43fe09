import Foundation

/// The tone of a pencil drawing (Lu, Xu & Jia 2012): a photo's grey levels mapped, by histogram
/// matching, onto the distribution of tones in real pencil drawings: a large share of bright
/// paper (a steep exponential at white), a flat band of middle tones where the pencil shades,
/// and a few darks (a narrow gaussian), in the proportions `bright`, `middle`, `dark`.
public struct PencilTone: Sendable, Equatable {
    public var bright: Double, middle: Double, dark: Double

    public init(bright: Double = 52, middle: Double = 37, dark: Double = 11) {
        self.bright = bright; self.middle = middle; self.dark = dark
    }

    /// The target density over grey levels 0...255 (sums to 1).
    func density() -> [Double] {
        let levels = (0..<256).map(Double.init)
        let brightLayer = levels.map { exp(-(255 - $0) / 9) / 9 }
        let middleLayer = levels.map { (105...225).contains($0) ? 1.0 / 120 : 0 }
        let darkLayer = levels.map { exp(-($0 - 90) * ($0 - 90) / (2 * 11 * 11)) / (sqrt(2 * .pi) * 11) }
        let p = (0..<256).map { bright * brightLayer[$0] + middle * middleLayer[$0] + dark * darkLayer[$0] }
        let total = p.reduce(0, +)
        return p.map { $0 / total }
    }

    /// The target's cumulative share at each grey level (256, rising to 1).
    func cumulative() -> [Double] {
        var sum = 0.0
        return density().map { sum += $0; return sum }
    }

    /// The lookup table taking each grey level of an image with this `histogram` (256 counts)
    /// to the level with the same cumulative share under the pencil distribution.
    public func lookupTable(for histogram: [Int]) -> [UInt8] {
        let total = Double(max(1, histogram.reduce(0, +)))
        let target = cumulative()
        var cumulative = 0.0
        return histogram.map { count in
            // The level's middle share, so a level holding every pixel maps to the middle.
            let share = (cumulative + Double(count) / 2) / total
            cumulative += Double(count)
            return UInt8(target.firstIndex { $0 >= share } ?? 255)
        }
    }
}
