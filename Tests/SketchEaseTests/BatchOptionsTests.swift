import Foundation
import Testing
@testable import SketchEase

@Suite struct BatchOptionsTests {
    @Test func defaultJobsIsAPhotoPerCoreWithinMemory() throws {
        let jobs = BatchOptions.defaultJobs
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let gibibytes = Int(ProcessInfo.processInfo.physicalMemory >> 30)
        #expect(jobs >= 1)
        #expect(jobs <= cores)
        #expect(jobs == 1 || jobs * 2 <= gibibytes)
        // Only memory holds it below the core count.
        #expect(jobs == cores || (jobs + 1) * 2 > gibibytes)
        #expect(BatchOptions(outputFolder: "out", style: try .named("pencil")).jobs == jobs)
    }
}
