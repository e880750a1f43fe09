/// A problem with one input or output file, phrased for the person running SketchEase.
public struct PhotoError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        case notFound
        case notReadable
        case empty
        case notAnImage(String)
        case corrupt(String)
        case tooLarge(pixels: Int, limit: Int)
        case outputExists
        case outputNotWritable(String)
        case other(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path; self.reason = reason
    }

    /// One line: the file, then why.
    public var description: String { "\(path): \(reasonText)" }

    public var reasonText: String {
        switch reason {
        case .notFound: "no such file"
        case .notReadable: "permission denied"
        case .empty: "empty file (0 bytes)"
        case .notAnImage(let detail): "not an image" + (detail.isEmpty ? "" : " (\(detail))")
        case .corrupt(let detail): "damaged or truncated image (\(detail))"
        case .tooLarge(let pixels, let limit): "image too large (\(pixels) pixels, limit \(limit); see --max-pixels)"
        case .outputExists: "output exists (use --overwrite to replace it)"
        case .outputNotWritable(let detail): "cannot write output (\(detail))"
        case .other(let detail): detail
        }
    }
}
