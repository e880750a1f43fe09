import Foundation

/// Identifies a source photo's content: its size and a 64-bit FNV-1a hash of its bytes.
///
/// A session remembers this so it is never re-applied to a different or changed photo.
public struct SourceFingerprint: Sendable, Equatable, Codable {
    public var size: Int
    /// "fnv1a64:<16 hex digits>"
    public var hash: String

    public static func of(file path: String) throws -> SourceFingerprint {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw PhotoError(path: path, reason: FileManager.default.fileExists(atPath: path) ? .notReadable : .notFound)
        }
        let h = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in FNV1a.of(raw) }
        let hex = String(h, radix: 16)
        return SourceFingerprint(size: data.count, hash: "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex)
    }
}
