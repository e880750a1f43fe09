import Testing
@testable import SketchEase

@Suite struct ShardTests {
    @Test func everyPhotoBelongsToExactlyOneShard() throws {
        let files = (0..<500).map { InputFile(path: "/p/\($0).jpg", outputStem: "trip/\($0)", relativePath: "trip/photo \($0).jpg") }
        for count in [1, 2, 3, 7, 16] {
            let shards = try (1...count).map { try Shard(index: $0, count: count) }
            for file in files { #expect(shards.filter { $0.contains(file) }.count == 1) }
            // Spread evenly enough that no machine gets twice its share.
            let sizes = shards.map { shard in files.filter(shard.contains).count }
            #expect(sizes.max()! <= 2 * files.count / count + 5, "\(count): \(sizes)")
        }
        // The choice depends on the relative path only: not on where the folder is mounted.
        let a = InputFile(path: "/mnt/nfs/photos/trip/x.jpg", outputStem: "trip/x", relativePath: "trip/x.jpg")
        let b = InputFile(path: "/data/photos/trip/x.jpg", outputStem: "trip/x", relativePath: "trip/x.jpg")
        let shard = try Shard(index: 2, count: 5)
        #expect(shard.contains(a) == shard.contains(b))
        // FNV-1a of the UTF-8 bytes: pinned, so a later version puts every photo in the same shard.
        #expect(Shard.hash("trip/x.jpg") == 0xaeb5_6e8d_3d42_da2c)
    }

    @Test func shardsAreWrittenKOfNOrTakenFromTheScheduler() throws {
        #expect(try Shard("2/7", environment: [:]) == Shard(index: 2, count: 7))
        #expect(try Shard("auto/4", environment: ["JOB_COMPLETION_INDEX": "0"]) == Shard(index: 1, count: 4))
        #expect(try Shard("auto", environment: ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1",
                                                 "SLURM_ARRAY_TASK_COUNT": "8"]) == Shard(index: 5, count: 8))
        #expect(try Shard("auto", environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "3"]) == Shard(index: 1, count: 3))
        for (text, message) in [("0/3", "shard 0 of 3 does not exist: shards are numbered 1 to 3"),
                                ("4/3", "shard 4 of 3 does not exist: shards are numbered 1 to 3"),
                                ("1/0", "the number of shards must be at least 1 (got 0)"),
                                ("x", "expected K/N, auto or auto/N (got 'x')"), ("2/", "expected K/N, auto or auto/N (got '2/')"),
                                ("auto", "--shard auto needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm array)")] {
            #expect(throws: ShardError(message)) { try Shard(text, environment: [:]) }
        }
        #expect(throws: ShardError.self) { try Shard("auto", environment: ["JOB_COMPLETION_INDEX": "3"]) }
        #expect(throws: ShardError.self) { try Shard("auto/3", environment: ["JOB_COMPLETION_INDEX": "3"]) }
    }
}
