import CAV
import FFmpeg
import Testing
import TestSupport

/// Reading a rectangle of a frame as RGB and writing a drawing back into it: where the
/// processor has AVX2 they go sixteen pixels at a time, and give the same bytes as the plain
/// loops, in limited and full range, for rectangles whose widths leave a tail of plain pixels.
@Suite(.serialized) struct FrameConversionTests {
    /// Grace Hopper's photo as a one-frame clip's frame (BT.601, as a frame under 720 rows is).
    static func frame(fullRange: Bool) throws -> VideoFrame {
        let clip = try TestAssets.temporaryFolder("frame-conversion") + "/grace-\(fullRange ? "full" : "limited").mp4"
        try TestClips.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "0.1", "-i", TestAssets.graceHopper,
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", fullRange ? "yuvj420p" : "yuv420p", clip])
        return try #require(try ClipRendererTests.frames(clip).first)
    }

    /// `body` with the vector paths off, then on (where the processor has them).
    static func bothWays<T>(_ body: () throws -> T) rethrows -> (plain: T, vector: T?) {
        _ = sk_frame_use_vector_instructions(0)
        defer { _ = sk_frame_use_vector_instructions(1) }
        let plain = try body()
        guard sk_frame_use_vector_instructions(1) != 0 else { return (plain, nil) }
        return (plain, try body())
    }

    /// Rectangles: even corners, widths of whole blocks of sixteen and with tails of 2 to 14.
    static let rectangles = [(0, 0, 512, 600), (2, 4, 30, 8), (100, 132, 182, 206), (174, 60, 336, 2), (6, 2, 16, 16), (0, 0, 2, 2)]

    @Test(arguments: [false, true])
    func readingGivesThePlainBytes(fullRange: Bool) throws {
        let frame = try Self.frame(fullRange: fullRange)
        for (x, y, width, height) in Self.rectangles {
            let (plain, vector) = Self.bothWays { frame.rgb(x: x, y: y, width: width, height: height) }
            guard let vector else { return }
            #expect(PixelStats.differingBytes(plain, vector) == 0, "\(width)×\(height) at (\(x), \(y))")
        }
    }

    /// A drawing to write: every pixel of some rows kept, the rest changed to values across the
    /// whole range, extremes included, so that clipping and blocks with and without a changed
    /// pixel all occur.
    static func drawing(of before: [UInt8], width: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        var after = before
        for i in 0..<(before.count / 3) {
            let row = i / width
            switch generator.next() % 5 {
            case 0: continue                                  // kept
            case 1 where row % 4 == 1: continue               // whole blocks kept now and then
            case 2: for c in 0..<3 { after[3 * i + c] = generator.next() & 1 == 0 ? 0 : 255 }
            default: for c in 0..<3 { after[3 * i + c] = UInt8(truncatingIfNeeded: generator.next()) }
            }
        }
        return after
    }

    @Test(arguments: [(false, 1.0), (true, 1.0), (false, 0.4), (true, 0.02)])
    func writingGivesThePlainBytes(fullRange: Bool, opacity: Double) throws {
        let frame = try Self.frame(fullRange: fullRange)
        for (n, (x, y, width, height)) in Self.rectangles.enumerated() {
            let before = frame.rgb(x: x, y: y, width: width, height: height)
            let after = Self.drawing(of: before, width: width, seed: UInt64(n + 1))
            let (plain, vector) = try Self.bothWays { () throws -> [UInt8] in
                let copy = try frame.reference()
                try copy.write(rgb: after, before: before, x: x, y: y, width: width, height: height, opacity: opacity)
                // The rectangle's rows read back plainly (luma and both chroma planes show in
                // them), and the luma of the rows around.
                _ = sk_frame_use_vector_instructions(0)
                return copy.rgb(x: 0, y: y, width: copy.width, height: height) + (max(0, y - 2)..<min(copy.height, y + height + 2)).flatMap { copy.lumaRow($0) }
            }
            guard let vector else { return }
            #expect(PixelStats.differingBytes(plain, vector) == 0, "\(width)×\(height) at (\(x), \(y))")
            let untouched = frame.rgb(x: 0, y: y, width: frame.width, height: height)
            #expect(PixelStats.differingBytes(Array(plain.prefix(untouched.count)), untouched) > 0, "the drawing was written")
        }
    }
}
