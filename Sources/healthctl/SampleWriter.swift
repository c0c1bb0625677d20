import Foundation

/// Buffered output of text lines to a file or standard output.
final class SampleWriter {
    /// Where the lines go, for messages (`-` for standard output).
    let path: String
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 20

    /// Writes to standard output for nil or `-`, else creates (or truncates) `path`.
    init(path: String?) throws(CommandFailure) {
        guard let path, path != "-" else {
            self.path = "-"
            handle = FileHandle.standardOutput
            ownsHandle = false
            return
        }
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let opened = FileHandle(forWritingAtPath: path) else {
            throw CommandFailure(["cannot write \(path): \(String(cString: strerror(errno)))"])
        }
        handle = opened
        ownsHandle = true
    }

    /// Whether the lines go to standard output.
    var isStandardOutput: Bool { !ownsHandle }

    /// Appends `line` and a newline; writes out every megabyte.
    func write(line: String) throws(CommandFailure) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes out what is buffered.
    func flush() throws(CommandFailure) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw CommandFailure(["cannot write \(path == "-" ? "standard output" : path): \(error.localizedDescription)"])
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes out the rest and closes a file.
    func close() throws(CommandFailure) {
        try flush()
        if ownsHandle { try? handle.close() }
    }
}
