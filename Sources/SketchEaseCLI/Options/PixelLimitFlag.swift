import ArgumentParser
import SketchEase

/// `--max-pixels N`: the decompression-bomb guard of every command that reads photos.
struct PixelLimitFlag: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Refuse photos with more pixels than this (0 = no limit).",
        discussion: """
            Checked from the file's header, before anything is decoded. Decoding may also take \
            at most \(Photo.bytesPerPixelAllowance) bytes for each pixel of the limit (four 16-bit \
            channels), so files that declare many channels or 64-bit samples are refused too.
            """))
    var maxPixels: Int = Photo.defaultPixelLimit

    func validate() throws {
        guard maxPixels >= 0 else { throw ValidationError("--max-pixels must be 0 or more (got \(maxPixels))") }
    }
}
