/// The formats `healthctl import` reads: JSON lines or CSV.
enum SampleFileFormat: String, CaseIterable {
    /// One JSON object per line (`.jsonl`, `.json`, `.ndjson`).
    case jsonl
    /// A header line, then one quantity sample per line (`.csv`).
    case csv

    /// The format a file name's extension implies, or nil when it implies none.
    static func inferred(fromPath path: String) -> SampleFileFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "json", "ndjson": return .jsonl
        case "csv": return .csv
        default: return nil
        }
    }
}
