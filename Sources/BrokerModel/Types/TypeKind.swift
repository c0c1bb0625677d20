/// What kind of HealthKit type an identifier names.
public enum TypeKind: String, Sendable {
    /// A quantity type (`HKQuantityType`): numeric samples with a unit.
    case quantity
    /// A category type (`HKCategoryType`): samples with an enumerated value.
    case category
    /// The workout type (`HKWorkoutType`).
    case workout
    /// A characteristic of the person (`HKCharacteristicType`): read-only, never shared.
    case characteristic
    /// A correlation type (`HKCorrelationType`: blood pressure, food): samples grouping quantity samples.
    /// Apps ask for its member types, never for the correlation type itself.
    case correlation
}
