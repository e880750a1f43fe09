import FFmpeg
import SketchEase

/// Everything about how one clip becomes another.
public struct ClipOptions: Sendable {
    public var detection: DetectionOptions
    public var tracking: TrackerSettings
    public var render: RenderOptions
    public var encoding: EncodingSettings
    public var styles: TrackStyles
    public var overwrite: Bool
    /// Frames above this many pixels are refused (0 = no limit).
    public var pixelLimit: Int
    /// Stop after this many seconds of input (a live recording); nil = to the end.
    public var duration: Double?
    /// Frames each queue between stages holds, at most (fewer where frames are large:
    /// `ClipRenderer.queueBytes`). Six, not two: with two, the style workers went without
    /// frames while the tracker ran the face network (every tenth frame) and a core stood idle
    /// 7 % of the time; six keep both busy (20 s of the bench clip in pencil, 22.6-22.9 s ->
    /// 21.3 s) for ~17 MB more at 1080p (decoded frames, 3 MB each).
    public var queueDepth: Int
    /// Threads drawing styles (nil = one per core).
    public var styleWorkers: Int?

    public init(detection: DetectionOptions = .init(), tracking: TrackerSettings = .init(), render: RenderOptions = .init(),
                encoding: EncodingSettings = .init(), styles: TrackStyles, overwrite: Bool = false,
                pixelLimit: Int = Photo.defaultPixelLimit, duration: Double? = nil, queueDepth: Int = 6, styleWorkers: Int? = nil) {
        self.detection = detection; self.tracking = tracking; self.render = render; self.encoding = encoding
        self.styles = styles; self.overwrite = overwrite; self.pixelLimit = pixelLimit; self.duration = duration
        self.queueDepth = queueDepth; self.styleWorkers = styleWorkers
    }
}
