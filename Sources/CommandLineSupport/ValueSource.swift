/// Where an option's value came from.
public enum ValueSource: Sendable, Hashable {
    /// Typed on the command line.
    case commandLine
    /// Read from the named environment variable.
    case environment(String)
    /// The option's declared default.
    case defaultValue
}
