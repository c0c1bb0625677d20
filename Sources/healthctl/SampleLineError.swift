/// Why one input line could not become a sample; the caller adds `FILE:LINE: ` in front.
struct SampleLineError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the line.
    var message: String

    /// An error explained by `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message.
    var description: String { message }
}
