extension ParsedCommand {
    /// The value of option or positional argument `name` as an `Int`, or `nil` when absent.
    ///
    /// Options are looked up first, then positional arguments. Throws when the value is not an
    /// integer or lies outside `range`.
    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(ArgumentError) -> Int? {
        try integer(name, as: Int.self, in: range, noun: "an integer")
    }

    /// The value of option or positional argument `name` as an `Int64`, or `nil` when absent.
    public func int64(_ name: String, in range: ClosedRange<Int64>? = nil) throws(ArgumentError) -> Int64? {
        try integer(name, as: Int64.self, in: range, noun: "an integer")
    }

    /// The value of option or positional argument `name` as a `UInt32`, or `nil` when absent.
    public func uint32(_ name: String, in range: ClosedRange<UInt32>? = nil) throws(ArgumentError) -> UInt32? {
        try integer(name, as: UInt32.self, in: range, noun: "a whole number")
    }

    /// The value of option or positional argument `name` as a finite `Double`, or `nil` when absent.
    public func double(_ name: String) throws(ArgumentError) -> Double? {
        guard let (text, label) = rawValue(name) else { return nil }
        guard let number = Double(text) else {
            throw invalid(text, label, "expected a number")
        }
        guard number.isFinite else { throw invalid(text, label, "expected a finite number") }
        return number
    }

    /// The value of option or positional argument `name` as one of `T`'s cases, matched by raw value.
    public func choice<T: CaseIterable & RawRepresentable>(
        _ name: String, as type: T.Type = T.self
    ) throws(ArgumentError) -> T? where T.RawValue == String {
        let names = T.allCases.map(\.rawValue).joined(separator: ", ")
        return try value(name, expected: "one of \(names)") { T(rawValue: $0) }
    }

    /// The value of option or positional argument `name` converted by `transform`, or `nil` when absent.
    ///
    /// When `transform` returns `nil` the error says "expected \(expected)".
    public func value<T>(
        _ name: String, expected: String, _ transform: (String) -> T?
    ) throws(ArgumentError) -> T? {
        guard let (text, label) = rawValue(name) else { return nil }
        guard let converted = transform(text) else { throw invalid(text, label, "expected \(expected)") }
        return converted
    }

    /// The value of option `name`, throwing when the command line, environment and default all leave it unset.
    public func requiredString(_ name: String) throws(ArgumentError) -> String {
        if let value = string(name) { return value }
        let option = declaredOption(name)
        var message = "missing required option '\(option.displayName) \(option.valueName ?? "")'"
        if let variable = option.environmentVariable { message += " (or set \(variable))" }
        throw ArgumentError(.missingOption, message, command: commandName)
    }

    private func integer<T: FixedWidthInteger>(
        _ name: String, as type: T.Type, in range: ClosedRange<T>?, noun: String
    ) throws(ArgumentError) -> T? {
        guard let (text, label) = rawValue(name) else { return nil }
        let bounds = range ?? T.min...T.max
        let expectation = "expected \(noun) from \(bounds.lowerBound) to \(bounds.upperBound)"
        guard let number = T(text) else {
            if Self.looksLikeInteger(text) { throw invalid(text, label, "out of range (\(expectation))") }
            throw invalid(text, label, range == nil && T.isSigned ? "expected \(noun)" : expectation)
        }
        guard bounds.contains(number) else { throw invalid(text, label, "out of range (\(expectation))") }
        return number
    }

    /// An optional sign followed by ASCII digits.
    private static func looksLikeInteger(_ text: String) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The raw text for `name` and how to name it in an error, or `nil` when it has no value.
    private func rawValue(_ name: String) -> (text: String, label: String)? {
        if let option = options[OptionSpec.stripDashes(name)] {
            precondition(!option.isFlag, "'\(option.displayName)' is a flag; use flag(_:) instead")
            guard let entry = resolved[option.name], let text = entry.values.last else { return nil }
            var label = "option '\(option.displayName)'"
            switch entry.source {
            case .commandLine: break
            case .environment(let variable): label += " (from environment variable \(variable))"
            case .defaultValue: label += " (from its default)"
            }
            return (text, label)
        }
        guard positionalSpecs.contains(where: { $0.name == name }) else {
            preconditionFailure("'\(commandName)' has no option or argument named '\(name)'")
        }
        return positional(name).map { ($0, "argument '\(name)'") }
    }

    private func invalid(_ text: String, _ label: String, _ expectation: String) -> ArgumentError {
        ArgumentError(.invalidValue, "invalid value '\(text)' for \(label): \(expectation)", command: commandName)
    }
}
