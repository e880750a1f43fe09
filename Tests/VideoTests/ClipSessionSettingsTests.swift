import FFmpeg
import Foundation
import SketchEase
import Testing
import Video

/// A clip session keeps how its faces are followed and how it is encoded, and gives them back
/// as they were, through its file too.
@Suite struct ClipSessionSettingsTests {
    @Test func trackingAndEncodingComeBackAsTheyWere() throws {
        let tracking = TrackerSettings(maxMiss: 1.5, fade: 0.4, detectEvery: 5)
        let encoding = EncodingSettings(format: .webm, crf: 22, preset: "fast", keepMetadata: true)
        let settings = ClipSessionSettings(tracking: tracking, encoding: encoding, addedOn: ["3": 40])
        let saved = try JSONDecoder().decode(ClipSessionSettings.self, from: JSONEncoder().encode(settings))
        #expect(saved == settings)
        #expect(saved.tracking == tracking)
        #expect(saved.encoding == encoding)
        #expect(saved.addedOn == ["3": 40])
    }

    @Test func theDefaultsAreTheCommandsDefaults() {
        let settings = ClipSessionSettings(tracking: TrackerSettings())
        #expect(settings.tracking == TrackerSettings())
        #expect(settings.encoding == EncodingSettings())
        #expect(settings.format == "mp4" && settings.crf == EncodingSettings.defaultCRF && settings.preset == EncodingSettings.defaultPreset)
    }

    @Test func aFormatThisBuildDoesNotKnowIsWrittenAsMP4() {
        var settings = ClipSessionSettings(tracking: TrackerSettings())
        settings.format = "avi"
        #expect(settings.encoding.format == .mp4)
    }
}
