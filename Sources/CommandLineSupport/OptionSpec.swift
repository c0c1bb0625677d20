/// One named option of a command: a boolean flag (`--json`) or an option taking a value (`--socket PATH`).
public struct OptionSpec: Sendable, Hashable {
    /// The long name without its dashes: `socket` for `--socket`.
    public var name: String
    /// The single-letter short name without its dash: `s` for `-s`.
    public var shortName: Character?
    /// The placeholder shown for the value (`PATH`); `nil` makes the option a boolean flag.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// The value used when neither the command line nor the environment gives one; shown in help.
    public var defaultValue: String?
    /// An environment variable consulted when the option is absent from the command line.
    public var environmentVariable: String?
    /// Whether every occurrence is kept (`--type a --type b`) instead of the last one winning.
    public var isRepeatable: Bool

    /// Creates an option; a `nil` `value` placeholder makes it a boolean flag.
    ///
    /// Leading dashes on `name` are dropped, so `"--socket"` and `"socket"` are the same option.
    public init(
        _ name: String,
        short: Character? = nil,
        value valueName: String? = nil,
        help: String,
        default defaultValue: String? = nil,
        environment environmentVariable: String? = nil,
        repeatable: Bool = false
    ) {
        self.name = OptionSpec.stripDashes(name)
        self.shortName = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.environmentVariable = environmentVariable
        self.isRepeatable = repeatable
    }

    /// A boolean flag such as `--json`; an environment variable set to `1`, `true`, `yes` or `on` turns it on.
    public static func flag(
        _ name: String, short: Character? = nil, help: String, environment: String? = nil
    ) -> OptionSpec {
        OptionSpec(name, short: short, help: help, environment: environment)
    }

    /// An option taking a value, such as `--socket PATH`.
    public static func option(
        _ name: String,
        short: Character? = nil,
        value: String,
        help: String,
        default defaultValue: String? = nil,
        environment: String? = nil,
        repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name, short: short, value: value, help: help, default: defaultValue,
            environment: environment, repeatable: repeatable)
    }

    /// Whether the option is a boolean flag.
    public var isFlag: Bool { valueName == nil }

    /// The long spelling: `--socket`.
    public var displayName: String { "--" + name }

    static func stripDashes(_ name: String) -> String {
        String(name.drop(while: { $0 == "-" }))
    }
}
