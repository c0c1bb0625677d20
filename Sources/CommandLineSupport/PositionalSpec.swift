/// One positional argument of a command, such as `APP_ID`.
public struct PositionalSpec: Sendable, Hashable {
    /// The placeholder shown in usage and help, also the name used to look the value up.
    public var name: String
    /// One line of help.
    public var help: String
    /// Whether the argument may be left out; optional arguments follow all required ones.
    public var isOptional: Bool
    /// Whether the argument collects every remaining word; only the last argument may be variadic.
    public var isVariadic: Bool

    /// Creates a positional argument, required and single unless told otherwise.
    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
    }

    /// How the argument appears in a usage line: `APP_ID`, `[NAME]`, `FILE...` or `[FILE...]`.
    public var usage: String {
        let word = isVariadic ? name + "..." : name
        return isOptional ? "[\(word)]" : word
    }
}
