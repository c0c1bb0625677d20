#if canImport(Glibc)
import Glibc
#endif

/// Reads a text file one line at a time (any length), counting lines from 1; `-` reads standard input.
final class LineReader {
    /// The path as given, for messages.
    let path: String
    /// The number of the line `next()` returned last.
    private(set) var lineNumber = 0
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    /// Opens `path`; a file that cannot be read is an error naming it and the reason.
    init(path: String) throws(CommandFailure) {
        self.path = path
        if path == "-", let input = fdopen(STDIN_FILENO, "r") {
            file = input
            ownsFile = false
        } else {
            guard let opened = fopen(path, "r") else {
                throw CommandFailure(["cannot read \(path): \(String(cString: strerror(errno)))"])
            }
            file = opened
            ownsFile = true
        }
    }

    deinit {
        free(buffer)
        if ownsFile { fclose(file) }
    }

    /// The next line without its line break (`\n` or `\r\n`), or nil at the end of the file.
    func next() -> String? {
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else { return nil }
        lineNumber += 1
        var count = length
        if count > 0, buffer[count - 1] == 0x0A { count -= 1 }
        if count > 0, buffer[count - 1] == 0x0D { count -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    /// Whether reading stopped because of an error rather than the end of the file.
    var failed: Bool { ferror(file) != 0 }
}
