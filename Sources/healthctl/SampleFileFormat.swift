/// The formats `healthctl import` reads: JSON lines, CSV, or an Apple Health export.
enum SampleFileFormat: String, CaseIterable {
    /// One JSON object per line (`.jsonl`, `.json`, `.ndjson`).
    case jsonl
    /// A header line, then one quantity sample per line (`.csv`).
    case csv
    /// An Apple Health export: `export.zip` or its `export.xml` (`.zip`, `.xml`).
    case appleHealth = "apple-health"

    /// The format a file name's extension implies, or nil when it implies none.
    static func inferred(fromPath path: String) -> SampleFileFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "json", "ndjson": return .jsonl
        case "csv": return .csv
        case "zip", "xml": return .appleHealth
        default: return nil
        }
    }
}
