import BrokerModel

/// One catalogued type as a JSON object: identifier, alias, kind, shareable, aggregation, dimension,
/// canonical unit, the name and group people read, and the values it takes.
struct TypeJSON: Encodable, Equatable {
    /// One category value: its HealthKit case name and raw value.
    struct CategoryValue: Encodable, Equatable {
        var name: String
        var value: Int64
    }

    /// The HealthKit identifier.
    var identifier: String
    /// The short name healthctl accepts.
    var alias: String
    /// quantity, category, workout, correlation or characteristic.
    var kind: String
    /// Whether an app may ask to share (write) it.
    var shareable: Bool
    /// cumulative, discrete or none.
    var aggregation: String
    /// The unit's dimension, or none.
    var dimension: String
    /// The unit values are stored and shown in by default ("" for non-quantities).
    var canonicalUnit: String
    /// Grams per mole, for types whose mol-based units convert to mass-based ones.
    var molarMass: Double?
    /// The name a person reads.
    var displayName: String
    /// The group a person finds it in.
    var group: String
    /// A category type's values.
    var categoryValues: [CategoryValue]?
    /// A characteristic's values (none for date of birth).
    var characteristicValues: [String]?
    /// A correlation type's member types.
    var members: [String]?
    /// The workout type's activity types.
    var activityTypes: [String]?

    /// Describes `descriptor`.
    init(_ descriptor: TypeDescriptor) {
        let type = descriptor.type
        identifier = type.identifier
        alias = TypeArgument.alias(of: type)
        kind = descriptor.kind.rawValue
        shareable = descriptor.canShare
        aggregation = descriptor.aggregation.rawValue
        dimension = descriptor.dimension.rawValue
        canonicalUnit = descriptor.canonicalUnit
        molarMass = descriptor.molarMass
        displayName = descriptor.displayName
        group = descriptor.group.displayName
        switch descriptor.kind {
        case .category:
            categoryValues = TypeCatalogue.categoryValues(of: type).map { CategoryValue(name: $0.name, value: $0.value) }
        case .characteristic:
            let values = TypeCatalogue.characteristicValues(of: type)
            characteristicValues = values.isEmpty ? nil : values
        case .correlation:
            members = TypeCatalogue.correlationMembers(of: type).map(\.identifier)
        case .workout:
            activityTypes = TypeCatalogue.workoutActivityTypes
        case .quantity:
            break
        }
    }
}
