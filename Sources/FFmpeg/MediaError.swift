import CAV
import Foundation

/// A problem with one media file or device, phrased for the person running SketchEase: the
/// file, then why (`clip.mp4: no video stream`).
public struct MediaError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        case notFound
        case notReadable
        case empty
        /// FFmpeg recognises no media format in it.
        case notMedia(String)
        case noVideoStream
        /// A video stream whose codec this FFmpeg cannot decode (or an encoder it lacks).
        case unsupportedCodec(String)
        case tooLarge(width: Int, height: Int, limit: Int)
        case corrupt(String)
        case outputExists
        case outputNotWritable(String)
        case other(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path; self.reason = reason
    }

    public var description: String { "\(path): \(reasonText)" }

    public var reasonText: String {
        switch reason {
        case .notFound: "no such file"
        case .notReadable: "permission denied"
        case .empty: "empty file (0 bytes)"
        case .notMedia(let detail): "not a video" + (detail.isEmpty ? "" : " (\(detail))")
        case .noVideoStream: "no video stream (audio or data only)"
        case .unsupportedCodec(let codec): "unsupported codec (\(codec))"
        case .tooLarge(let w, let h, let limit): "video too large (\(w)×\(h) = \(w * h) pixels a frame, limit \(limit); see --max-pixels)"
        case .corrupt(let detail): "damaged or truncated video (\(detail))"
        case .outputExists: "output exists (use --overwrite to replace it)"
        case .outputNotWritable(let detail): "cannot write output (\(detail))"
        case .other(let detail): detail
        }
    }

    /// FFmpeg's words for an error code ("Invalid data found when processing input").
    public static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        sk_av_error_text(code, &buffer, buffer.count)
        return string(buffer)
    }

    /// Loads one of the libraries FFmpeg's start leaves out (`sk_av_register_devices`,
    /// `sk_avfilter_load`), or throws naming `path` and why the library could not be loaded.
    static func load(_ library: (UnsafeMutablePointer<CChar>?, Int) -> Int32, for path: String) throws {
        var buffer = [CChar](repeating: 0, count: 256)
        guard library(&buffer, buffer.count) != 0 else { return }
        throw MediaError(path: path, reason: .other(string(buffer)))
    }

    /// A C string FFmpeg or the shim wrote into `buffer`, up to its terminating zero.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The error codes FFmpeg spells as macros.
enum AVCode {
    static let again = sk_av_error_again()
    static let endOfFile = sk_av_error_eof()
    static let noTimestamp = sk_av_nopts()
}
