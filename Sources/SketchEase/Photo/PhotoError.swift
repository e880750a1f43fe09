/// A problem with one input or output file, phrased for the person running SketchEase.
public struct PhotoError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        case notFound
        case notReadable
        case empty
        case notAnImage(String)
        case corrupt(String)
        case tooLarge(pixels: Int, limit: Int)
        /// Within the pixel limit, but so many channels or such wide samples that decoding
        /// would take more memory than a photo at the limit (`limit` bytes).
        case tooMuchData(channels: Int, bytesPerSample: Int, bytes: Int, limit: Int)
        case outputExists
        /// The output would be written over this very photo (the path given).
        case outputIsInput(String)
        /// The output path holds a file SketchEase did not write: it is never replaced.
        case notOurOutput
        case outputNotWritable(String)
        case other(String)
        /// A problem with the result written from this photo (the path given), said of the photo.
        indirect case withOutput(String, Reason)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path; self.reason = reason
    }

    /// Any error met while working on `path`: a `PhotoError` as it is, anything else as a
    /// problem with that file, in its own words.
    public init(path: String, wrapping error: Error) {
        self = error as? PhotoError ?? PhotoError(path: path, reason: .other("\(error)"))
    }

    /// A problem met while working on the photo at `path`, always said of that photo: one about
    /// another file (its result: "exists and was not written by SketchEase") names that file
    /// after it, so the line leads with the photo that failed, never only its output.
    public init(photo path: String, wrapping error: Error) {
        let e = PhotoError(path: path, wrapping: error)
        self = e.path == path ? e : PhotoError(path: path, reason: .withOutput(e.path, e.reason))
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
        case .tooMuchData(let channels, let sampleBytes, let bytes, let limit):
            "image too large to decode (\(channels) channels of \(sampleBytes * 8)-bit samples: "
                + "\(Self.byteCount(bytes)), limit \(Self.byteCount(limit)); see --max-pixels)"
        case .outputExists: "output exists (use --overwrite to replace it)"
        case .outputIsInput(let output): "its output \(output) would replace the photo itself (choose another --out)"
        case .notOurOutput: "exists and was not written by SketchEase, so it is never replaced (move it or choose another --out)"
        case .outputNotWritable(let detail): "cannot write output (\(detail))"
        case .other(let detail): detail
        case .withOutput(let output, let inner):
            switch inner {
            case .outputNotWritable(let detail): "cannot write its result \(output) (\(detail))"
            case .outputIsInput: PhotoError(path: output, reason: inner).reasonText
            case .outputExists: "its result \(output) exists (use --overwrite to replace it)"
            case .notOurOutput: "its result \(output) " + PhotoError(path: output, reason: inner).reasonText
            default: "its result \(output): " + PhotoError(path: output, reason: inner).reasonText
            }
        }
    }

    /// A size for messages: "1.6 GB", "800 MB", "98 KB", "512 bytes".
    public static func byteCount(_ bytes: Int) -> String {
        let units: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "KB")]
        guard let (scale, unit) = units.first(where: { Double(bytes) >= $0.0 }) else { return "\(bytes) bytes" }
        let value = Double(bytes) / scale
        return (value < 10 && value != value.rounded() ? String(format: "%.1f", value) : "\(Int(value.rounded()))") + " " + unit
    }
}
