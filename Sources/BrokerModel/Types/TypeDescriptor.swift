/// What the broker knows about one catalogued type: its kind, aggregation, unit and the words people read.
public struct TypeDescriptor: Sendable, Hashable {
    /// The type.
    public let type: ObjectType
    /// Quantity, category, workout, correlation or characteristic.
    public let kind: TypeKind
    /// Cumulative, discrete, or none for non-quantities.
    public let aggregation: AggregationStyle
    /// The unit's dimension, or none for non-quantities.
    public let dimension: UnitDimension
    /// The unit values are stored and shown in by default (a HealthKit unit string; "" for non-quantities).
    public let canonicalUnit: String
    /// Whether an app may ask to share (write) the type, as HealthKit allows.
    public let canShare: Bool
    /// The name a person reads: `Steps`, `Blood glucose`.
    public let displayName: String
    /// Where a person finds the type: Activity, Heart, Sleep, …
    public let group: TypeGroup
    /// Grams per mole of what a quantity measures, for mol-based units (`mmol/L` of blood glucose); nil when none applies.
    public let molarMass: Double?

    /// Creates a descriptor with everything given.
    public init(
        type: ObjectType, kind: TypeKind, aggregation: AggregationStyle, dimension: UnitDimension,
        canonicalUnit: String, canShare: Bool, displayName: String, group: TypeGroup, molarMass: Double? = nil
    ) {
        self.type = type
        self.kind = kind
        self.aggregation = aggregation
        self.dimension = dimension
        self.canonicalUnit = canonicalUnit
        self.canShare = canShare
        self.displayName = displayName
        self.group = group
        self.molarMass = molarMass
    }

    /// Creates a descriptor with the dimension's canonical unit, the identifier as its name, shareable unless a characteristic.
    public init(type: ObjectType, kind: TypeKind, aggregation: AggregationStyle, dimension: UnitDimension) {
        self.init(type: type, kind: kind, aggregation: aggregation, dimension: dimension,
                  canonicalUnit: dimension.canonicalUnit, canShare: kind != .characteristic,
                  displayName: type.identifier, group: kind == .characteristic ? .characteristics : .other)
    }

    /// Whether the type is a characteristic of the person (date of birth, biological sex, blood type, …).
    public var isCharacteristic: Bool { kind == .characteristic }
}
