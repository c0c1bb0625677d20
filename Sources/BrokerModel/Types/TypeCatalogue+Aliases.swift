/// Short names for catalogued types, shared by `healthctl` arguments and the consent policy file, so
/// that a name `healthctl types` lists is accepted wherever a type is named by a person.
extension TypeCatalogue {
    /// The identifier prefixes an alias leaves out, longest first.
    public static let aliasPrefixes = [
        "HKCharacteristicTypeIdentifier", "HKCorrelationTypeIdentifier", "HKQuantityTypeIdentifier",
        "HKCategoryTypeIdentifier", "HKWorkoutTypeIdentifier",
    ]

    /// The short name of `type`: `stepCount` for `HKQuantityTypeIdentifierStepCount`, `workout` for `HKWorkoutTypeIdentifier`.
    ///
    /// The identifier without its prefix, with a lower-case first letter; the workout type, whose
    /// identifier is only the prefix, is named after its kind. An identifier without a known
    /// prefix is its own alias.
    public static func alias(of type: ObjectType) -> String {
        let identifier = type.identifier
        guard let prefix = aliasPrefixes.first(where: { identifier.hasPrefix($0) }) else { return identifier }
        let rest = identifier.dropFirst(prefix.count)
        guard let first = rest.first else {
            return descriptor(for: type)?.kind.rawValue ?? identifier
        }
        return first.lowercased() + rest.dropFirst()
    }

    /// The catalogued type named by `name`, a full identifier or an alias, in any case; nil when none matches.
    public static func type(named name: String) -> ObjectType? {
        let wanted = name.lowercased()
        return all.first { descriptor in
            descriptor.type.identifier.lowercased() == wanted || alias(of: descriptor.type).lowercased() == wanted
        }?.type
    }

    /// Aliases that contain `name`, or share its first four letters (case-insensitive), for a "did you mean" hint.
    public static func similarAliases(to name: String) -> [String] {
        let wanted = name.lowercased()
        guard !wanted.isEmpty else { return [] }
        let stem = wanted.count >= 4 ? String(wanted.prefix(4)) : nil
        return all.map { alias(of: $0.type) }.filter { alias in
            let lowered = alias.lowercased()
            return lowered.contains(wanted) || stem.map { lowered.hasPrefix($0) } == true
        }
    }
}
