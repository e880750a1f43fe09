import Foundation

/// An embedded ICC colour profile, read from its bytes (ICC.1 layout: a 128-byte header, a
/// tag table, tagged elements; all numbers big-endian).
///
/// SketchEase reads just enough to answer one question: does the profile describe sRGB? Most
/// camera and phone JPEGs that carry a profile carry sRGB IEC61966-2.1 itself, and converting
/// sRGB to sRGB through lcms is an identity that cost about an eighth of a batch's CPU time. A
/// profile counts as sRGB only if it is an RGB matrix/TRC profile (no lookup tables, which
/// would take precedence in a transform) whose three primaries and three tone curves match
/// sRGB's; anything else, or anything unreadable, goes through the full transform.
struct ICCProfile {
    /// The header's data colour space signature ("RGB ", "CMYK", "GRAY").
    let colourSpace: String
    /// The profile connection space ("XYZ " or "Lab ").
    let connectionSpace: String
    private let bytes: [UInt8]
    private let tags: [String: Range<Int>]

    /// Parses the header and tag table; nil when `bytes` is not a well-formed profile.
    init?(bytes: [UInt8]) {
        guard bytes.count >= 132, ICCProfile.signature(bytes, at: 36) == "acsp" else { return nil }
        let count = Int(ICCProfile.uint32(bytes, at: 128))
        guard count <= (bytes.count - 132) / 12 else { return nil }
        var tags: [String: Range<Int>] = [:]
        for index in 0..<count {
            let entry = 132 + 12 * index
            let offset = Int(ICCProfile.uint32(bytes, at: entry + 4))
            let size = Int(ICCProfile.uint32(bytes, at: entry + 8))
            guard offset >= 128, size >= 8, offset <= bytes.count, size <= bytes.count - offset else { return nil }
            tags[ICCProfile.signature(bytes, at: entry)] = offset..<(offset + size)
        }
        self.bytes = bytes
        self.tags = tags
        self.colourSpace = ICCProfile.signature(bytes, at: 16)
        self.connectionSpace = ICCProfile.signature(bytes, at: 20)
    }

    /// True when converting through this profile to sRGB would leave 8-bit pixels as they are:
    /// an RGB matrix/TRC profile with sRGB's primaries (within 0.002 in D50 XYZ, the rounding
    /// of published sRGB profiles) and tone curves that put every 8-bit level back on itself.
    var describesSRGB: Bool {
        guard colourSpace == "RGB ", connectionSpace == "XYZ " else { return false }
        // Lookup-table transforms (A2B0..2, D2B0..3) take precedence over the matrix in lcms.
        guard !tags.keys.contains(where: { $0.hasPrefix("A2B") || $0.hasPrefix("D2B") }) else { return false }
        let colorants = ["rXYZ", "gXYZ", "bXYZ"].map(xyz)
        for (found, expected) in zip(colorants, ICCProfile.sRGBColorants) {
            guard let found, zip(found, expected).allSatisfy({ abs($0 - $1) <= 0.002 }) else { return false }
        }
        return ["rTRC", "gTRC", "bTRC"].allSatisfy { curve($0)?.keepsEightBitSRGBLevels == true }
    }

    // MARK: Tagged elements

    /// An XYZType tag as (X, Y, Z).
    private func xyz(_ tag: String) -> [Double]? {
        guard let range = tags[tag], range.count >= 20, ICCProfile.signature(bytes, at: range.lowerBound) == "XYZ " else {
            return nil
        }
        return (0..<3).map { ICCProfile.s15Fixed16(bytes, at: range.lowerBound + 8 + 4 * $0) }
    }

    /// A curveType or parametricCurveType tag.
    private func curve(_ tag: String) -> ToneCurve? {
        guard let range = tags[tag], range.count >= 12 else { return nil }
        let start = range.lowerBound
        switch ICCProfile.signature(bytes, at: start) {
        case "curv":
            let count = Int(ICCProfile.uint32(bytes, at: start + 8))
            guard count <= (range.count - 12) / 2 else { return nil }
            let entries = (0..<count).map { Double(ICCProfile.uint16(bytes, at: start + 12 + 2 * $0)) }
            switch count {
            case 0: return .gamma(1)
            case 1: return .gamma(entries[0] / 256)
            default: return .table(entries.map { $0 / 65535 })
            }
        case "para":
            let function = Int(ICCProfile.uint16(bytes, at: start + 8))
            let needed = [1, 3, 4, 5, 7]
            guard function < needed.count, range.count >= 12 + 4 * needed[function] else { return nil }
            let p = (0..<needed[function]).map { ICCProfile.s15Fixed16(bytes, at: start + 12 + 4 * $0) }
            return .parametric(function: function, parameters: p)
        default:
            return nil
        }
    }

    // MARK: Reading bytes

    private static func uint32(_ b: [UInt8], at i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func uint16(_ b: [UInt8], at i: Int) -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }

    private static func s15Fixed16(_ b: [UInt8], at i: Int) -> Double { Double(Int32(bitPattern: uint32(b, at: i))) / 65536 }

    private static func signature(_ b: [UInt8], at i: Int) -> String {
        String(decoding: b[i..<(i + 4)], as: UTF8.self)
    }

    /// sRGB's red, green and blue primaries, adapted to the D50 connection space (Bradford).
    private static let sRGBColorants: [[Double]] = [
        [0.4360747, 0.2225045, 0.0139322],
        [0.3850649, 0.7168786, 0.0971045],
        [0.1430804, 0.0606169, 0.7141733],
    ]
}

/// A profile's tone curve: encoded value (0...1) to linear light (0...1).
enum ToneCurve {
    case gamma(Double)
    /// Evenly spaced samples, linearly interpolated.
    case table([Double])
    /// ICC parametric function types 0...4 with their parameters (g, a, b, c, d, e, f).
    case parametric(function: Int, parameters: [Double])

    func linear(_ x: Double) -> Double {
        switch self {
        case .gamma(let g):
            return pow(x, g)
        case .table(let samples):
            let position = x * Double(samples.count - 1)
            let low = min(Int(position), samples.count - 2)
            let t = position - Double(low)
            return samples[low] * (1 - t) + samples[low + 1] * t
        case .parametric(let function, let p):
            let g = p[0]
            switch function {
            case 0: return pow(x, g)
            case 1: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) : 0
            case 2: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) + p[3] : p[3]
            case 3: return x >= p[4] ? pow(p[1] * x + p[2], g) : p[3] * x
            default: return x >= p[4] ? pow(p[1] * x + p[2], g) + p[5] : p[3] * x + p[6]
            }
        }
    }

    /// True when, for every 8-bit level, this curve followed by sRGB's inverse curve lands back
    /// within half a level: converting through it to sRGB would give the same 8-bit pixels.
    var keepsEightBitSRGBLevels: Bool {
        (0...255).allSatisfy { level in
            let y = max(0, min(1, linear(Double(level) / 255)))
            let encoded = y <= 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055
            return abs(encoded * 255 - Double(level)) <= 0.5
        }
    }
}
