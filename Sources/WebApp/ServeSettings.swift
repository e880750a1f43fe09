import Foundation
import SketchEase

/// What `sketchease serve` was asked for: the folders it serves, where it writes, how it
/// listens and how photos are detected, drawn and checked.
public struct ServeSettings: Sendable {
    /// Folders (walked recursively) and single photos shown in the strip.
    public var inputs: [String]
    /// Where exports, sessions and uploads go (uploads in `uploads/` inside it).
    public var outputFolder: String
    /// Addresses to listen on: loopback only unless the person asks otherwise.
    public var hosts: [String]
    /// A port, or nil for the preferred port when it is free (else any free one); 0 = any.
    public var port: Int?
    /// The secret every request must carry; new for every run.
    public var token: String
    public var detection: DetectionOptions
    public var render: RenderOptions
    /// How exports are written (PNG by default, as `edit` and `apply` write them).
    public var export: ExportOptions
    /// As `batch`: photos (and uploads) above this many pixels are refused from the header.
    public var pixelLimit: Int
    /// Uploads larger than this many bytes are refused.
    public var uploadLimit: Int
    /// A Live recording (an upload in pieces) may hold this many bytes in all: twenty uploads'
    /// worth (2 GB by default, hours at a camera's bit rate).
    public var recordingLimit: Int { uploadLimit.multipliedReportingOverflow(by: 20).partialValue }
    /// The style a face gets when one is picked without choosing (the first click), and every
    /// face live until it is tapped and given another.
    public var defaultStyle: FaceStyle
    /// Open the page straight into Live (the camera, styled as it films).
    public var live = false

    public static let loopback = ["127.0.0.1", "::1"]
    /// Tried first when no port is given, so the address stays the same from run to run.
    public static let preferredPort = 8765
    public static let defaultUploadLimit = 100_000_000

    public init(inputs: [String], outputFolder: String, hosts: [String] = loopback, port: Int? = nil,
                token: String = ServeSettings.newToken(), detection: DetectionOptions = .init(),
                render: RenderOptions = .init(), export: ExportOptions = .init(overwrite: true),
                pixelLimit: Int = Photo.defaultPixelLimit, uploadLimit: Int = defaultUploadLimit,
                defaultStyle: FaceStyle) {
        self.inputs = inputs; self.outputFolder = outputFolder; self.hosts = hosts; self.port = port
        self.token = token; self.detection = detection; self.render = render; self.export = export
        self.pixelLimit = pixelLimit; self.uploadLimit = uploadLimit; self.defaultStyle = defaultStyle
    }

    /// 128 random bits as 32 hex digits, from the system's secure generator.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Where uploads and camera pictures are written.
    var uploadFolder: String { (outputFolder as NSString).appendingPathComponent("uploads") }
}
