import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
import Vips

/// libvips keeps one error buffer for the process: a file read and another written at the same
/// time (`batch --jobs 2`, one worker exporting while the other reads a damaged photo) each
/// picked up the other's messages. Each failure now carries the message it gives alone.
@Suite struct FileErrorsTests {
    @Test func filesReadAndWrittenAtOnceKeepTheirOwnMessages() throws {
        let folder = try TestAssets.temporaryFolder("file-errors")
        let damaged = [try BadInputs.truncatedJPEG(in: folder), try BadInputs.truncatedPNG(in: folder)]
        let unwritable = folder + "/no such folder/out.png"
        let image = try VipsImage.solid(width: 64, height: 64, pixel: [200, 100, 50]).reinterpreted(as: .srgb)
        @Sendable func readError(_ path: String) -> String? {
            do { _ = try FileErrors.attributed { try VipsImage.load(path: path, sequential: true).inMemory() }; return nil } catch {
                return (error as? VipsError)?.message ?? "\(error)"
            }
        }
        @Sendable func writeError() -> String? {
            do { try image.savePNG(path: unwritable); return nil } catch { return (error as? VipsError)?.message ?? "\(error)" }
        }
        let alone = damaged.map(readError) + [writeError()]
        #expect(alone.allSatisfy { $0 != nil && !$0!.isEmpty } && Set(alone).count == 3, "three different messages: \(alone)")
        // Three threads per file, more threads than cores, so that one's failure often falls
        // within another's.
        let rounds = 40
        let seen = Mutex<[[String?]]>([[], [], []])
        let group = DispatchGroup()
        // Meanwhile, operations on no file fail too (a crop past an image's edge): each takes
        // its own message from the same buffer, and may take a file's as it is written.
        let filesDone = Atomic<Bool>(false)
        let elsewhere = DispatchGroup()
        for _ in 0..<2 {
            elsewhere.enter()
            Thread {
                while !filesDone.load(ordering: .relaxed) { _ = try? image.crop(x: 60, y: 60, width: 32, height: 32) }
                elsewhere.leave()
            }.start()
        }
        for thread in 0..<9 {
            let which = thread % 3
            group.enter()
            Thread {
                for _ in 0..<rounds {
                    let got = which < 2 ? readError(damaged[which]) : writeError()
                    seen.withLock { $0[which].append(got) }
                }
                group.leave()
            }.start()
        }
        group.wait()
        filesDone.store(true, ordering: .relaxed)
        elsewhere.wait()
        for which in 0..<3 {
            let wrong = seen.withLock { $0[which] }.filter { $0 != alone[which] }
            #expect(wrong.isEmpty, "\(which < 2 ? damaged[which] : unwritable): \(wrong.count) of \(3 * rounds) messages differ from its own, e.g. \(String(describing: wrong.first))")
        }
    }
}
