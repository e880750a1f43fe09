import Foundation
import Testing
import TestSupport

/// What every run of `sketchease` loads before its first photo.
@Suite struct StartupTests {
    /// libavdevice and libavfilter are loaded only when a camera or test source or a GIF or
    /// WebP share needs them: linked, they brought ~70 libraries of their own (SDL, X11,
    /// PulseAudio, JACK, FireWire...) to every run, ~35 ms and ~16 MB before anything was done.
    /// (The dynamic loader lists what it loads at start and exits, as `ldd` asks it to.)
    @Test func capturesAndFilterGraphsAreNotLoadedAtStart() throws {
        let listed = try CLIRunner.run(["filters"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let libraries = listed.stdout.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(libraries.contains { $0.hasPrefix("libavformat.so") }, "\(listed.stdout)")
        #expect(!libraries.contains { $0.hasPrefix("libavdevice.so") || $0.hasPrefix("libavfilter.so") }, "\(libraries)")
    }
}
