import Dispatch
import Foundation

/// Runs the whole job over many photos: load, detect, sketch every face, export.
///
/// Photos are processed `jobs` at a time, each worker with its own detector. A bad photo is
/// recorded and the batch goes on.
public struct BatchRunner: Sendable {
    public var options: BatchOptions
    public var registry: FilterRegistry
    /// Makes one detector per worker.
    public var makeDetector: @Sendable () throws -> OpenCVFaceDetector
    /// Whether a photo's faces are drawn side by side (`FaceCompositor.sideBySide`): `run` turns
    /// it on when fewer photos are in flight than there are cores (one photo on its own, say).
    public var drawsFacesSideBySide = false
    /// Whether the memory detection freed (the face network's, ~100 MB for a 12 MP photo) goes
    /// back to the system before the faces are drawn: `run` turns it on when no worker has a
    /// next photo to reuse it. Kept, the drawing and the export took it over piecemeal and a
    /// 12 MP photo peaked at 250 or at 300 MB, run to run; handed back, at 246–252 MB, for ~1 %
    /// more CPU (the pages the drawing takes are faulted in afresh).
    public var handsBackDetectionMemory = false

    public init(options: BatchOptions, registry: FilterRegistry = .standard,
                makeDetector: @escaping @Sendable () throws -> OpenCVFaceDetector) {
        self.options = options; self.registry = registry; self.makeDetector = makeDetector
    }

    /// Processes `files`; `progress` is called after each photo with (done, total, entry). Once
    /// `stop` is requested no further photo is started; those in flight are finished.
    public func run(_ files: [InputFile], stop: StopRequest = StopRequest(),
                    progress: @Sendable (Int, Int, BatchReport.Entry) -> Void = { _, _, _ in }) throws -> BatchReport {
        try OutputFolder.prepare(options.outputFolder)
        // Each photo's operations are new: caching them would only pin memory between photos.
        try? VipsRuntime.setOperationCacheSize(0)
        // Each photo reuses the memory the one before it freed (see residentMemoryPerPhoto).
        try? VipsRuntime.keepFreedMemoryForReuse()
        // Photos in flight share the cores: each pipeline gets its share of libvips' threads
        // rather than every one of them trying to use all cores. (OpenCV's are left alone: see
        // shareCores.)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pool = JobRunner(jobs: options.jobs, inputs: files.count, stop: stop)
        let workers = pool.workers
        if workers > 1 { Self.shareCores(cores, among: workers) }
        var runner = self
        runner.drawsFacesSideBySide = workers < cores
        runner.handsBackDetectionMemory = files.count <= workers
        let entries = try pool.run(
            files, order: workers > 1 ? Self.largestFirst(files) : nil, prepare: makeDetector,
            work: { [runner] file, detector in
                let entry = runner.process(file, detector: detector)
                VipsRuntime.releaseFreedMemory(ifResidentAbove: workers * Self.residentMemoryPerPhoto)
                return entry
            },
            finished: { _, entry, done in progress(done, files.count, entry) },
            // Nothing left to start: the photos still in flight get that worker's share of the
            // cores for the operations they have yet to begin.
            leaving: { still in if still > 0 { Self.shareCores(cores, among: still) } })
        var report = BatchReport()
        report.entries = entries.compactMap { $0 }
        report.notStarted = files.count - report.entries.count
        return report
    }

    /// Memory a batch may keep between photos, per photo in flight. Freed memory is kept for
    /// the next photo to reuse (a 12 MP photo runs in ~190 MB, libraries included); after a
    /// larger photo the batch is above this and hands the surplus back.
    static let residentMemoryPerPhoto = 256 << 20

    /// Gives each of `workers` photos in flight its share of libvips' threads. Safe while other
    /// photos are being drawn: libvips reads the setting when it starts a pipeline.
    ///
    /// OpenCV's thread count is not touched, here or anywhere: changing it while another thread
    /// runs an OpenCV loop crashes the process (TBB's arena is torn down under that thread), and
    /// OpenCV already runs only one parallel loop at a time per process.
    private static func shareCores(_ cores: Int, among workers: Int) {
        try? VipsRuntime.setConcurrency(max(1, cores / workers))
    }

    /// The order in which parallel workers take photos: largest file first, so that the batch
    /// does not end with one worker busy on a big photo while the others have nothing left.
    /// (The report keeps the order the photos were given in.)
    static func largestFirst(_ files: [InputFile]) -> [Int] {
        let sizes = files.map { file -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        return files.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }

    /// One photo, start to finish. Never throws: every problem becomes a failed outcome.
    public func process(_ file: InputFile, detector: OpenCVFaceDetector) -> BatchReport.Entry {
        let start = DispatchTime.now()
        let output = (options.outputFolder as NSString).appendingPathComponent(file.outputName(options.export.format))
        let outcome: BatchReport.Outcome
        var stages = StageTimes()
        var flattened = false
        do {
            // The output rule first, before any work: a photo whose output would land on itself
            // or on a file SketchEase did not write is refused here, whatever the options.
            if try OutputPolicy.verdict(for: output, source: file.path, overwrite: options.export.overwrite) == .keep {
                outcome = .skipped(output: output)
            } else {
                let (faces, small, lostAlpha) = try render(file, to: output, detector: detector, stages: &stages)
                outcome = .written(output: output, faces: faces, small: small)
                flattened = lostAlpha
            }
        } catch {
            outcome = .failed(PhotoError(photo: file.path, wrapping: error))
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return BatchReport.Entry(input: file.path, relativePath: file.relativePath, outcome: outcome, seconds: seconds, stages: stages,
                                 flattened: flattened)
    }

    /// Draws one photo; returns how many faces were found, how many of those are too small
    /// to sketch well, and whether transparency was lost (a transparent photo written as JPEG).
    private func render(_ file: InputFile, to output: String, detector: OpenCVFaceDetector,
                        stages: inout StageTimes) throws -> (faces: Int, small: Int, flattened: Bool) {
        // The photo is decoded once; detection works on copies of it (a shrunk one for the
        // coarse pass, tiles at the resolution small faces need) and gives its network's
        // memory back before the faces are drawn. (Detecting on a shrink-on-load copy before
        // decoding kept the network's ~65 MB apart from the photo's, but tiles and second
        // looks need the photo's own pixels.)
        let photo = try StageTimes.measure(&stages, \.decode) {
            try Photo.load(path: file.path, pixelLimit: options.pixelLimit)
        }
        let faces = try StageTimes.measure(&stages, \.detect) {
            try detector.detect(in: photo, options: options.detection)
        }
        if handsBackDetectionMemory { VipsRuntime.releaseFreedMemory(ifResidentAbove: 0) }
        let styled = try styledFaces(for: file, detected: faces, size: photo.size)
        let compositor = FaceCompositor(registry: registry, options: options.render, sideBySide: drawsFacesSideBySide)
        let image = try StageTimes.measure(&stages, \.filter) { try compositor.render(photo.rgb, faces: styled) }
        try StageTimes.measure(&stages, \.encode) {
            try ImageExporter.write(image, alpha: photo.alpha, to: output, source: file.path, options: options.export)
            if options.compare {
                try ComparisonImage.write(original: photo.rgb, result: image, exportedTo: output, source: file.path, options: options.export)
            }
        }
        let small = faces.filter { FaceQualityThresholds().isTooSmall($0.box) }.count
        // An alpha band that is opaque everywhere loses nothing.
        var flattened = false
        if options.export.format == .jpeg, let alpha = photo.alpha { flattened = try alpha.minimum() < 255 }
        return (faces.count, small, flattened)
    }
}
