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
}
