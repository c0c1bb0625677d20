import BrokerModel

/// The words a person reads for a type in the consent agent: `Steps`, `Heart rate`, `Date of birth`.
enum PlainTypeName {
    /// The plain name of `type`: the catalogue's display name, else (an uncatalogued identifier) its
    /// alias split into words (`restingHeartRate` → `Resting heart rate`).
    static func of(_ type: ObjectType) -> String {
        if let descriptor = TypeCatalogue.descriptor(for: type) { return descriptor.displayName }
        let alias = TypeArgument.alias(of: type)
        var words = ""
        for character in alias {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(character)
        }
        return words.prefix(1).uppercased() + words.dropFirst().lowercased()
    }

    /// `Steps (stepCount)`: the plain name with the alias `healthctl` commands take.
    static func labelled(_ type: ObjectType) -> String {
        "\(of(type)) (\(TypeArgument.alias(of: type)))"
    }

    /// Whether `type` is a series of samples (a read can be limited from a date), not a characteristic.
    static func isSample(_ type: ObjectType) -> Bool {
        TypeCatalogue.descriptor(for: type)?.isCharacteristic != true
    }
}
