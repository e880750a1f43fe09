/// Faces named the way a person types them: a number (`2`), several (`1,3`), a range (`1-3`),
/// a mix (`1-3,5`) or `all`. The prompt and the browser both read selections through here.
public enum FaceSelection {
    /// The face ids `text` names, each once, in the order given; throws `EditError` naming the
    /// first problem (not a number, no such face).
    public static func parse(_ text: String, known: [Int]) throws -> [Int] {
        if text.lowercased() == "all" {
            guard !known.isEmpty else { throw EditError.noSuchFace(0, known: []) }
            return known
        }
        var ids: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = Int(bounds[0]), first > 0, let last = bounds.count == 2 ? Int(bounds[1]) : first,
                  last >= first else {
                throw EditError.notAFace(String(part), known: known)
            }
            for id in first...last where !ids.contains(id) {
                guard known.contains(id) else { throw EditError.noSuchFace(id, known: known) }
                ids.append(id)
            }
        }
        return ids
    }

    /// "1, 3" or "1-4, 6": ids as a person would write them back.
    public static func describe(_ ids: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        let sorted = ids.sorted()
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1] == sorted[j] + 1 { j += 1 }
            parts.append(j - i >= 2 ? "\(sorted[i])-\(sorted[j])" : (i...j).map { String(sorted[$0]) }.joined(separator: ", "))
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }
}
