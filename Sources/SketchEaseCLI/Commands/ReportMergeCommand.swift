import ArgumentParser
import Foundation
import SketchEase

/// `sketchease report-merge shard-*.json`: the shards of one batch (or of one `video` job), summed
/// up as one run.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report-merge",
        abstract: "Combine the --report files of a batch's (or a video job's) shards into one summary.",
        discussion: """
            Prints the summary one run over all the photos would have printed (and each failure), \
            and exits 1 if any photo (or clip) failed or was not started. The reports of `video --report` \
            add up the same way: clips, frames, seconds of video and of work, and each failure. \
            --out writes the combined report.
            """
    )

    @Argument(help: ArgumentHelp("The shards' --report files.", valueName: "report.json"),
              completion: .file(extensions: ["json"]))
    var reports: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Also write the combined report here.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var out: String?

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("give the shards' report files") }
        if let out, FileIdentity.of(out, isAnyOf: reports) {
            throw ValidationError("--out \(out) is one of the reports; choose another file")
        }
    }

    func run() throws {
        if let out { try Terminal.failing { try OutputFile.checkNamed(out) } }
        if try Terminal.failing({ try Self.areVideoReports(reports) }) { return try mergeVideo() }
        let read = try Terminal.failing { try reports.map { ($0, try BatchReportFile.read(from: $0)) } }
        let merged = try Terminal.failing { try BatchReportFile.merged(read) }
        if let out { try Terminal.failing { try merged.write(to: out) } }
        let shards = read.compactMap { $0.1.shard }
        print("\(merged.totals.summary) (\(Terminal.count(reports.count, "report"))"
            + (shards.isEmpty ? "" : ", shards \(shards.sorted(by: NaturalOrder.precedes).joined(separator: ", "))") + ")")
        for problem in merged.inputProblems { print("  \(problem)") }
        for photo in merged.photos where photo.status == "failed" { print("  \(photo.error ?? photo.input)") }
        let missing = Self.missingShards(shards)
        if !missing.isEmpty { Terminal.error("no report from shard \(missing.joined(separator: ", ")): the totals lack its photos") }
        if !merged.totals.succeeded || !missing.isEmpty { throw ExitCode.failure }
    }

    /// Whether the files are `video --report` files (any of them: the rest are then read as such, so
    /// an unreadable one is named as it is; photo reports among them are an error naming one of each).
    static func areVideoReports(_ files: [String]) throws -> Bool {
        let formats = files.map { file in
            (file, (try? Data(contentsOf: URL(fileURLWithPath: file))).flatMap(VersionedJSON.format(of:)))
        }
        guard let video = formats.first(where: { $0.1 == ClipStats.format }) else { return false }
        if let photo = formats.first(where: { $0.1 == BatchReportFile.format }) {
            throw SessionError(path: photo.0, reason: .invalid(
                "a photo report, but \(video.0) is a video report: merge the reports of photos and of clips separately"))
        }
        return true
    }

    func mergeVideo() throws {
        let read = try Terminal.failing { try reports.map { ($0, try ClipStats.read(from: $0)) } }
        let merged = try Terminal.failing { try ClipStats.merged(read) }
        if let out { try Terminal.failing { try merged.write(to: out) } }
        let shards = read.compactMap { $0.1.shard }
        print("\(merged.totals.counts) (\(Terminal.count(reports.count, "report"))"
            + (shards.isEmpty ? "" : ", shards \(shards.sorted(by: NaturalOrder.precedes).joined(separator: ", "))")
            + "): \(merged.totals.amounts)")
        for problem in merged.inputProblems { print("  \(problem)") }
        for clip in merged.clips where clip.status == "failed" { print("  \(clip.error ?? clip.input)") }
        let missing = Self.missingShards(shards)
        if !missing.isEmpty { Terminal.error("no report from shard \(missing.joined(separator: ", ")): the totals lack its clips") }
        if merged.totals.failed > 0 || (merged.totals.notStarted ?? 0) > 0 || !missing.isEmpty { throw ExitCode.failure }
    }

    /// "3/7" for every shard of the counts named that has no report.
    static func missingShards(_ shards: [String]) -> [String] {
        let parsed = shards.compactMap { try? Shard($0) }
        guard let count = parsed.first?.count else { return [] }
        let present = Set(parsed.filter { $0.count == count }.map(\.index))
        return (1...count).filter { !present.contains($0) }.map { "\($0)/\(count)" }
    }
}
