import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SketchEase

@Suite struct PhotoTests {
    @Test func loadsUprightEightBitSRGB() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        #expect(photo.width == 512 && photo.height == 600)
        #expect(photo.rgb.bands == 3 && photo.rgb.format == .uchar && photo.rgb.interpretation == .srgb)
        #expect(photo.alpha == nil)
    }

    @Test func appliesEXIFOrientation() throws {
        let folder = try TestAssets.temporaryFolder("photo")
        let path = folder + "/rotated.jpg"
        let source = try VipsImage.load(path: TestAssets.graceHopper)
        try source.rotated("d270").settingOrientation(6).save(path: path)
        let photo = try Photo.load(path: path)
        #expect(photo.width == 512 && photo.height == 600)
        let diff = try PixelStats.meanAbsoluteDifference(photo.rgb, source, x: 0, y: 0, width: 512, height: 600)
        #expect(diff < 3, "upright pixels should match the original (JPEG noise only), got \(diff)")
    }

    @Test func greyscaleSixteenBitAndAlphaBecomeEightBitRGB() throws {
        let grey = try VipsImage.load(path: TestAssets.astronaut).colourspace(.bw)
        #expect(try Photo(image: grey).rgb.bands == 3)
        let wide = try VipsImage.load(path: TestAssets.astronaut).colourspace(.rgb16)
        let fromWide = try Photo(image: wide)
        #expect(fromWide.rgb.format == .uchar && fromWide.rgb.bands == 3)
        let withAlpha = try VipsImage.load(path: TestAssets.astronaut).bandjoin(try VipsImage.solid(width: 512, height: 512, pixel: [200]))
        let photo = try Photo(image: withAlpha)
        #expect(photo.rgb.bands == 3)
        #expect(try photo.alpha?.average() == 200)
    }

    @Test func badFilesGiveOneClearReason() throws {
        let folder = try TestAssets.temporaryFolder("bad")
        @Sendable func reason(_ path: String) -> PhotoError.Reason? {
            do { _ = try Photo.load(path: path).rgb.pixels(); return nil } catch let e as PhotoError { return e.reason } catch { return .other("\(error)") }
        }
        #expect(reason(folder + "/missing.jpg") == .notFound)
        #expect(reason(try BadInputs.zeroBytes(in: folder)) == .empty)
        #expect(reason(try BadInputs.text(in: folder)) == .notAnImage("unrecognised format"))
        #expect(reason(try BadInputs.randomBytes(in: folder)) == .notAnImage("unrecognised format"))
        #expect(reason(folder) == .notAnImage("a folder"))
    }

    @Test func aClipGivenAsAPhotoIsNamedAVideo() throws {
        let folder = try TestAssets.temporaryFolder("clip-as-photo")
        func reason(_ name: String, _ head: [UInt8]) throws -> PhotoError.Reason? {
            let path = folder + "/" + name
            try Data(head + [UInt8](repeating: 7, count: 4000)).write(to: URL(fileURLWithPath: path))
            do { _ = try Photo.load(path: path); return nil } catch let e as PhotoError { return e.reason }
        }
        let mp4 = [0, 0, 0, 0x20] + Array("ftypisom".utf8)
        #expect(try reason("clip.jpg", mp4) == .notAnImage("MP4/QuickTime video: use `sketchease video`"))
        #expect(try reason("clip.mkv", [0x1A, 0x45, 0xDF, 0xA3]) == .notAnImage("Matroska/WebM video: use `sketchease video`"))
        // A HEIF photo shares MP4's boxes: a broken one is not called a video.
        let heif = [0, 0, 0, 0x18] + Array("ftypheic".utf8)
        if case .notAnImage(let detail)? = try reason("photo.heic", heif) { #expect(!detail.contains("video")) }
    }

    /// libvips keeps one error buffer for the process: two damaged photos read at once
    /// (`batch --jobs 2`) each got both photos' messages. Each error is now the one the photo
    /// gives when read alone, every time.
    @Test func damagedPhotosReadAtOnceKeepTheirOwnMessages() throws {
        let folder = try TestAssets.temporaryFolder("own-errors")
        let photos = [try BadInputs.truncatedJPEG(in: folder), try BadInputs.truncatedPNG(in: folder)]
        @Sendable func reason(_ path: String) -> PhotoError.Reason? {
            do { _ = try Photo.load(path: path); return nil } catch { return (error as? PhotoError)?.reason }
        }
        let alone = photos.map(reason)
        #expect(alone[0] != nil && alone[1] != nil && alone[0] != alone[1])
        let rounds = 25
        let seen = Mutex<[[PhotoError.Reason?]]>([[], []])
        DispatchQueue.concurrentPerform(iterations: 2 * rounds) { n in
            let which = n % 2
            let got = reason(photos[which])
            seen.withLock { $0[which].append(got) }
        }
        for which in 0..<2 {
            let wrong = seen.withLock { $0[which] }.filter { $0 != alone[which] }
            #expect(wrong.isEmpty, "\(photos[which]): \(wrong.count) of \(rounds) messages differ from its own, e.g. \(String(describing: wrong.first))")
        }
    }

    @Test func refusesImagesAboveThePixelLimit() throws {
        let error = #expect(throws: PhotoError.self) { try Photo.load(path: TestAssets.astronaut, pixelLimit: 1000) }
        #expect(error?.reason == .tooLarge(pixels: 512 * 512, limit: 1000))
        #expect(error?.description.hasPrefix(TestAssets.astronaut) == true)
    }

    @Test func refusesImagesThatWouldDecodeLargerThanAPhotoAtTheLimit() throws {
        let folder = try TestAssets.temporaryFolder("decode-limit")
        // 64 × 64 pixels of six 32-bit float channels: 96 KB decoded, 8 bytes a pixel allowed.
        let wide = folder + "/wide.tif"
        try VipsImage.solid(width: 64, height: 64, pixel: [1, 2, 3, 4, 5, 6]).cast(.float).save(path: wide)
        let error = #expect(throws: PhotoError.self) { try Photo.load(path: wide, pixelLimit: 10_000) }
        #expect(error?.reason == .tooMuchData(channels: 6, bytesPerSample: 4, bytes: 64 * 64 * 24, limit: 80_000))
        #expect(error?.description == "\(wide): image too large to decode (6 channels of 32-bit samples: 98 KB, limit 80 KB; see --max-pixels)")
        // Four 16-bit channels fill the allowance exactly and load; no limit means no check.
        let rgba16 = folder + "/rgba16.png"
        try VipsImage.solid(width: 100, height: 100, pixel: [9000, 20000, 30000, 65535]).cast(.ushort)
            .reinterpreted(as: .rgb16).save(path: rgba16)
        #expect(try Photo.load(path: rgba16, pixelLimit: 10_000).rgb.bands == 3)
        #expect(try Photo.load(path: wide, pixelLimit: 0).rgb.bands == 3)
    }
}
