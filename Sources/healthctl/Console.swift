import CommandLineSupport

/// Writes finished text to standard output or standard error, straight to the file descriptor.
///
/// Nothing goes through stdio: the consent agent reads standard input on a thread that blocks in
/// `readLine` holding stdin's lock, and flushing stdio (`fflush(nil)` takes every stream's lock)
/// froze the agent after each answer until another line was typed.
enum Console {
    /// Writes `text` and a newline on standard output.
    static func output(_ text: String) {
        StandardStream.output.write(text + "\n")
    }

    /// Writes `text` without a newline, so a question shows before its answer is typed.
    static func ask(_ text: String) {
        StandardStream.output.write(text)
    }

    /// Writes `text` as is on standard error.
    static func error(_ text: String) {
        StandardStream.error.write(text)
    }
}
