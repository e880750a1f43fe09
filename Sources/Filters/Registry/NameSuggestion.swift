/// The name a mistyped word was most likely meant to be: used for filters, parameters and the
/// prompt's commands alike, so every "did you mean" works the same way.
public enum NameSuggestion {
    /// The closest of `names` to `word` (letter case ignored), if it is close enough to be a
    /// typo: one edit for words of up to 4 letters, two beyond. An edit is a letter added,
    /// removed, changed, or two neighbours swapped ("mvoe" is one edit from "move").
    public static func closest(to word: String, among names: [String]) -> String? {
        let w = Array(word.lowercased())
        guard w.count >= 2 else { return nil }
        let limit = w.count > 4 ? 2 : 1
        let scored = names.map { ($0, distance(w, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit, best.1 > 0 else { return nil }
        return best.0
    }

    /// Optimal string alignment distance (Levenshtein with transpositions).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
