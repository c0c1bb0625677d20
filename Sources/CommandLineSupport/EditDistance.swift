/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions turning `a` into `b`.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = min(substitution, previous[j] + 1, row[j - 1] + 1)
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }

    /// The candidate nearest `word`, if within `limit` edits and not a complete rewrite; ties go to the first.
    static func closest(to word: String, among candidates: [String], limit: Int = 2) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = between(word, candidate)
            guard distance <= limit, distance < candidate.count else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }
}
