import BrokerModel
import BrokerPolicy

/// Which values each characteristic type accepts.
enum CharacteristicRules {
    /// Throws INVALID_ARGUMENT naming the problem when `value` does not fit its type: date of birth
    /// is a calendar date; a characteristic with a value set in the catalogue (biological sex, blood
    /// type, Fitzpatrick skin type, wheelchair use, activity move mode) takes one of its values.
    static func validate(_ value: CharacteristicValue) throws(BrokerError) {
        guard let descriptor = TypeCatalogue.descriptor(for: value.type), descriptor.isCharacteristic else {
            throw .invalidArgument("\(value.type.identifier) is not a characteristic type")
        }
        guard let text = value.value else { return }
        if value.type == .dateOfBirth {
            guard isCalendarDate(text) else { throw .invalidArgument("date of birth must be YYYY-MM-DD, got \(text)") }
            return
        }
        let allowed = TypeCatalogue.characteristicValues(of: value.type)
        if !allowed.isEmpty {
            guard allowed.contains(text) else {
                throw .invalidArgument("\(descriptor.displayName.lowercased()) must be one of \(allowed.sorted().joined(separator: ", "))")
            }
            return
        }
        guard !text.isEmpty, text.utf8.count <= 256 else { throw .invalidArgument("value must be 1 to 256 bytes") }
    }

    /// True for a real calendar date written `YYYY-MM-DD`.
    static func isCalendarDate(_ text: String) -> Bool {
        text.utf8.count == 10 && ISODate.parse(text) != nil
    }
}
