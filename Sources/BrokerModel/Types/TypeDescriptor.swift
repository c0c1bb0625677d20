/// What the broker knows about one catalogued type: its kind, aggregation and unit dimension.
public struct TypeDescriptor: Sendable, Hashable {
    /// The type.
    public let type: ObjectType
    /// Quantity, category, workout or characteristic.
    public let kind: TypeKind
    /// Cumulative, discrete, or none for non-quantities.
    public let aggregation: AggregationStyle
    /// The unit's dimension, or none for non-quantities.
    public let dimension: UnitDimension

    /// Creates a descriptor.
    public init(type: ObjectType, kind: TypeKind, aggregation: AggregationStyle, dimension: UnitDimension) {
        self.type = type
        self.kind = kind
        self.aggregation = aggregation
        self.dimension = dimension
    }

    /// Whether an app may ask to share (write) the type: false for characteristics.
    public var canShare: Bool { kind != .characteristic }

    /// Whether the type is a characteristic of the person (date of birth, biological sex, blood type).
    public var isCharacteristic: Bool { kind == .characteristic }
}
