/// A failure that ends a load run (setup, connecting, a broken template), with a message for people.
struct LoadFailure: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// Creates a failure explained by `description`.
    init(_ description: String) {
        self.description = description
    }
}
