import BrokerModel
import CommandLineSupport

/// Turns a type argument (a full HealthKit identifier or a short alias) into a catalogued type.
///
/// The alias of an identifier is the identifier without its `HKQuantityTypeIdentifier`,
/// `HKCategoryTypeIdentifier`, `HKCharacteristicTypeIdentifier` or `HKWorkoutTypeIdentifier`
/// prefix, with a lower-case first letter (`stepCount`, `sleepAnalysis`, `dateOfBirth`); the
/// workout type, whose identifier is only the prefix, is `workout`. Both match case-insensitively.
enum TypeArgument {
    /// The short name of `type`: `stepCount` for `HKQuantityTypeIdentifierStepCount`, `workout` for `HKWorkoutTypeIdentifier`.
    static func alias(of type: ObjectType) -> String {
        TypeCatalogue.alias(of: type)
    }

    /// The catalogued type named by `text` (identifier or alias, any case); nil when none matches.
    static func lookUp(_ text: String) -> ObjectType? {
        TypeCatalogue.type(named: text)
    }

    /// The catalogued type named by `text`; a usage error naming it (with hints) when none matches.
    static func resolve(_ text: String, command: String = "") throws(ArgumentError) -> ObjectType {
        guard let type = lookUp(text) else { throw unknown(text, command: command) }
        return type
    }

    /// Every type named in `texts`, in order, each once.
    static func resolveAll(_ texts: [String], command: String = "") throws(ArgumentError) -> [ObjectType] {
        var types: [ObjectType] = []
        for text in texts {
            let type = try resolve(text, command: command)
            if !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// Aliases that contain `text`, or share its first four letters (case-insensitive), for a "did you mean" hint.
    static func suggestions(for text: String) -> [String] {
        // The catalogue is large: aliases that start with the text first, then the rest, five at most.
        let similar = TypeCatalogue.similarAliases(to: text)
        let wanted = text.lowercased()
        let starting = similar.filter { $0.lowercased().hasPrefix(wanted) }
        return Array((starting + similar.filter { !$0.lowercased().hasPrefix(wanted) }).prefix(maxSuggestions))
    }

    /// The most aliases a "did you mean" hint names.
    static let maxSuggestions = 5

    /// The usage error for an unknown type argument.
    static func unknown(_ text: String, command: String) -> ArgumentError {
        var message = "unknown type '\(text)'"
        let similar = suggestions(for: text)
        if !similar.isEmpty { message += " (did you mean \(similar.joined(separator: ", "))?)" }
        message += "; 'healthctl types' lists the known types"
        return ArgumentError(.invalidValue, message, command: command)
    }
}
