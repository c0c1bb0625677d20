import BrokerModel
import BrokerPolicy

/// Which values each characteristic type accepts.
enum CharacteristicRules {
    /// Biological sex values, as HKBiologicalSex.
    static let biologicalSexes: Set<String> = ["female", "male", "other", "notSet"]
    /// Blood types, as HKBloodType.
    static let bloodTypes: Set<String> = ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-", "notSet"]

    /// Throws INVALID_ARGUMENT naming the problem when `value` does not fit its type.
    static func validate(_ value: CharacteristicValue) throws(BrokerError) {
        guard let descriptor = TypeCatalogue.descriptor(for: value.type), descriptor.isCharacteristic else {
            throw .invalidArgument("\(value.type.identifier) is not a characteristic type")
        }
        guard let text = value.value else { return }
        switch value.type {
        case .dateOfBirth:
            guard isCalendarDate(text) else { throw .invalidArgument("date of birth must be YYYY-MM-DD, got \(text)") }
        case .biologicalSex:
            guard biologicalSexes.contains(text) else {
                throw .invalidArgument("biological sex must be one of \(biologicalSexes.sorted().joined(separator: ", "))")
            }
        case .bloodType:
            guard bloodTypes.contains(text) else {
                throw .invalidArgument("blood type must be one of \(bloodTypes.sorted().joined(separator: ", "))")
            }
        default:
            guard !text.isEmpty, text.utf8.count <= 256 else { throw .invalidArgument("value must be 1 to 256 bytes") }
        }
    }

    /// True for a real calendar date written `YYYY-MM-DD`.
    static func isCalendarDate(_ text: String) -> Bool {
        text.utf8.count == 10 && ISODate.parse(text) != nil
    }
}
