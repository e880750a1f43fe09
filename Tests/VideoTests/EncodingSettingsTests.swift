import FFmpeg
import Testing

/// How many threads a clip's encoder gets: H.264 shares the cores with the styling, the other
/// formats keep FFmpeg's choice, and a number asked for is kept.
@Suite struct EncodingSettingsTests {
    @Test func h264GetsAQuarterOfTheCoresAndAtLeastOne() {
        #expect(EncodingSettings.defaultThreads(for: .mp4, cores: 1) == 1)
        #expect(EncodingSettings.defaultThreads(for: .mp4, cores: 2) == 1)
        #expect(EncodingSettings.defaultThreads(for: .mp4, cores: 8) == 2)
        #expect(EncodingSettings.defaultThreads(for: .mp4, cores: 16) == 4)
        #expect(EncodingSettings().threads == EncodingSettings.defaultThreads(for: .mp4))
    }

    @Test func otherFormatsKeepFFmpegsChoiceAndAskedForThreadsAreKept() {
        for format in [OutputFormat.webm, .gif, .webp] {
            #expect(EncodingSettings(format: format).threads == 0, "\(format)")
        }
        #expect(EncodingSettings(threads: 3).threads == 3)
        #expect(EncodingSettings(format: .webm, threads: 0).threads == 0)
    }
}
