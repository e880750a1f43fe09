import Foundation

/// Removes metadata chunks (EXIF, XMP, ICC profile) from a WebP file.
///
/// libvips 8.14.1 (Debian 12's) ignores `strip` when writing WebP and always builds and writes an
/// EXIF chunk (fixed upstream in a later 8.14 release). SketchEase promises shareable files
/// without metadata, so the chunks are taken out of the RIFF container after the write, and
/// the VP8X header's flags that announce them are cleared.
enum WebPMetadata {
    static let droppedChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]

    /// Rewrites the WebP at `path` without metadata chunks. Throws if the file is not a WebP
    /// this understands (then nothing is changed).
    static func strip(file path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let stripped = stripped(data) else {
            throw PhotoError(path: path, reason: .outputNotWritable("not a WebP file as expected"))
        }
        if stripped != data { try stripped.write(to: URL(fileURLWithPath: path)) }
    }

    /// `webp` without metadata chunks; nil when it is not a RIFF WebP container.
    static func stripped(_ webp: Data) -> Data? {
        let bytes = [UInt8](webp)
        guard bytes.count >= 12, bytes[0..<4] == Array("RIFF".utf8)[...], bytes[8..<12] == Array("WEBP".utf8)[...] else {
            return nil
        }
        var chunks: [UInt8] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count || (end == bytes.count + 1 && size & 1 == 1) else { return nil }
            var chunk = Array(bytes[offset..<min(end, bytes.count)])
            if name == "VP8X", chunk.count > 8 {
                chunk[8] &= ~UInt8(0x20 | 0x08 | 0x04)   // ICC, EXIF, XMP flags
            }
            if !droppedChunks.contains(name) { chunks += chunk }
            offset = end
        }
        let riffSize = UInt32(4 + chunks.count)
        let header = Array("RIFF".utf8) + withUnsafeBytes(of: riffSize.littleEndian, Array.init) + Array("WEBP".utf8)
        return Data(header + chunks)
    }
}
