import Foundation

/// A status line redrawn in place (`\r`) when standard output is a terminal; silent otherwise.
final class ProgressLine {
    /// Whether standard output is a terminal.
    let isTerminal: Bool
    private var drawn = false

    /// A progress line for this process's standard output.
    init(isTerminal: Bool = isatty(STDOUT_FILENO) == 1) {
        self.isTerminal = isTerminal
    }

    /// Replaces the line with `text` (terminal only).
    func update(_ text: String) {
        guard isTerminal else { return }
        Console.ask("\r\(text)\u{1B}[K")
        drawn = true
    }

    /// Prints the final `text`: over the progress line on a terminal, as a plain line otherwise.
    func finish(_ text: String) {
        if drawn {
            Console.output("\r\(text)\u{1B}[K")
            drawn = false
        } else {
            Console.output(text)
        }
    }

    /// Ends a drawn progress line, so an error message starts on a line of its own.
    func interrupt() {
        guard drawn else { return }
        Console.output("")
        drawn = false
    }
}
