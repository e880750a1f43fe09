import Foundation

/// The one rule for numbers shown to people, in the terminal, previews and JSON alike: a value
/// is rounded once, half away from zero (95.5 px is 96 px), to the precision its kind is shown
/// at, and every check a person reads about ("too small") compares the number as shown.
public enum Rounding {
    /// Whole pixels: box positions and sizes, moves.
    public static func pixels(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int(value.rounded(.toNearestOrAwayFromZero))
    }

    /// `value` rounded to `places` decimals (JSON: coordinates to 1, scores to 3).
    public static func decimals(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// `value` as text with exactly `places` decimals, rounded by the same rule ("0.89").
    public static func text(_ value: Double, places: Int) -> String {
        String(format: "%.\(places)f", decimals(value, places))
    }

    /// "96×123".
    public static func size(_ box: FaceBox) -> String { "\(pixels(box.width))×\(pixels(box.height))" }

    /// "209, 157": the top-left corner.
    public static func corner(_ box: FaceBox) -> String { "\(pixels(box.x)), \(pixels(box.y))" }

    /// A confidence as shown in tables and reports: two decimals.
    public static func score(_ value: Double) -> String { text(value, places: 2) }
}
