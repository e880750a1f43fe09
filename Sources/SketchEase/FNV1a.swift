/// The 64-bit FNV-1a hash: the same value for the same input on every machine and version (a
/// source photo's bytes, a shard's file path, a clip's boxes), unlike Swift's `Hasher`.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Takes in one more element (a byte, or any value that fits in 64 bits).
    public mutating func add(_ element: UInt64) {
        value = (value ^ element) &* 0x100_0000_01b3
    }

    /// The hash of `bytes`.
    public static func of<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = FNV1a()
        for byte in bytes { hash.add(UInt64(byte)) }
        return hash.value
    }
}
