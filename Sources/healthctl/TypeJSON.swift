import BrokerModel

/// One catalogued type as a JSON object: identifier, alias, kind, shareable, aggregation, dimension.
struct TypeJSON: Encodable, Equatable {
    /// The HealthKit identifier.
    var identifier: String
    /// The short name healthctl accepts.
    var alias: String
    /// quantity, category, workout or characteristic.
    var kind: String
    /// Whether an app may ask to share (write) it.
    var shareable: Bool
    /// cumulative, discrete or none.
    var aggregation: String
    /// The unit's dimension, or none.
    var dimension: String

    /// Describes `descriptor`.
    init(_ descriptor: TypeDescriptor) {
        identifier = descriptor.type.identifier
        alias = TypeArgument.alias(of: descriptor.type)
        kind = descriptor.kind.rawValue
        shareable = descriptor.canShare
        aggregation = descriptor.aggregation.rawValue
        dimension = descriptor.dimension.rawValue
    }
}
