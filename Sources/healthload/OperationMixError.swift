/// Why an `--op` value could not be read as an operation mix.
struct OperationMixError: Error, Equatable, CustomStringConvertible {
    /// The explanation.
    let description: String

    /// Creates an error explained by `description`.
    init(_ description: String) {
        self.description = description
    }
}
