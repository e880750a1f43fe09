import Foundation

/// Which video container a file is, from its first bytes, so that a clip given where a photo is
/// expected is named for what it is. HEIF and AVIF photos share MP4's box structure and are
/// told apart by their brand.
enum VideoContainer {
    /// "MP4/QuickTime", "Matroska/WebM", "AVI", "MPEG" or "FLV"; nil for anything else.
    static func at(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count >= 4 else { return nil }
        return kind(of: [UInt8](head))
    }

    static func kind(of b: [UInt8]) -> String? {
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            let stills = ["heic", "heix", "heim", "heis", "mif1", "msf1", "avif", "avis"]
            return stills.contains(brand) ? nil : "MP4/QuickTime"
        }
        if b.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "Matroska/WebM" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("AVI ".utf8) { return "AVI" }
        if b.starts(with: [0x00, 0x00, 0x01, 0xBA]) { return "MPEG" }
        if b.starts(with: Array("FLV".utf8)) { return "FLV" }
        return nil
    }
}
