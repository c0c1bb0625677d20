import Foundation

/// A file of JSON lines, one compact object a line, written as figures come in (a run cut short
/// keeps the rounds it finished).
final class JSONLines {
    private let handle: FileHandle
    private let encoder: JSONEncoder

    /// Creates (or empties) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw ScenarioFailure("cannot create \(path)")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
    }

    /// Appends `value` as one line.
    func write(_ value: some Encodable) throws {
        try handle.write(contentsOf: encoder.encode(value) + Data("\n".utf8))
    }

    /// Closes the file.
    func close() {
        try? handle.close()
    }
}
