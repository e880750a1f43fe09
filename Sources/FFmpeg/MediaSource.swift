/// Where a clip comes from: a file, or a capture device through FFmpeg's device library.
public struct MediaSource: Sendable, Equatable {
    public var path: String
    /// An FFmpeg input format to use instead of probing: "v4l2" for a camera, "lavfi" for a
    /// generated test source.
    public var format: String?
    /// Options for that input ("framerate": "30", "video_size": "1280x720").
    public var options: [String: String]

    public init(path: String, format: String? = nil, options: [String: String] = [:]) {
        self.path = path; self.format = format; self.options = options
    }

    /// A live source (a device or a generator): its timestamps start at 0 in the output.
    public var isLive: Bool { format != nil }
}
