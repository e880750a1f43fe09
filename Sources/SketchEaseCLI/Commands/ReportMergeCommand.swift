import ArgumentParser
import Foundation
import SketchEase

/// `sketchease report-merge shard-*.json`: the shards of one batch, summed up as one run.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report-merge",
        abstract: "Combine the --report files of a batch's shards into one summary.",
        discussion: """
            Prints the summary one run over all the photos would have printed (and each failure), \
            and exits 1 if any photo failed or was not started. --out writes the combined report.
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

    /// "3/7" for every shard of the counts named that has no report.
    static func missingShards(_ shards: [String]) -> [String] {
        let parsed = shards.compactMap { try? Shard($0) }
        guard let count = parsed.first?.count else { return [] }
        let present = Set(parsed.filter { $0.count == count }.map(\.index))
        return (1...count).filter { !present.contains($0) }.map { "\($0)/\(count)" }
    }
}
