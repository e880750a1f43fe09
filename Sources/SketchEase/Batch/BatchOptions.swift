import Foundation

/// Everything `sketchease batch` needs to know besides the inputs.
public struct BatchOptions: Sendable {
    public var outputFolder: String
    /// The style for every face (unless a plan says otherwise).
    public var style: FaceStyle
    public var detection: DetectionOptions
    public var render: RenderOptions
    public var export: ExportOptions
    /// Photos processed at once; they share the cores between them.
    public var jobs: Int
    /// Inputs with more pixels are refused (0 = no limit).
    public var pixelLimit: Int
    /// Per-photo, per-face styles; photos it does not list get `style` on every face.
    public var plan: BatchPlan? = nil
    /// Also write `name.compare.png`: the original and the result side by side.
    public var compare = false

    public init(outputFolder: String, style: FaceStyle, detection: DetectionOptions = .init(),
                render: RenderOptions = .init(), export: ExportOptions = .init(), jobs: Int = BatchOptions.defaultJobs,
                pixelLimit: Int = Photo.defaultPixelLimit) {
        self.outputFolder = outputFolder; self.style = style; self.detection = detection
        self.render = render; self.export = export; self.jobs = jobs; self.pixelLimit = pixelLimit
    }

    /// A photo per core: photos in flight use the cores better than one photo spread over all of
    /// them (its PNG compresses on one core), but no more photos at once than there are 2 GiB of
    /// memory. A 12 MP photo peaks at ~170 MB and one at the 100 MP pixel limit at ~410 MB, so
    /// even a batch of the largest leaves most of the memory to everything else.
    public static var defaultJobs: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Int(clamping: ProcessInfo.processInfo.physicalMemory >> 31)
        return max(1, min(cores, memory))
    }
}
