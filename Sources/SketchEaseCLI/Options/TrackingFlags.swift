import ArgumentParser
import Video

/// How faces are followed through a clip.
struct TrackingFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds a face may go unseen (turned away, hidden) and keep its style.", valueName: "seconds"))
    var maxMiss: Double = TrackerSettings().maxMiss

    @Option(help: ArgumentHelp("Seconds a style takes to fade in as a face appears and out as it leaves.", valueName: "seconds"))
    var fade: Double = TrackerSettings().fade

    @Option(help: ArgumentHelp(
        "Run the detector on every n-th frame (0 = about three times a second).",
        discussion: "Faces are followed between detections; 1 detects on every frame (slower)."))
    var detectEvery: Int = 0

    func validate() throws {
        guard (0...10).contains(maxMiss) else { throw ValidationError("--max-miss must be 0...10 seconds") }
        guard (0...5).contains(fade) else { throw ValidationError("--fade must be 0...5 seconds") }
        guard (0...100).contains(detectEvery) else { throw ValidationError("--detect-every must be 0...100") }
    }

    var settings: TrackerSettings {
        TrackerSettings(maxMiss: maxMiss, fade: fade, detectEvery: detectEvery)
    }
}
