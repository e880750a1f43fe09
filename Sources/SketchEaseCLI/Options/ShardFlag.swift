import ArgumentParser
import SketchEase

/// `--shard K/N|auto|auto/N`: one of N independent runs over the same inputs (batch and video).
struct ShardFlag: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Do only shard K of N of the inputs (K from 1 to N), for N runs on several machines.",
        discussion: """
            Each input belongs to one shard by a stable hash of its path relative to the folder it \
            was found in, so N runs over the same inputs write disjoint results that together equal \
            one run. `auto` takes K from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX; give \
            auto/N) or a Slurm array (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT).
            """,
        valueName: "K/N|auto|auto/N"))
    var shard: String?

    func validate() throws {
        if let shard {
            do { _ = try Shard(shard) } catch let error as ShardError { throw ValidationError("--shard: \(error)") }
        }
    }

    /// The shard asked for (nil for none) and its inputs, chosen from the whole list (after
    /// every output is named, so that each shard writes exactly what one run would); says how
    /// many on standard error.
    func select(_ files: [InputFile], noun: String) throws -> (shard: Shard?, files: [InputFile]) {
        guard let shard else { return (nil, files) }
        let part = try Shard(shard)
        let mine = files.filter(part.contains)
        Terminal.printErr("shard \(part): \(mine.count) of \(Terminal.count(files.count, noun))")
        return (part, mine)
    }
}
