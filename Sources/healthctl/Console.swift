import Foundation

/// Writes finished text to standard output or standard error.
enum Console {
    /// Prints `text` and a newline on standard output.
    static func output(_ text: String) {
        print(text)
    }

    /// Prints `text` without a newline and flushes, so a question shows before its answer is typed.
    static func ask(_ text: String) {
        print(text, terminator: "")
        fflush(nil)
    }

    /// Writes `text` as is on standard error (unbuffered).
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
