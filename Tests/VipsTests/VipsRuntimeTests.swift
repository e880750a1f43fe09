import Dispatch
import Synchronization
import Testing
@testable import Vips

@Suite struct VipsRuntimeTests {
    @Test func residentMemoryCountsAnImageHeldInMemory() throws {
        // 4096 x 4096 x 4 bytes, every pixel written: at least 64 MiB must be in RAM while held.
        let held = try VipsImage.solid(width: 4096, height: 4096, pixel: [1, 2, 3, 4]).inMemory()
        let resident = try #require(VipsRuntime.residentMemory())
        #expect(resident >= 64 << 20)
        #expect(resident < 64 << 30)
        #expect(held.width == 4096)
    }

    @Test func freedMemoryIsKeptBelowTheLimitAndHandedBackAboveIt() throws {
        _ = try VipsImage.solid(width: 2048, height: 2048, pixel: [7]).inMemory()
        #expect(VipsRuntime.releaseFreedMemory(ifResidentAbove: Int.max) == false)
        #expect(VipsRuntime.releaseFreedMemory(ifResidentAbove: 0) == true)
    }

    /// 8-bit blurs built, run and freed on four threads at once with the operation cache off,
    /// as a batch or a clip draws faces side by side. With libvips' run-time compiled (liborc)
    /// loops on, Debian 12's liborc 0.4.33 crashed this process within seconds (its list of
    /// compiled code is not locked); the runtime turns them off, so this passes.
    @Test func eightBitBlursOnManyThreadsAtOnceDoNotCrash() throws {
        try VipsRuntime.setOperationCacheSize(0) // as BatchRunner and ClipRenderer set it
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<2000 {
                // A new image each time: every blur is built anew, none taken from the cache.
                let width = 16 + (i * 4 + worker) % 40, sigma = 0.8 + Double((i + worker) % 13) * 0.3
                let pixels = try? VipsImage.solid(width: width, height: 16, pixel: [90]).cast(.uchar)
                    .gaussianBlur(sigma: sigma, precision: "integer").pixels()
                if pixels?.count != width * 16 { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
